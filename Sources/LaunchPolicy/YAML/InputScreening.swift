import Foundation

/// The checks made on the raw bytes before libyaml sees them, and the map from libyaml's marks to byte offsets.
///
/// libyaml counts positions in characters, excludes a byte-order mark, and reports encoding problems with a raw byte
/// offset only. Screening the bytes first gives every encoding problem a line and column and lets the reader hand
/// libyaml input that is known to be UTF-8.
///
/// Lines break at LF, CR and CR LF, as YAML 1.2, editors and the Language Server Protocol break them
/// (``SourceMap/lineBreakLength(at:in:)``). libyaml, a YAML 1.1 reader, also breaks lines at NEL, LS and PS
/// (U+0085, U+2028, U+2029): an input that holds one is handed to it with stand-ins for them
/// (``InputSubstitution``).
struct ScreenedInput {
    /// 3 when the input starts with a UTF-8 byte-order mark, else 0.
    let byteOrderMarkLength: Int
    /// Whether every byte is ASCII; then a character index is a byte offset.
    let isASCII: Bool
    /// The number of characters after the byte-order mark, as libyaml counts them.
    let characterCount: Int
    /// Whether the input holds NEL, LS or PS, where libyaml's lines break and ours do not.
    let hasUnicodeLineBreaks: Bool
    /// Whether the input may hold an escaped surrogate (`\uD83D`), half of a JSON escape pair, which libyaml refuses.
    let hasSurrogateEscapes: Bool

    /// Whether libyaml reads the input through an ``InputSubstitution``.
    var needsSubstitution: Bool { hasUnicodeLineBreaks || hasSurrogateEscapes }

