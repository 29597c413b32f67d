import LaunchPolicy
import Testing

/// The defined answers for inputs that are not plain UTF-8 text.
@Suite struct EncodingTests {
    @Test func invalidUTF8IsRefusedAtTheOffendingByte() throws {
        let bytes = Array("a: ok\nb: x".utf8) + [0xFF] + Array("\n".utf8)
        let result = read(bytes: bytes)
        #expect(codes(result) == ["yaml.invalid-utf8"])
        let diagnostic = try #require(result.diagnostics.first)
        #expect(diagnostic.range.start == SourceLocation(line: 2, column: 5, offset: 10))
        #expect(diagnostic.message.contains("0xFF"))
        #expect(result.root == nil)
    }

    @Test(arguments: [
        [0xC0, 0x80],  // overlong NUL
        [0xE0, 0x80, 0x80],  // overlong
        [0xED, 0xA0, 0x80],  // a UTF-16 surrogate
        [0xF4, 0x90, 0x80, 0x80],  // past U+10FFFF
        [0xE2, 0x82],  // truncated at the end
        [0x80],  // a lone continuation byte
    ] as [[UInt8]])
    func strictUTF8RulesApply(sequence: [UInt8]) {
        let result = read(bytes: Array("k: ".utf8) + sequence)
        #expect(codes(result) == ["yaml.invalid-utf8"])
        #expect(result.diagnostics.first?.range.start.column == 4)
    }

    @Test func validMultiByteCharactersPass() {
        let result = read("k: \"é 最 😀\"\n")
        #expect(result.diagnostics.isEmpty)
        #expect(result.root?["k"]?.scalar?.text == "é 最 😀")
    }

    @Test func aNULByteIsRefusedWhereItIs() throws {
        let result = read(bytes: Array("a: 1\nb: x".utf8) + [0] + Array("y\n".utf8))
        #expect(codes(result) == ["yaml.nul-byte"])
        #expect(result.diagnostics.first?.range.start == SourceLocation(line: 2, column: 5, offset: 9))
    }

    /// The screen reads eight bytes at a time while they are plain ASCII; a problem at any offset within or after
    /// such a run is still reported at its own byte.
    @Test(arguments: 0..<20)
    func problemsAreFoundAtEveryOffsetOfALongLine(offset: Int) throws {
        let prefix = Array("k: ".utf8) + Array(repeating: UInt8(ascii: "a"), count: offset)
        for (bad, code) in [([0x00], "yaml.nul-byte"), ([0xFF], "yaml.invalid-utf8"), ([0xC3], "yaml.invalid-utf8")]
            as [([UInt8], String)]
        {
            let result = read(bytes: prefix + bad + Array("bbbbbbbbbbbbbbbb\n".utf8))
            #expect(codes(result) == [code])
            #expect(result.diagnostics.first?.range.start == SourceLocation(line: 1, column: 4 + offset, offset: 3 + offset))
        }
        let valid = read(bytes: prefix + [0xC3, 0xA9] + Array("bbbbbbbbbbbbbbbb\n".utf8))
        #expect(valid.diagnostics.isEmpty)
        #expect(valid.root?["k"]?.text == String(repeating: "a", count: offset) + "é" + "bbbbbbbbbbbbbbbb")
    }

    @Test(arguments: [[0xFF, 0xFE], [0xFE, 0xFF], [0x00, 0x00, 0xFE, 0xFF]] as [[UInt8]])
    func utf16And32ByteOrderMarksAreRefused(mark: [UInt8]) {
        let result = read(bytes: mark + [0x61, 0x00])
        #expect(codes(result) == ["yaml.unsupported-encoding"])
        #expect(result.diagnostics.first?.range.start == .start)
    }

    @Test func positionsAfterNonASCIICharactersOnEarlierLines() throws {
        let text = "é: 1\nkey: [a, *nope]\n"
        let result = read(text)
        let diagnostic = try #require(result.diagnostics.first)
        #expect(diagnostic.code == .yamlUnknownAnchor)
        #expect(diagnostic.range.start == SourceLocation(line: 2, column: 10, offset: 15))
        #expect(Array(text.utf8)[diagnostic.range.start.offset] == UInt8(ascii: "*"))
    }

    /// NEL, LS and PS are characters of their line, as in YAML 1.2, editors and GitHub; libyaml (YAML 1.1) breaks
    /// lines at them, and its positions after one were a line further down than an editor shows, with columns
    /// counted from the separator.
    @Test(arguments: ["\u{85}", "\u{2028}", "\u{2029}"])
    func unicodeLineSeparatorsAreNotLineBreaks(separator: String) throws {
        let text = "a: \"x\(separator)y\"\nb: [1, 2]  # \(separator)\nc: |\n  one\n  three\nd: [*gone]\n"
        let later = try #require(read(text).diagnostics.first)
        #expect(later.code == .yamlUnknownAnchor)
        #expect(later.range.start.line == 6 && later.range.start.column == 5)
        #expect(Array(text.utf8)[later.range.start.offset] == UInt8(ascii: "*"))
        // On the separator's own line, columns count on past it.
        let same = try #require(read("a: [\"x\(separator)y\", *nope]\n").diagnostics.first)
        #expect(same.range.start.line == 1 && same.range.start.column == 12)
        // The literal block's text ends on its last line, after `three` (found by walking back over line breaks).
        let root = try #require(read("a: \"x\(separator)y\"\nc: |\n  one\n  three\n\nd: 1\n").root)
        let block = try #require(root.mapping?.first { $0.key.scalar?.text == "c" }?.value)
        #expect(block.range.end.line == 4 && block.range.end.column == 8)
    }

    @Test func controlCharactersAreASyntaxError() {
        let result = read(bytes: Array("a: x".utf8) + [0x07] + Array("\n".utf8))
        #expect(codes(result) == ["yaml.syntax-error"])
        #expect(result.diagnostics.first?.range.start.line == 1)
    }
}

@Suite struct EndOfInputPositionTests {
    /// libyaml moves its mark to a line that does not exist at the end of an input with no final line break; the
    /// reader reports the end of the last line instead.
    @Test func anErrorAtTheEndOfAnUnterminatedLastLineIsOnThatLine() throws {
        let result = read("a: [1, 2")
        let diagnostic = try #require(result.diagnostics.first)
        #expect(diagnostic.range.start == SourceLocation(line: 1, column: 9, offset: 8))
    }

    @Test func theSameAfterNonASCIICharacters() throws {
        let result = read("a: [é, ü")
        let diagnostic = try #require(result.diagnostics.first)
        #expect(diagnostic.range.start == SourceLocation(line: 1, column: 9, offset: 10))
    }

    @Test func withAFinalLineBreakTheErrorIsOnTheNextLine() throws {
        let result = read("a: [1, 2\n")
        let diagnostic = try #require(result.diagnostics.first)
        #expect(diagnostic.range.start == SourceLocation(line: 2, column: 1, offset: 9))
    }
}
