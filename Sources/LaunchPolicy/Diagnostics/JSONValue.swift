import Foundation

/// A JSON value whose objects keep their keys in the order given, for what people read and scripts parse: decisions,
/// policy-lint's JSON and SARIF, and the library's state files (read back by `JSONReader`).
public enum JSONValue: Sendable {
    case null
    case bool(Bool)
    case int(Int)
    /// A number with a fraction, such as a share (0.183); written as `null` when it is not finite.
    case double(Double)
    case string(String)
    case array([JSONValue])
    /// An object, its keys in this order.
    case object([(String, JSONValue)])

    /// A string, or null for nil.
    public static func string(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }

    /// The value as JSON text on one line (RFC 8259; non-ASCII characters are written as they are, in UTF-8).
    public var text: String {
        var output: [UInt8] = []
        write(to: &output, indentation: nil, handOn: nil)
        return String(decoding: output, as: UTF8.self)
    }

    /// Writes the value as ``text`` does, handing `output` its UTF-8 bytes in pieces as they are written: a piece is
    /// handed on once it holds `pieceSize` bytes, at the end of an array item or object member, so it is longer by
    /// at most that item's own text (a string is written whole); the last piece may be shorter.
    ///
    /// For documents that may be far larger than what they are made from: a decision quotes its message's text at
    /// each rule that shows it, so a policy of a few hundred kilobytes can make a decision of hundreds of megabytes,
    /// which `launch-policy eval --format json` writes without ever holding it whole.
    public func write(inPiecesOf pieceSize: Int = 1 << 16, to output: ([UInt8]) -> Void) {
        Self.writePieces(of: pieceSize, to: output) { bytes, handOn in
            write(to: &bytes, indentation: nil, handOn: handOn)
        }
    }

    /// Writes an array of `items` as ``write(inPiecesOf:to:)`` writes `.array(Array(items))`, making each item only
    /// when it is written: with a lazy sequence, neither the items nor the text are ever all in memory.
    public static func write<Items: Sequence<JSONValue>>(arrayOf items: Items, inPiecesOf pieceSize: Int = 1 << 16,
        to output: ([UInt8]) -> Void)
    {
        writePieces(of: pieceSize, to: output) { bytes, handOn in
            writeArray(items, to: &bytes, indentation: nil, handOn: handOn)
        }
    }

    /// Hands on what `write` writes whenever a piece is full, and the rest at the end.
    private static func writePieces(of pieceSize: Int, to output: ([UInt8]) -> Void,
        _ write: (inout [UInt8], @escaping (inout [UInt8]) -> Void) -> Void)
    {
        withoutActuallyEscaping(output) { output in
            var bytes: [UInt8] = []
            bytes.reserveCapacity(min(max(pieceSize, 0), 1 << 20) + 1_024)
            write(&bytes) { bytes in
                guard bytes.count >= pieceSize else { return }
                output(bytes)
                bytes.removeAll(keepingCapacity: true)
            }
            if !bytes.isEmpty { output(bytes) }
        }
    }

    /// Appends ``text``'s UTF-8 bytes to `output`.
    func appendText(to output: inout [UInt8]) {
        write(to: &output, indentation: nil, handOn: nil)
    }

    /// The value as JSON text with each array item and object member on a line of its own, indented by two spaces a
    /// level, as the library writes its state files for people to read: its UTF-8 bytes, as a file is written.
    var indentedBytes: [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(512)
        write(to: &output, indentation: 0, handOn: nil)
        return output
    }