    /// The defined answers for encoding edge cases:
    /// - more bytes than the limit: `yaml.input-too-large`, at the first byte past the limit. `size` is the whole
    ///   input's, which a file read only to one byte past the limit (``YAMLLimits/readLimit``) has beyond `bytes`,
    ///   and nil when that is unknown (a pipe read only so far);
    /// - a UTF-16 or UTF-32 byte-order mark, or the NUL bytes of UTF-16 or UTF-32 in the first character:
    ///   `yaml.unsupported-encoding` at 1:1;
    /// - a UTF-8 byte-order mark: accepted and skipped (offsets count it, columns do not);
    /// - invalid UTF-8 (including overlong forms, surrogates and code points past U+10FFFF): `yaml.invalid-utf8`
    ///   at the first offending byte;
    /// - a NUL byte: `yaml.nul-byte` at that byte.
    static func screen(
        _ bytes: UnsafeRawBufferPointer, size: Int?, limits: YAMLLimits
    ) -> Result<ScreenedInput, Diagnostic> {
        let limit = min(limits.maximumInputBytes, YAMLLimits.largestInputBytes)
        if bytes.count > limit {
            let location = SourceMap.location(ofByte: limit, in: bytes)
            let size = size.map { "\(max($0, bytes.count)) bytes, more" } ?? "more"
            return .failure(.error(
                .yamlInputTooLarge, "the input is \(size) than the limit of \(limit) bytes",
                at: SourceRange(start: location)))
        }
        for foreignMark: [UInt8] in [[0x00, 0x00, 0xFE, 0xFF], [0xFF, 0xFE], [0xFE, 0xFF]]
        where bytes.starts(with: foreignMark) {
            return .failure(.error(
                .yamlUnsupportedEncoding,
                "the input starts with a UTF-16 or UTF-32 byte-order mark; save the file as UTF-8",
                at: .wholeInputStart))
        }
        // Without a mark, YAML 1.2 (5.2) tells these encodings by the NUL bytes of the first character: `00 x` is
        // UTF-16BE, `x 00` UTF-16LE or UTF-32LE, `00 00 00 x` UTF-32BE. Such a file, as some Windows editors save
        // one, would otherwise be refused for a NUL byte at its second byte, which says nothing of the encoding.
        if bytes.count >= 2, (bytes[0] == 0) != (bytes[1] == 0)
            || (bytes.count >= 4 && bytes[0] == 0 && bytes[1] == 0 && bytes[2] == 0 && bytes[3] != 0)
        {
            return .failure(.error(
                .yamlUnsupportedEncoding,
                "the input is UTF-16 or UTF-32 without a byte-order mark (its first character has NUL bytes); "
                    + "save the file as UTF-8",
                at: .wholeInputStart))
        }
        let bom = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var isASCII = true
        var hasUnicodeLineBreaks = false
        var characters = 0
        var index = bom
        // The bytes before the first NUL, found by `memchr`, are checked as UTF-8; the NUL is the problem when the
        // check gets to it without finding one before it. Checked eight bytes at a time, with NUL looked for in the
        // same loop, the screening cost a read of 48 rules 22K instructions more.
        let end = bytes.baseAddress.flatMap { base in
            memchr(base + bom, 0, bytes.count - bom).map { UnsafeRawPointer($0) - base }
        } ?? bytes.count
        while index < end {
            // Thirty-two bytes at a time, then eight, while they are ASCII, as nearly all of a policy is.
            if index + 32 <= end {
                let words = bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                    | bytes.loadUnaligned(fromByteOffset: index + 8, as: UInt64.self)
                    | bytes.loadUnaligned(fromByteOffset: index + 16, as: UInt64.self)
                    | bytes.loadUnaligned(fromByteOffset: index + 24, as: UInt64.self)
                if words & 0x8080_8080_8080_8080 == 0 {
                    index += 32
                    characters += 32
                    continue
                }
            }
            if index + 8 <= end,
                bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
            {
                index += 8
                characters += 8
                continue
            }
            let byte = bytes[index]
            if byte < 0x80 {
                index += 1
                characters += 1
                continue
            }
            isASCII = false
            let length = UTF8Validation.sequenceLength(at: index, in: bytes)
            if length == 0 {
                return .failure(.error(
                    .yamlInvalidUTF8,
                    "the input is not valid UTF-8: byte 0x\(hex(byte)) at offset \(index) does not start or continue a character",
                    at: SourceRange(start: SourceMap.location(ofByte: index, in: bytes))))
            }
            if byte == 0xC2 ? bytes[index + 1] == 0x85 : byte == 0xE2 && bytes[index + 1] == 0x80
                && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9)
            {
                hasUnicodeLineBreaks = true
            }
            index += length
            characters += 1
        }
        if end < bytes.count {
            return .failure(.error(
                .yamlNULByte, "the input holds a NUL byte, which YAML does not allow",
                at: SourceRange(start: SourceMap.location(ofByte: end, in: bytes))))
        }
        return .success(ScreenedInput(byteOrderMarkLength: bom, isASCII: isASCII, characterCount: characters,
            hasUnicodeLineBreaks: hasUnicodeLineBreaks, hasSurrogateEscapes: holdsHighSurrogateEscape(bytes)))
    }

    /// Whether `\u` and a high surrogate (`\uD83D`, the first half of a JSON escape pair) is written anywhere. By
    /// `memchr`, from backslash to backslash: a policy seldom holds one. Looking for it eight bytes at a time in the
    /// loop above cost a read of 48 rules 9.8K instructions; `memchr` costs 1.5K.
    private static func holdsHighSurrogateEscape(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        var offset = 0
        while offset < bytes.count, let found = memchr(base + offset, 0x5C, bytes.count - offset) {
            let index = UnsafeRawPointer(found) - base
            if index + 3 < bytes.count, bytes[index + 1] == UInt8(ascii: "u"), bytes[index + 2] | 0x20 == 0x64,
                (0x38...0x39).contains(bytes[index + 3]) || (0x61...0x62).contains(bytes[index + 3] | 0x20)
            {
                return true
            }
            offset = index + 1
        }
        return false
    }
}

private func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
}

