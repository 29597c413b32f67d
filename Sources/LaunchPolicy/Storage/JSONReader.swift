import Foundation

/// Reads JSON text (RFC 8259) into a ``JSONValue``, for the library's state files.
///
/// Strict: nothing but JSON is accepted (a UTF-8 byte order mark aside), strings must be valid UTF-8 with no raw
/// control characters and no lone surrogate escapes, and values nest at most ``maximumDepth`` deep, so that no file
/// can exhaust the stack. A problem is said with the line and column where the text stops being JSON.
///
/// Foundation's `JSONDecoder` read a launch history for about 100,000 instructions at every launch, most of it
/// `Codable`'s machinery; this reads one in a few thousand. The YAML reader, which reads LaunchGate's JSON as the
/// YAML it also is, is not used here: libyaml scans about 200 instructions a byte, and the delivery cache holds a
/// whole policy as one base64 string.
struct JSONReader {
    /// Why the text is not JSON, in words, with where.
    struct Failure: Error, Equatable {
        /// What is wrong, for a diagnostic placed at ``location``.
        let message: String
        /// Where the text stops being JSON (the end, when it ends too soon).
        let location: SourceLocation
        /// Whether ``reason`` adds the line and column to the message (the end of the text needs none).
        let saysWhere: Bool

        /// The message with its line and column in words, for messages that carry no position.
        var reason: String { saysWhere ? "\(message) at line \(location.line), column \(location.column)" : message }
    }

    /// How deep arrays and objects may nest.
    static let maximumDepth = 32

    private let bytes: [UInt8]
    private var offset = 0

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The one JSON value `bytes` holds.
    static func value(of bytes: [UInt8]) throws(Failure) -> JSONValue {
        var reader = JSONReader(bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.offset = 3 }
        let value = try reader.value(depth: 0)
        reader.skipWhitespace()
        guard reader.offset == bytes.count else { throw reader.unexpected("after the value") }
        return value
    }

    /// A place in a JSON text, named by the keys and array indices that lead to it (`latest.kind`, `shown.3`).
    struct Place {
        /// The steps from the top: a key in an object, an index in an array.
        var steps: [Substring]
        /// Whether the place is the last step's key where it appears a second time, rather than its value.
        var repeatedKey = false
    }

    /// Where `place` lies in `bytes`, text that ``value(of:)`` accepts: the value's span, or the second occurrence of
    /// its key. Nil when nothing lies there. Read again only when a state file is found wrong, so that the value tree
    /// carries no positions on the way every launch reads it.
    static func range(of place: Place, in bytes: [UInt8]) -> SourceRange? {
        var reader = JSONReader(bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.offset = 3 }
        return try? reader.range(of: place.steps[...], repeatedKey: place.repeatedKey)
    }

    private mutating func range(of steps: ArraySlice<Substring>, repeatedKey: Bool) throws(Failure) -> SourceRange? {
        skipWhitespace()
        guard let step = steps.first, offset < bytes.count else {
            let start = offset
            _ = try value(depth: 0)
            return SourceRange(start: location(of: start), end: location(of: offset))
        }
        let last = steps.count == 1
        switch bytes[offset] {
        case UInt8(ascii: "{"):
            offset += 1
            skipWhitespace()
            if take(UInt8(ascii: "}")) { return nil }
            var seen = false
            repeat {
                skipWhitespace()
                let keyStart = offset
                let key = try string()
                // Compared as the state file's reader compares keys, so that it finds the key that reader found.
                if key == step {
                    if repeatedKey && last {
                        if seen { return SourceRange(start: location(of: keyStart), end: location(of: offset)) }
                        seen = true
                    } else {
                        skipWhitespace()
                        _ = take(UInt8(ascii: ":"))
                        return try range(of: steps.dropFirst(), repeatedKey: repeatedKey)
                    }
                }
                skipWhitespace()
                _ = take(UInt8(ascii: ":"))
                _ = try value(depth: 0)
                skipWhitespace()
            } while take(UInt8(ascii: ","))
            return nil
        case UInt8(ascii: "["):
            guard let index = Int(step), index >= 0 else { return nil }
            offset += 1
            skipWhitespace()
            if take(UInt8(ascii: "]")) { return nil }
            var current = 0
            repeat {
                if current == index { return try range(of: steps.dropFirst(), repeatedKey: repeatedKey) }
                _ = try value(depth: 0)
                skipWhitespace()
                current += 1
            } while take(UInt8(ascii: ","))
            return nil
        default:
            return nil
        }
    }

