/// What makes libyaml, a YAML 1.1 reader, read two things as YAML 1.2 and JSON do.
///
/// - **NEL, LS and PS** (U+0085, U+2028, U+2029). YAML 1.1 breaks lines at them, so libyaml folded one in a quoted
///   scalar into a space (`"x<LS>y"` read as `x y`, in JSON too, which allows them raw), dropped one that ended a
///   plain scalar, refused one inside a plain or block scalar as a syntax error, and counted lines an editor does not
///   show. YAML 1.2, JSON, editors and the Language Server Protocol treat them as ordinary characters. Each is handed
///   to libyaml as a stand-in: a character past U+FFFF that the input does not hold, which libyaml reads as the
///   ordinary character YAML 1.2 says the separator is.
/// - **A character past U+FFFF written as a JSON escape pair** (`"\uD83D\uDE00"`, 😀). JSON has no other escape for
///   one, and JSON writers use it for every emoji unless told otherwise (PHP's `json_encode`, Python's `json.dumps`).
///   libyaml refuses each half as a code point that does not exist, so such a file did not read at all. Each pair is
///   handed to libyaml as `\uMMMM\uNNNN`: a marker MMMM the input does not hold or escape, and NNNN the pair's place
///   in a table of the input's pairs. In a double-quoted scalar libyaml reads the two characters, which become the one
///   the pair stands for; anywhere else the text is read as written, and becomes the pair's text again. A surrogate
///   escape that is not half of a pair is left as it is, for libyaml to refuse.
///
/// Either replacement is as many characters as what it replaces, so libyaml's marks (character index, line, column)
/// are those of the input; each scalar's text gets the input's back (``restoring(_:)``). An input with nothing to
/// spare for a stand-in is refused: one holding every character past U+FFFF and a separator (over 4 MiB), or escape
/// pairs and nearly every character of the Basic Multilingual Plane (190 KB of nothing else), or more than 63,232
/// different pairs (760 KB of nothing else).
///
/// A class: the reader hands an optional one to its loop, and an optional struct of six arrays, nil for nearly every
/// input, cost each read of 48 rules 3.1K instructions more.
final class InputSubstitution: Sendable {
    /// What libyaml reads: the input after its byte-order mark, with the replacements.
    let bytes: [UInt8]
    /// The separators' UTF-8 bytes (NEL, LS, PS) and their stand-ins' 4 bytes, in that order.
    private let separators: [[UInt8]]
    private let standIns: [[UInt8]]
    /// The escape pairs as written, 12 bytes each, by their place in the table (NNNN's offset from `firstIndex`).
    private let pairs: [[UInt8]]
    /// The marker as a character (what a double-quoted scalar reads) and as the escape written in its place.
    private let marker: [UInt8]
    private let markerEscape: [UInt8]

    private static let separatorCodePoints: [UInt32] = [0x85, 0x2028, 0x2029]
    /// The first code point standing for a pair's place in the table, skipping the surrogates.
    private static let firstIndex: UInt32 = 0x100

