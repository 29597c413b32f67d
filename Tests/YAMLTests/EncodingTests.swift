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
