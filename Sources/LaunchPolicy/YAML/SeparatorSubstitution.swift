/// What makes libyaml, a YAML 1.1 reader, read NEL, LS and PS (U+0085, U+2028, U+2029) as YAML 1.2 does: as
/// characters of their line, not line breaks.
///
/// YAML 1.1 breaks lines at them. libyaml therefore folded one in a quoted scalar into a space (`"x<LS>y"` read as
/// `x y`, in JSON too, which allows them raw), dropped one that ended a plain scalar, refused one inside a plain or
/// block scalar as a syntax error, and counted lines an editor does not show. YAML 1.2, JSON, editors and the
/// Language Server Protocol treat them as ordinary characters. So libyaml is handed a copy of the input in which each
/// of them is replaced by a stand-in: a character past U+FFFF that the input does not hold, which libyaml reads as the
/// ordinary character YAML 1.2 says the separator is. A stand-in is one character, as the separator is, so libyaml's
/// marks (character index, line, column) are those of the input; the stand-ins in scalars' text are turned back into
/// the separators.
///
/// A stand-in must not appear in the text in another way: characters past U+FFFF the input holds, and those a
/// double-quoted scalar's `\U` escape could make, are never chosen. An input holding all of them (over 4 MiB) has
/// none to spare, and is refused.
struct SeparatorSubstitution {
    /// What libyaml reads: the input after its byte-order mark, each separator replaced.
    let bytes: [UInt8]
    /// The separators' UTF-8 bytes (NEL, LS, PS) and their stand-ins' 4 bytes, in that order.
    private let separators: [[UInt8]]
    private let standIns: [[UInt8]]

    private static let separatorCodePoints: [UInt32] = [0x85, 0x2028, 0x2029]

    /// The substitution for an input that holds a separator (``ScreenedInput/hasUnicodeLineBreaks``), or the
    /// problem that it has no stand-ins to spare.
    static func make(for input: UnsafeRawBufferPointer, screened: ScreenedInput) -> Result<Self, Diagnostic> {
        let start = screened.byteOrderMarkLength
        // One bit for each code point past U+FFFF: set when the input holds it or a `\U` escape could make it.
        var used = [UInt64](repeating: 0, count: 0x10_0000 / 64)
        func markUsed(_ codePoint: UInt32) {
            guard (0x1_0000...0x10_FFFF).contains(codePoint) else { return }
            let bit = Int(codePoint - 0x1_0000)
            used[bit / 64] |= 1 << UInt64(bit % 64)
        }
        var index = start
        while index < input.count {
            let byte = input[index]
            if byte >= 0xF0 {
                // Screened: a valid 4-byte sequence.
                markUsed(UInt32(byte & 0x07) << 18 | UInt32(input[index + 1] & 0x3F) << 12
                    | UInt32(input[index + 2] & 0x3F) << 6 | UInt32(input[index + 3] & 0x3F))
                index += 4
            } else if byte == UInt8(ascii: "\\"), index + 9 < input.count, input[index + 1] == UInt8(ascii: "U"),
                let value = hexValue(input, from: index + 2, count: 8)
            {
                markUsed(value)
                index += 2
            } else {
                index += 1
            }
        }
        // The stand-ins: the first free code points from U+F0000 (private use), then from U+10000.
        var standIns: [[UInt8]] = []
        search: for range in [UInt32(0xF_0000)...0x10_FFFF, 0x1_0000...0xE_FFFF] {
            for codePoint in range where used[Int(codePoint - 0x1_0000) / 64] & 1 << UInt64(codePoint % 64) == 0 {
                standIns.append(Array(String(Unicode.Scalar(codePoint)!).utf8))
                if standIns.count == separatorCodePoints.count { break search }
            }
        }
        guard standIns.count == separatorCodePoints.count else {
            return .failure(.error(
                .yamlNoStandInForSeparators,
                "the input holds a line or paragraph separator (U+0085, U+2028 or U+2029) and every character past "
                    + "U+FFFF, so the reader has no character left to stand for the separator; write it as an "
                    + #"escape (\N, \L or \P) in a double-quoted scalar"#,
                at: .wholeInputStart))
        }
        let separators = separatorCodePoints.map { Array(String(Unicode.Scalar($0)!).utf8) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(input.count - start + 64)
        index = start
        while index < input.count {
            if let which = separator(at: index, in: input) {
                bytes += standIns[which]
                index += separators[which].count
            } else {
                bytes.append(input[index])
                index += 1
            }
        }
        return .success(SeparatorSubstitution(bytes: bytes, separators: separators, standIns: standIns))
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

    /// The value of `count` hex digits at `from`, or nil when they are not all hex digits.
    private static func hexValue(_ input: UnsafeRawBufferPointer, from: Int, count: Int) -> UInt32? {
        var value: UInt32 = 0
        for byte in input[from..<from + count] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// A scalar's text as libyaml gave it, with each stand-in turned back into its separator.
    func restoring(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var restored: [UInt8] = []
        restored.reserveCapacity(text.count)
        var index = 0
        while index < text.count {
            if text[index] >= 0xF0, index + 4 <= text.count,
                let which = standIns.firstIndex(where: { $0.elementsEqual(text[index..<index + 4]) })
            {
                restored += separators[which]
                index += 4
            } else {
                restored.append(text[index])
                index += 1
            }
        }
        return restored
    }

    /// The number of characters before byte `offset` of ``bytes``: where libyaml's byte offsets, which count the
    /// stand-ins' 4 bytes, are in the input's characters.
    func characterIndex(ofByte offset: Int) -> Int {
        bytes[..<min(offset, bytes.count)].reduce(0) { $1.isUTF8Continuation ? $0 : $0 + 1 }
    }
}