    /// The substitution for an input that holds a separator or a surrogate escape
    /// (``ScreenedInput/needsSubstitution``), or the problem that it has no stand-ins to spare.
    static func make(
        for input: UnsafeRawBufferPointer, screened: ScreenedInput
    ) -> Result<InputSubstitution, Diagnostic> {
        let start = screened.byteOrderMarkLength
        // One bit for each code point: set when the input holds it, or when an escape could make it or spell it.
        var used = [UInt64](repeating: 0, count: 0x11_0000 / 64)
        func markUsed(_ codePoint: UInt32) {
            guard codePoint < 0x11_0000 else { return }
            used[Int(codePoint / 64)] |= 1 << UInt64(codePoint % 64)
        }
        func isUsed(_ codePoint: UInt32) -> Bool { used[Int(codePoint / 64)] & 1 << UInt64(codePoint % 64) != 0 }
        var pairs: [[UInt8]] = []
        var pairIndex: [[UInt8]: Int] = [:]
        // Where each pair is written and its place in the table, in the input's order.
        var pairStarts: [(offset: Int, place: Int)] = []
        var index = start
        while index < input.count {
            let byte = input[index]
            if byte >= 0x80 {
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
                var codePoint = UInt32(byte) & (length == 4 ? 0x07 : length == 3 ? 0x0F : 0x1F)
                for offset in 1..<length { codePoint = codePoint << 6 | UInt32(input[index + offset] & 0x3F) }
                markUsed(codePoint)
                index += length
                continue
            }
            guard byte == UInt8(ascii: "\\"), index + 1 < input.count else {
                index += 1
                continue
            }
            switch input[index + 1] {
            case UInt8(ascii: "\\"):
                // An escaped backslash: what follows is not an escape, but where escapes are text (a plain scalar),
                // the second backslash starts the text of one, which no marker may spell.
                if index + 2 < input.count, input[index + 2] | 0x20 == UInt8(ascii: "u"),
                    let value = hexValue(input, from: index + 3, count: input[index + 2] == UInt8(ascii: "u") ? 4 : 8)
                {
                    markUsed(value)
                }
                index += 2
                continue
            case UInt8(ascii: "U"):
                if let value = hexValue(input, from: index + 2, count: 8) { markUsed(value) }
            case UInt8(ascii: "u"):
                guard let value = hexValue(input, from: index + 2, count: 4) else { break }
                markUsed(value)
                if (0xD800...0xDBFF).contains(value), index + 12 <= input.count, input[index + 6] == UInt8(ascii: "\\"),
                    input[index + 7] == UInt8(ascii: "u"), let low = hexValue(input, from: index + 8, count: 4),
                    (0xDC00...0xDFFF).contains(low)
                {
                    let pair = Array(input[index..<index + 12])
                    if pairIndex[pair] == nil {
                        pairIndex[pair] = pairs.count
                        pairs.append(pair)
                    }
                    pairStarts.append((index, pairIndex[pair]!))
                    index += 12
                    continue
                }
            case UInt8(ascii: "x"):
                if let value = hexValue(input, from: index + 2, count: 2) { markUsed(value) }
            default: break
            }
            index += 1
        }
        func noStandIn(_ what: String) -> Result<InputSubstitution, Diagnostic> {
            .failure(.error(
                .yamlNoStandIn,
                "the input holds \(what), so the reader has no character left to stand in for what libyaml would "
                    + "misread; split the file",
                at: .wholeInputStart))
        }
        // Separators' stand-ins: the first free code points from U+F0000 (private use), then from U+10000.
        var standIns: [[UInt8]] = []
        if screened.hasUnicodeLineBreaks {
            search: for range in [UInt32(0xF_0000)...0x10_FFFF, 0x1_0000...0xE_FFFF] {
                for codePoint in range where !isUsed(codePoint) {
                    standIns.append(utf8(codePoint))
                    if standIns.count == separatorCodePoints.count { break search }
                }
            }
            guard standIns.count == separatorCodePoints.count else {
                return noStandIn(
                    "a line or paragraph separator (U+0085, U+2028 or U+2029) and every character past U+FFFF")
            }
        }
        // The pairs' marker: the first free code point from U+E000 (private use), then from U+0100, not a surrogate.
        var marker: UInt32?
        if !pairs.isEmpty {
            search: for range in [UInt32(0xE000)...0xFFFF, 0x100...0xD7FF] {
                for codePoint in range where !isUsed(codePoint) {
                    marker = codePoint
                    break search
                }
            }
            guard marker != nil, pairs.count <= 0xD800 - Int(firstIndex) + 0x2000 else {
                return noStandIn("more than 63,232 different escape pairs (such as \\uD83D\\uDE00), or escape pairs "
                    + "and nearly every character below U+10000")
            }
        }
        let separators = separatorCodePoints.map(utf8)
        let markerEscape = marker.map { escape($0) } ?? []
        var bytes: [UInt8] = []
        bytes.reserveCapacity(input.count - start + 64)
        index = start
        var nextPair = 0
        while index < input.count {
            if nextPair < pairStarts.count, pairStarts[nextPair].offset == index {
                bytes += markerEscape
                bytes += escape(placeCodePoint(pairStarts[nextPair].place))
                nextPair += 1
                index += 12
            } else if !standIns.isEmpty, let which = separator(at: index, in: input) {
                bytes += standIns[which]
                index += separators[which].count
            } else {
                bytes.append(input[index])
                index += 1
            }
        }
        return .success(InputSubstitution(bytes: bytes, separators: separators, standIns: standIns, pairs: pairs,
            marker: marker.map(utf8) ?? [], markerEscape: markerEscape))
    }

    private init(
        bytes: [UInt8], separators: [[UInt8]], standIns: [[UInt8]], pairs: [[UInt8]], marker: [UInt8],
        markerEscape: [UInt8]
    ) {
        self.bytes = bytes
        self.separators = separators
        self.standIns = standIns
        self.pairs = pairs
        self.marker = marker
        self.markerEscape = markerEscape
    }

    /// The code point that stands for the pair at `place` in the table: from U+0100 on, past the surrogates.
    private static func placeCodePoint(_ place: Int) -> UInt32 {
        let codePoint = firstIndex + UInt32(place)
        return codePoint < 0xD800 ? codePoint : codePoint + 0x800
    }