/// Strict UTF-8 decoding rules (RFC 3629): no overlong forms, no surrogates, nothing past U+10FFFF.
enum UTF8Validation {
    /// The length of the valid multi-byte sequence starting at `index`, or 0 when it is not valid.
    static func sequenceLength(at index: Int, in bytes: UnsafeRawBufferPointer) -> Int {
        let lead = bytes[index]
        let length: Int
        var lower: UInt8 = 0x80
        var upper: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; upper = 0x9F
        case 0xF0: length = 4; lower = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upper = 0x8F
        default: return 0
        }
        guard index + length <= bytes.count else { return 0 }
        let second = bytes[index + 1]
        guard second >= lower, second <= upper else { return 0 }
        for offset in 2..<length where !bytes[index + offset].isUTF8Continuation { return 0 }
        return length
    }
}

/// Converts between libyaml's marks (character index, 0-based line and column) and ``SourceLocation``.
package struct SourceMap {
    private let bytes: UnsafeRawBufferPointer
    private let screened: ScreenedInput
    /// The input's size, which bounds every mark's offset.
    private let byteCount: Int
    /// The character index of libyaml's mark of the input's end when the last line has no line break, else -1.
    /// This and the size are worked out once: asked of the input at every mark, they cost a read of 48 rules 30K
    /// instructions more.
    private let unbrokenEnd: Int
    // A cursor: libyaml's marks arrive almost in order, so walking from the last answer is amortised O(1).
    private var cursorCharacter = 0
    private var cursorByte: Int

    init(bytes: UnsafeRawBufferPointer, screened: ScreenedInput) {
        self.bytes = bytes
        self.screened = screened
        byteCount = bytes.count
        let isEmpty = bytes.count <= screened.byteOrderMarkLength
        unbrokenEnd = isEmpty || Self.endsWithLineBreak(at: bytes.count, in: bytes) ? -1 : screened.characterCount
        cursorByte = screened.byteOrderMarkLength
    }

    /// The location of a libyaml mark. Inlined: every event has two, and all but the last are the plain case.
    /// libyaml's lines are ours, as it never sees NEL, LS or PS (``InputSubstitution``).
    @inline(__always)
    mutating func location(line: Int, column: Int, characterIndex: Int) -> SourceLocation {
        let offset = byteOffset(ofCharacter: characterIndex)
        if characterIndex == unbrokenEnd, column == 0, line > 0 {
            // At the end of an input whose last line has no line break, libyaml moves its mark to a line that does
            // not exist. The end of the last line instead, where an editor puts the cursor.
            return location(ofByte: offset, onLine: line)
        }
        // Without overflow checks: the input is at most ``YAMLLimits/largestInputBytes`` long, so no mark's numbers
        // come near `Int.max` (three checks a mark, 13K instructions a read of 48 rules).
        return SourceLocation(withinInput: line &+ 1, column: column &+ 1, offset: offset)
    }

    /// The location of a byte on a known line (1-based), its column counted back to the line's start.
    private func location(ofByte offset: Int, onLine line: Int) -> SourceLocation {
        var lineStart = offset
        while lineStart > screened.byteOrderMarkLength, !endsWithLineBreak(at: lineStart) { lineStart -= 1 }
        var columns = 1
        for index in lineStart..<offset where !bytes[index].isUTF8Continuation { columns += 1 }
        return SourceLocation(line: line, column: columns, offset: offset)
    }

    /// Where the text of a block scalar (`|`, `>`) written at `range` ends: after its last line of text, the spaces
    /// that end that line included. libyaml ends a block scalar where the next node starts, after the line breaks
    /// and blank lines that follow its text, so that a fix-it replacing the scalar took them with it and joined the
    /// next line to its replacement. Linear in what it walks back over, which is this scalar's alone. Not inlined:
    /// it runs for few scalars, and inlined it slowed the reading of every other.
    @inline(never)
    func endOfText(in range: SourceRange) -> SourceLocation {
        let start = range.start.offset
        var offset = range.end.offset
        var lineBreaks = 0
        while offset > start {
            let last = bytes[offset - 1]
            if last == 0x20 || last == 0x09 {
                offset -= 1
                continue
            }
            guard endsWithLineBreak(at: offset) else { break }
            offset -= last == 0x0A && offset - 2 >= start && bytes[offset - 2] == 0x0D ? 2 : 1
            lineBreaks += 1
        }
        guard lineBreaks > 0 else { return range.end }
        while offset < range.end.offset, bytes[offset] == 0x20 || bytes[offset] == 0x09 { offset += 1 }
        return location(ofByte: offset, onLine: range.end.line - lineBreaks)
    }

    /// Whether the byte just before `end` ends a line: LF or CR (``lineBreakLength(at:in:)``).
    private func endsWithLineBreak(at end: Int) -> Bool { Self.endsWithLineBreak(at: end, in: bytes) }

    private static func endsWithLineBreak(at end: Int, in bytes: UnsafeRawBufferPointer) -> Bool {
        bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D
    }

    /// The byte offset of the character with this index, counted as libyaml counts (after the byte-order mark).
    @inline(__always)
    mutating func byteOffset(ofCharacter character: Int) -> Int {
        if screened.isASCII { return min(character &+ screened.byteOrderMarkLength, byteCount) }
        return walkedByteOffset(ofCharacter: character)
    }

    /// ``byteOffset(ofCharacter:)`` for input that is not all ASCII: walked from the last answer.
    private mutating func walkedByteOffset(ofCharacter character: Int) -> Int {
        while cursorCharacter < character, cursorByte < bytes.count {
            // Eight characters at a time while they are ASCII, as most of a policy is even where some is not.
            if character - cursorCharacter >= 8, cursorByte + 8 <= bytes.count,
                bytes.loadUnaligned(fromByteOffset: cursorByte, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
            {
                cursorByte += 8
                cursorCharacter += 8
                continue
            }
            cursorByte += 1
            while cursorByte < bytes.count, bytes[cursorByte].isUTF8Continuation { cursorByte += 1 }
            cursorCharacter += 1
        }
        while cursorCharacter > character, cursorByte > screened.byteOrderMarkLength {
            cursorByte -= 1
            while cursorByte > screened.byteOrderMarkLength, bytes[cursorByte].isUTF8Continuation { cursorByte -= 1 }
            cursorCharacter -= 1
        }
        return cursorByte
    }

    /// The location of a byte offset, with lines broken at LF, CR and CR LF (``lineBreakLength(at:in:)``). Used for
    /// problems found before libyaml runs, and in other files a problem is placed in; linear in `offset`.
    package static func location(ofByte offset: Int, in bytes: UnsafeRawBufferPointer) -> SourceLocation {
        let end = min(offset, bytes.count)
        let bom = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var line = 1
        var column = 1
        var index = min(bom, end)
        while index < end {
            let breakLength = lineBreakLength(at: index, in: bytes)
            if breakLength > 0, index + breakLength <= end {
                line += 1
                column = 1
                index += breakLength
                continue
            }
            if !bytes[index].isUTF8Continuation { column += 1 }
            index += 1
        }
        return SourceLocation(line: line, column: column, offset: end)
    }

    /// The length in bytes of the line break at `index`, 0 when there is none: LF, CR or CR LF. Every position the
    /// library gives counts lines so, as YAML 1.2, editors, the Language Server Protocol and GitHub do. NEL, LS and
    /// PS (U+0085, U+2028, U+2029), which YAML 1.1 and libyaml also break lines at, are characters of their line:
    /// a message that holds one is one line in an editor, and a position after it is where the editor shows it.
    package static func lineBreakLength(at index: Int, in bytes: UnsafeRawBufferPointer) -> Int {
        switch bytes[index] {
        case 0x0A: 1
        case 0x0D: index + 1 < bytes.count && bytes[index + 1] == 0x0A ? 2 : 1
        default: 0
        }
    }
}