    /// Writes the value as UTF-8 bytes; `indentation` is the current line's depth, or nil for one line. `handOn`, when
    /// given, is called after each array item and object member, and may take what is written so far out of `output`.
    ///
    /// Into bytes, not a `String`: a string's appends cost a few hundred instructions each, and policy-lint's JSON
    /// and SARIF formats write tens of thousands of values; written into a string, JSON was a tenth of linting a
    /// thousand files.
    private func write(to output: inout [UInt8], indentation: Int?, handOn: ((inout [UInt8]) -> Void)?) {
        switch self {
        case .null: output += "null".utf8
        case .bool(let value): output += (value ? "true" : "false").utf8
        case .int(let value): output += String(value).utf8
        case .double(let value): output += (value.isFinite ? String(value) : "null").utf8
        case .string(let value): Self.writeString(value, to: &output)
        case .array(let items): Self.writeArray(items, to: &output, indentation: indentation, handOn: handOn)
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, (key, value)) in members.enumerated() {
                Self.separate(index, indentation, &output)
                Self.writeString(key, to: &output)
                output += ": ".utf8
                value.write(to: &output, indentation: indentation.map { $0 + 1 }, handOn: handOn)
                handOn?(&output)
            }
            Self.close(indentation, empty: members.isEmpty, &output)
            output.append(UInt8(ascii: "}"))
        }
    }

    /// Writes an array of `items`, each made as it is written.
    private static func writeArray<Items: Sequence<JSONValue>>(_ items: Items, to output: inout [UInt8],
        indentation: Int?, handOn: ((inout [UInt8]) -> Void)?)
    {
        output.append(UInt8(ascii: "["))
        var count = 0
        for item in items {
            separate(count, indentation, &output)
            item.write(to: &output, indentation: indentation.map { $0 + 1 }, handOn: handOn)
            handOn?(&output)
            count += 1
        }
        close(indentation, empty: count == 0, &output)
        output.append(UInt8(ascii: "]"))
    }

    /// What goes before a container's `index`th item: a comma after the first, and on indented lines, a line break
    /// and the item's indentation.
    private static func separate(_ index: Int, _ indentation: Int?, _ output: inout [UInt8]) {
        guard let indentation else {
            if index > 0 { output += ", ".utf8 }
            return
        }
        if index > 0 { output.append(UInt8(ascii: ",")) }
        output.append(UInt8(ascii: "\n"))
        output += repeatElement(UInt8(ascii: " "), count: 2 * (indentation + 1))
    }

    /// On indented lines, the line break and indentation before a container's closing bracket.
    private static func close(_ indentation: Int?, empty: Bool, _ output: inout [UInt8]) {
        guard let indentation, !empty else { return }
        output.append(UInt8(ascii: "\n"))
        output += repeatElement(UInt8(ascii: " "), count: 2 * indentation)
    }

    /// A string with JSON's escapes: the quote, the backslash and the line breaks by letter, and as `\u` escapes the
    /// other controls, DEL, the C1 controls, the line and paragraph separators and the byte-order mark. Valid JSON
    /// either way, and so the same text is a YAML double-quoted scalar (YAML allows none of them raw), which the
    /// converter relies on. The bidirectional controls (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069)
    /// are escaped too: raw, they reorder what a terminal or a web page shows of the output around them (a policy's
    /// text quoted in a finding can make `policy-lint --format json` read as something else), and escaped, every JSON
    /// reader reads the same characters. The runs between escapes are copied whole.
    private static func writeString(_ value: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { bytes in
            var run = 0
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                // How many bytes the character to escape takes, and the escape; 0 when it is written as it is.
                var length = 1
                var escape: UInt32?
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x0A, 0x0D, 0x09: escape = UInt32(byte)
                case 0..<0x20, 0x7F: escape = UInt32(byte)
                case 0xC2 where index + 1 < bytes.count && (0x80...0x9F).contains(bytes[index + 1]):
                    (length, escape) = (2, UInt32(bytes[index + 1]))
                case 0xE2 where index + 2 < bytes.count && bytes[index + 1] == 0x80
                    && [0x8E, 0x8F, 0xA8, 0xA9, 0xAA, 0xAB, 0xAC, 0xAD, 0xAE].contains(bytes[index + 2]):
                    (length, escape) = (3, 0x2000 + (UInt32(bytes[index + 2]) - 0x80))
                case 0xE2 where index + 2 < bytes.count && bytes[index + 1] == 0x81
                    && (0xA6...0xA9).contains(bytes[index + 2]):
                    (length, escape) = (3, 0x2040 + (UInt32(bytes[index + 2]) - 0x80))
                case 0xD8 where index + 1 < bytes.count && bytes[index + 1] == 0x9C:
                    (length, escape) = (2, 0x061C)
                case 0xEF where index + 2 < bytes.count && bytes[index + 1] == 0xBB && bytes[index + 2] == 0xBF:
                    (length, escape) = (3, 0xFEFF)
                default: break
                }
                guard let escape else {
                    index += 1
                    continue
                }
                output += UnsafeBufferPointer(rebasing: bytes[run..<index])
                switch escape {
                case 0x22: output += #"\""#.utf8
                case 0x5C: output += #"\\"#.utf8
                case 0x0A: output += #"\n"#.utf8
                case 0x0D: output += #"\r"#.utf8
                case 0x09: output += #"\t"#.utf8
                default: unicodeEscape(escape, to: &output)
                }
                index += length
                run = index
            }
            output += UnsafeBufferPointer(rebasing: bytes[run...])
        }
        output.append(UInt8(ascii: "\""))
    }

    /// `\u0007`: the code in four lower-case hexadecimal digits (only scalars below U+10000 are escaped).
    static func unicodeEscape(_ code: UInt32, to output: inout [UInt8]) {
        output += #"\u"#.utf8
        for shift in stride(from: 12, through: 0, by: -4) {
            let digit = UInt8((code >> UInt32(shift)) & 0xF)
            output.append(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10)
        }
    }
}