    /// The place in the table that `codePoint` stands for, if it stands for one.
    private func place(of codePoint: UInt32) -> Int? {
        let place = Int(codePoint) - Int(Self.firstIndex) - (codePoint < 0xD800 ? 0 : 0x800)
        return place >= 0 && place < pairs.count && !(0xD800...0xDFFF).contains(codePoint) ? place : nil
    }

    /// `\uxxxx`, as JSON writes it.
    private static func escape(_ codePoint: UInt32) -> [UInt8] {
        var escape: [UInt8] = []
        JSONValue.unicodeEscape(codePoint, to: &escape)
        return escape
    }

    private static func utf8(_ codePoint: UInt32) -> [UInt8] {
        Array(String(Unicode.Scalar(codePoint)!).utf8)
    }

    /// Which separator starts at `index` (0 NEL, 1 LS, 2 PS), if one does; the bytes are valid UTF-8.
    private static func separator(at index: Int, in input: UnsafeRawBufferPointer) -> Int? {
        switch input[index] {
        case 0xC2: input[index + 1] == 0x85 ? 0 : nil
        case 0xE2 where input[index + 1] == 0x80 && (input[index + 2] == 0xA8 || input[index + 2] == 0xA9):
            Int(input[index + 2] - 0xA8) + 1
        default: nil
        }
    }

    /// The value of `count` hex digits at `from`, or nil when there are fewer or they are not all hex digits.
    private static func hexValue(_ input: UnsafeRawBufferPointer, from: Int, count: Int) -> UInt32? {
        guard from + count <= input.count else { return nil }
        var value: UInt32 = 0
        for byte in input[from..<from + count] {
            guard let digit = byte.hexDigitValue else { return nil }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// A scalar's text as libyaml gave it, with the input's text in place of each replacement: a separator for its
    /// stand-in; for an escape pair, the character it stands for where libyaml read the escapes (a double-quoted
    /// scalar), its text where it did not. The marker appears nowhere else, as a character or as an escape, so
    /// neither is mistaken.
    func restoring(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var restored: [UInt8] = []
        restored.reserveCapacity(text.count)
        var index = 0
        while index < text.count {
            let byte = text[index]
            if byte >= 0xF0, index + 4 <= text.count,
                let which = standIns.firstIndex(where: { $0.elementsEqual(text[index..<index + 4]) })
            {
                restored += separators[which]
                index += 4
            } else if !marker.isEmpty, byte == marker[0], text[index...].starts(with: marker),
                let (place, length) = placeRead(in: text, at: index + marker.count)
            {
                restored += pairCharacter(pairs[place])
                index += marker.count + length
            } else if !markerEscape.isEmpty, byte == UInt8(ascii: "\\"), text[index...].starts(with: markerEscape),
                index + 12 <= text.count, text[index + 6] == UInt8(ascii: "\\"), text[index + 7] == UInt8(ascii: "u"),
                let place = placeWritten(in: text, at: index + 8)
            {
                restored += pairs[place]
                index += 12
            } else {
                restored.append(byte)
                index += 1
            }
        }
        return restored
    }

    /// The place in the table that the 4 hex digits at `index` (after the marker's escape and `\u`) spell.
    private func placeWritten(in text: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        Self.hexValue(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: text[index..<index + 4])), from: 0, count: 4)
            .flatMap(place(of:))
    }

    /// The place in the table of the character at `index` (after the marker), and its length in bytes.
    private func placeRead(in text: UnsafeBufferPointer<UInt8>, at index: Int) -> (Int, Int)? {
        guard index < text.count else { return nil }
        let lead = text[index]
        let length = lead < 0x80 ? 1 : lead >= 0xE0 ? 3 : 2
        guard index + length <= text.count else { return nil }
        var codePoint = UInt32(lead) & (length == 1 ? 0x7F : length == 3 ? 0x0F : 0x1F)
        for offset in 1..<length { codePoint = codePoint << 6 | UInt32(text[index + offset] & 0x3F) }
        return place(of: codePoint).map { ($0, length) }
    }

    /// The UTF-8 bytes of the character an escape pair (`\uD83D\uDE00`) stands for.
    private func pairCharacter(_ pair: [UInt8]) -> [UInt8] {
        pair.withUnsafeBytes { bytes in
            let high = Self.hexValue(bytes, from: 2, count: 4)!, low = Self.hexValue(bytes, from: 8, count: 4)!
            return Self.utf8(0x1_0000 + (high - 0xD800) << 10 + (low - 0xDC00))
        }
    }

    /// The number of characters before byte `offset` of ``bytes``: where libyaml's byte offsets, which count a
    /// separator's stand-in as 4 bytes, are in the input's characters.
    func characterIndex(ofByte offset: Int) -> Int {
        bytes[..<min(offset, bytes.count)].reduce(0) { $1.isUTF8Continuation ? $0 : $0 + 1 }
    }
}