    private mutating func value(depth: Int) throws(Failure) -> JSONValue {
        skipWhitespace()
        guard offset < bytes.count else { throw endsEarly() }
        switch bytes[offset] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw unexpected("where a value should start")
        }
    }

    private mutating func object(depth: Int) throws(Failure) -> JSONValue {
        guard depth <= Self.maximumDepth else { throw failure("it nests deeper than \(Self.maximumDepth) levels") }
        offset += 1
        var members: [(String, JSONValue)] = []
        skipWhitespace()
        if take(UInt8(ascii: "}")) { return .object(members) }
        repeat {
            skipWhitespace()
            guard offset < bytes.count else { throw endsEarly() }
            guard bytes[offset] == UInt8(ascii: "\"") else { throw unexpected("where a key should start") }
            let key = try string()
            skipWhitespace()
            guard take(UInt8(ascii: ":")) else { throw unexpected("where a colon should follow the key") }
            members.append((key, try value(depth: depth)))
            skipWhitespace()
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "}")) else { throw unexpected("where a comma or } should be") }
        return .object(members)
    }

    private mutating func array(depth: Int) throws(Failure) -> JSONValue {
        guard depth <= Self.maximumDepth else { throw failure("it nests deeper than \(Self.maximumDepth) levels") }
        offset += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if take(UInt8(ascii: "]")) { return .array(items) }
        repeat {
            items.append(try value(depth: depth))
            skipWhitespace()
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "]")) else { throw unexpected("where a comma or ] should be") }
        return .array(items)
    }

    /// A string, from its opening quote. Without escapes it is made from the bytes where they lie; with them, the
    /// runs between escapes are copied whole. Only text with a byte above ASCII needs checking as UTF-8.
    private mutating func string() throws(Failure) -> String {
        let opening = offset
        offset += 1
        // The text so far when there were escapes, grown in place.
        var unescaped: [UInt8] = []
        var escaped = false
        var run = offset
        var union: UInt8 = 0
        while true {
            guard offset < bytes.count else { throw endsEarly() }
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") { break }
            guard byte >= 0x20 else { throw unexpected("inside a string (a control character must be escaped)") }
            union |= byte
            guard byte == UInt8(ascii: "\\") else {
                offset += 1
                continue
            }
            unescaped += bytes[run..<offset]
            try escape(into: &unescaped)
            escaped = true
            run = offset
        }
        let decoded: String
        let checked: Bool
        if escaped {
            unescaped += bytes[run..<offset]
            decoded = String(decoding: unescaped, as: UTF8.self)
            checked = union < 0x80 || decoded.utf8.elementsEqual(unescaped)
        } else {
            decoded = String(decoding: bytes[run..<offset], as: UTF8.self)
            checked = union < 0x80 || decoded.utf8.elementsEqual(bytes[run..<offset])
        }
        // Decoding repairs what is not UTF-8; a repaired string no longer reads back as the bytes it came from.
        guard checked else { throw failure("a string is not valid UTF-8", at: opening) }
        offset += 1
        return decoded
    }

    /// An escape, from its backslash: the bytes it stands for appended to `text`.
    private mutating func escape(into text: inout [UInt8]) throws(Failure) {
        let start = offset
        offset += 1
        guard offset < bytes.count else { throw endsEarly() }
        let letter = bytes[offset]
        offset += 1
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(letter)
        case UInt8(ascii: "b"): text.append(0x08)
        case UInt8(ascii: "f"): text.append(0x0C)
        case UInt8(ascii: "n"): text.append(0x0A)
        case UInt8(ascii: "r"): text.append(0x0D)
        case UInt8(ascii: "t"): text.append(0x09)
        case UInt8(ascii: "u"):
            var code = try hexQuad()
            if (0xD800...0xDBFF).contains(code) {
                // A high surrogate: only with the low one after it is it a character.
                guard bytes[offset...].starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "u")]) else {
                    throw failure("a \\u escape is half of a surrogate pair", at: start)
                }
                offset += 2
                let low = try hexQuad()
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw failure("a \\u escape is half of a surrogate pair", at: start)
                }
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let scalar = Unicode.Scalar(code) else {
                throw failure("a \\u escape is half of a surrogate pair", at: start)
            }
            if let encoded = UTF8.encode(scalar) { text += encoded }
        default:
            throw failure("\\\(Character(Unicode.Scalar(letter))) is not an escape JSON has", at: start)
        }
    }

    /// Four hexadecimal digits.
    private mutating func hexQuad() throws(Failure) -> UInt32 {
        var code: UInt32 = 0
        for _ in 0..<4 {
            guard offset < bytes.count else { throw endsEarly() }
            guard let digit = bytes[offset].hexDigitValue else {
                throw unexpected("where a \\u escape's four hexadecimal digits should be")
            }
            code = code << 4 | UInt32(digit)
            offset += 1
        }
        return code
    }

    /// A number: an integer that fits `Int` is an `.int`, anything else a `.double`.
    private mutating func number() throws(Failure) -> JSONValue {
        let start = offset
        var integral = true
        _ = take(UInt8(ascii: "-"))
        guard offset < bytes.count else { throw endsEarly() }
        if bytes[offset] == UInt8(ascii: "0") {
            offset += 1
        } else {
            guard try digits() > 0 else { throw unexpected("where a number's digits should be") }
        }
        if take(UInt8(ascii: ".")) {
            integral = false
            guard try digits() > 0 else { throw unexpected("where a fraction's digits should be") }
        }
        if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
            integral = false
            if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
            guard try digits() > 0 else { throw unexpected("where an exponent's digits should be") }
        }
        let text = String(decoding: bytes[start..<offset], as: UTF8.self)
        if integral, let integer = Int(text) { return .int(integer) }
        guard let double = Double(text), double.isFinite else { throw failure("a number is too large", at: start) }
        return .double(double)
    }

    /// Skips decimal digits and says how many there were.
    private mutating func digits() throws(Failure) -> Int {
        let start = offset
        while offset < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[offset]) { offset += 1 }
        return offset - start
    }

    private mutating func literal(_ word: StaticString, _ value: JSONValue) throws(Failure) -> JSONValue {
        let word = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard bytes[offset...].starts(with: word) else {
            throw bytes.count - offset < word.count && word.starts(with: bytes[offset...])
                ? endsEarly() : unexpected("where a value should start")
        }
        offset += word.count
        return value
    }

    /// Whether the next byte is `byte`, taking it if so.
    private mutating func take(_ byte: UInt8) -> Bool {
        guard offset < bytes.count, bytes[offset] == byte else { return false }
        offset += 1
        return true
    }

    private mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x0A, 0x0D, 0x09: offset += 1
            default: return
            }
        }
    }

    private func endsEarly() -> Failure {
        Failure(message: "it is not valid JSON: it ends too soon (cut short?)", location: location(of: bytes.count),
            saysWhere: false)
    }

    /// The byte at the current offset is not what JSON allows there.
    private func unexpected(_ place: String) -> Failure {
        guard offset < bytes.count else { return endsEarly() }
        return failure("unexpected \(describe(bytes[offset])) \(place)", at: offset)
    }

    private func failure(_ what: String, at offset: Int? = nil) -> Failure {
        Failure(message: "it is not valid JSON: \(what)", location: location(of: offset ?? self.offset),
            saysWhere: true)
    }

    /// The line and column of a byte offset, counted as the YAML reader counts them and the diagnostic renderer
    /// shows them: lines broken at LF, CR and CR LF, columns in scalars, a byte order mark in the offset but not in
    /// the column.
    private func location(of offset: Int) -> SourceLocation {
        bytes.withUnsafeBytes { SourceMap.location(ofByte: offset, in: $0) }
    }

    private func describe(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte) ? "\"\(Character(Unicode.Scalar(byte)))\"" : "byte 0x\(String(byte, radix: 16))"
    }
}
