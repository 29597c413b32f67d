import LaunchPolicy
import Testing
import TestSupport

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

    /// The screen reads thirty-two bytes at a time, then eight, while they are plain ASCII, and finds the first NUL
    /// apart; a problem at any offset within or after such runs is still reported at its own byte.
    @Test(arguments: 0..<72)
    func problemsAreFoundAtEveryOffsetOfALongLine(offset: Int) throws {
        let prefix = Array("k: ".utf8) + Array(repeating: UInt8(ascii: "a"), count: offset)
        for (bad, code) in [([0x00], "yaml.nul-byte"), ([0xFF], "yaml.invalid-utf8"), ([0xC3], "yaml.invalid-utf8")]
            as [([UInt8], String)]
        {
            let result = read(bytes: prefix + bad + Array("bbbbbbbbbbbbbbbb\n".utf8))
            #expect(codes(result) == [code])
            #expect(result.diagnostics.first?.range.start == SourceLocation(line: 1, column: 4 + offset, offset: 3 + offset))
        }
        // Both problems: the first is reported, whichever it is.
        let invalidFirst = read(bytes: prefix + [0xFF] + Array("bbbb".utf8) + [0x00] + Array("b\n".utf8))
        #expect(codes(invalidFirst) == ["yaml.invalid-utf8"])
        #expect(invalidFirst.diagnostics.first?.range.start.offset == 3 + offset)
        let nulFirst = read(bytes: prefix + [0x00] + Array("bbbb".utf8) + [0xFF] + Array("b\n".utf8))
        #expect(codes(nulFirst) == ["yaml.nul-byte"])
        #expect(nulFirst.diagnostics.first?.range.start.offset == 3 + offset)
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

    /// Without a byte-order mark, as YAML 1.2 tells the encoding: by the NUL bytes of the first character.
    @Test(arguments: ["utf-16le", "utf-16be", "utf-32le", "utf-32be"])
    func utf16And32WithoutAMarkAreRefusedForTheirEncoding(encoding: String) throws {
        let text = "policy: 1\n"
        let bytes: [UInt8] = switch encoding {
        case "utf-16le": Array(text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        case "utf-16be": Array(text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })
        case "utf-32le": Array(text.utf8.flatMap { [$0, 0, 0, 0] })
        default: Array(text.utf8.flatMap { [0, 0, 0, $0] })
        }
        let result = read(bytes: bytes)
        #expect(codes(result) == ["yaml.unsupported-encoding"])
        let diagnostic = try #require(result.diagnostics.first)
        #expect(diagnostic.range.start == .start)
        #expect(diagnostic.message.contains("without a byte-order mark"))
        // A NUL byte further on is still a NUL byte, where it is.
        let later = read(bytes: Array("k: v".utf8) + [0] + Array("\n".utf8))
        #expect(codes(later) == ["yaml.nul-byte"])
        #expect(later.diagnostics.first?.range.start.column == 5)
        #expect(codes(read(bytes: [0, 0])) == ["yaml.nul-byte"])
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

    /// YAML 1.2 and JSON read NEL, LS and PS as characters of the text. libyaml (YAML 1.1) folded one in a quoted
    /// scalar into a space, JSON included, dropped one that ended a plain scalar, and refused one inside a plain or
    /// block scalar as a syntax error.
    @Test(arguments: ["\u{85}", "\u{2028}", "\u{2029}"])
    func unicodeLineSeparatorsAreKeptInTheText(separator: String) throws {
        let cases: [(yaml: String, text: String)] = [
            ("a: \"x\(separator)y\"\n", "x\(separator)y"),
            ("a: 'x\(separator)y'\n", "x\(separator)y"),
            ("{\"a\": \"x\(separator)y\"}", "x\(separator)y"),
            ("a: x\(separator)y\n", "x\(separator)y"),
            ("a: x \(separator) y\n", "x \(separator) y"),
            ("a: x\(separator)\n", "x\(separator)"),
            ("a: |\n  x\(separator)y\n", "x\(separator)y\n"),
            ("a: >\n  x\(separator)y\n  z\n", "x\(separator)y z\n"),
            ("a: [x\(separator)y, 1]\n", "x\(separator)y"),
            // A comment runs to the line's end, past the separator: `b` is part of it.
            ("a: x  # note\(separator)b: 2\n", "x"),
        ]
        for (yaml, text) in cases {
            let result = read(yaml)
            #expect(result.diagnostics.isEmpty, "\(yaml.debugDescription): \(result.diagnostics.map(\.message))")
            let mapping = try #require(result.root?.mapping, "\(yaml.debugDescription)")
            #expect(mapping.count == 1, "\(yaml.debugDescription)")
            let value = try #require(mapping.first?.value)
            #expect((value.scalar?.text ?? value.sequence?.first?.scalar?.text) == text, "\(yaml.debugDescription)")
        }
    }

    /// The characters that stand in for the separators while libyaml reads are never ones the text holds, raw or as
    /// a `\U` escape, and escapes that make a separator still make it.
    @Test func theSeparatorsStandInsAreNotConfusedWithTheText() throws {
        // U+F0000 and U+F0001 are in the text, and U+F0002, the next, is what an escape makes.
        let text = "a: \"\\U000f0002 \u{F0001}\u{2028}\\L\u{85}\\N\"\nb: \u{F0000}\u{2029}\u{10FFFF}\n"
        let result = read(text)
        #expect(result.diagnostics.isEmpty)
        let mapping = try #require(result.root?.mapping)
        #expect(mapping.map { $0.value.scalar?.text } == [
            "\u{F0002} \u{F0001}\u{2028}\u{2028}\u{85}\u{85}", "\u{F0000}\u{2029}\u{10FFFF}",
        ])
    }

    /// JSON writes a character past U+FFFF as an escape pair (`\uD83D\uDE00`), and PHP's and Python's JSON writers
    /// write every emoji so; libyaml refused each half, and a LaunchGate configuration with an emoji did not read. In a
    /// double-quoted scalar the pair is the character; elsewhere escapes are text, and the text is kept.
    @Test func aJSONEscapePairIsTheCharacterItStandsFor() throws {
        let cases: [(yaml: String, text: String)] = [
            (#"a: "\ud83d\ude00 and \uD83D\uDE00x""#, "😀 and 😀x"),
            (#"{"a": "Hi \ud83d\ude00 \ud83c\udf06 \udbff\udfff \ud83d\ude00"}"#, "Hi 😀 🌆 \u{10FFFF} 😀"),
            (#"{"\ud83d\ude00": "key"}"#, "key"),
            (#"a: \ud83d\ude00 plain"#, #"\ud83d\ude00 plain"#),
            (#"a: '\ud83d\ude00'"#, #"\ud83d\ude00"#),
            ("a: |\n  \\ud83d\\ude00\n", "\\ud83d\\ude00\n"),
            (#"a: "\\\ud83d\ude00""#, #"\😀"#),
            (#"a: "\\ud83d\\ude00""#, #"\ud83d\ude00"#),
            // With a separator too, and characters the stand-ins must not be: U+E000 raw and U+E001 as an escape.
            ("a: \"\u{E000}\\uE001\\ud83d\\ude00\u{2028}\"", "\u{E000}\u{E001}😀\u{2028}"),
            // Escapes of what the marker and a pair's place would be, were escapes not looked at.
            (#"a: "\uE000\u0100 \ud83d\ude00""#, "\u{E000}\u{100} 😀"),
            (#"a: \uE000\u0100 \ud83d\ude00"#, #"\uE000\u0100 \ud83d\ude00"#),
            // The same after an escaped backslash, which in a plain scalar is text like the rest.
            (#"a: \\uE000\u0100 \ud83d\ude00"#, #"\\uE000\u0100 \ud83d\ude00"#),
        ]
        for (yaml, text) in cases {
            let result = read(yaml)
            #expect(result.diagnostics.isEmpty, "\(yaml): \(result.diagnostics.map(\.message))")
            let entry = try #require(result.root?.mapping?.first, "\(yaml)")
            #expect(entry.value.scalar?.text == text, "\(yaml)")
        }
        #expect(read(#"{"\ud83d\ude00": 1}"#).root?.mapping?.first?.key.scalar?.text == "😀")
        // Positions after a pair are where they are written (a pair is as many characters as it is handed as).
        let after = try #require(read(#"a: ["\ud83d\ude00", *nope]"#).diagnostics.first)
        #expect(after.code == .yamlUnknownAnchor)
        #expect(after.range.start == SourceLocation(line: 1, column: 21, offset: 20))
        // An escaped backslash ends no escape: after it, `ud83d` is text and `\ude00` half a pair.
        #expect(read(#"a: "\\ud83d\ude00""#).diagnostics.map(\.code) == [.yamlSyntaxError])
        // Half a pair is still refused, where it is.
        let half = try #require(read(#"a: "\ud83d alone""#).diagnostics.first)
        #expect(half.code == .yamlSyntaxError && half.range.start.line == 1 && half.range.start.column == 7)
    }

    /// Each different pair takes a place in a table of 63,232; an input with one more is refused with a problem of its
    /// own, not misread.
    @Test func aTableOfPlacesHoldsAsManyPairsAsItHasPlaces() throws {
        func input(pairs count: Int) -> [UInt8] {
            var text = "a: ["
            for start in stride(from: 0, to: count, by: 8) {
                text += start == 0 ? "\"" : ",\""
                for index in start..<min(start + 8, count) {
                    text += "\\u" + String(0xD800 + index / 1024, radix: 16) + "\\u"
                        + String(0xDC00 + index % 1024, radix: 16)
                }
                text += "\""
            }
            return Array((text + "]\n").utf8)
        }
        let full = read(bytes: input(pairs: 63_232))
        #expect(full.diagnostics.isEmpty)
        let items = try #require(full.root?.mapping?.first?.value.sequence)
        #expect(items.count == 7_904)
        #expect(items.first?.scalar?.text.unicodeScalars.first == Unicode.Scalar(0x1_0000))
        #expect(items.last?.scalar?.text.unicodeScalars.last == Unicode.Scalar(0x1_0000 + 63_231))
        #expect(items.allSatisfy { $0.scalar?.text.unicodeScalars.count == 8 })
        #expect(read(bytes: input(pairs: 63_233)).diagnostics.map(\.code) == [.yamlNoStandIn])
    }

    /// Over random texts of every kind of character: written as JSON writes them with every character past ASCII
    /// escaped (pairs for those past U+FFFF), and written raw, each reads back as the text.
    @Test func escapedAndRawTextsReadBackAsWritten() throws {
        let pool: [Unicode.Scalar] = ["a", " ", "\"", "\\", "/", "é", "日", "\u{85}", "\u{2028}", "\u{2029}",
            "\u{E000}", "\u{E001}", "\u{F0000}", "😀", "🌆", "\u{10FFFF}", "\u{1}", "\u{7F}", "\t"]
        var random = SeededGenerator(seed: 11)
        for _ in 0..<300 {
            let scalars = (0..<Int.random(in: 0...10, using: &random)).map { _ in pool.randomElement(using: &random)! }
            let text = String(String.UnicodeScalarView(scalars))
            var escaped = "\""
            for scalar in scalars {
                switch scalar {
                case "\"": escaped += "\\\""
                case "\\": escaped += "\\\\"
                case _ where scalar.isASCII && scalar.value >= 0x20 && scalar.value != 0x7F:
                    escaped.unicodeScalars.append(scalar)
                default:
                    for unit in String(scalar).utf16 { escaped += "\\u" + String(unit, radix: 16) .leftPadded(to: 4) }
                }
            }
            escaped += "\""
            for written in [escaped, YAMLWriting.quoted(text)] {
                let json = "{\"t\": \(written)}"
                let result = read(json)
                #expect(result.diagnostics.isEmpty, "\(json.debugDescription): \(result.diagnostics.map(\.message))")
                #expect(result.root?.mapping?.first?.value.scalar?.text == text, "\(json.debugDescription)")
            }
        }
    }

    /// libyaml's problems found before it makes a mark (a control character) are placed by the bytes it was given,
    /// where a stand-in is longer than its separator.
    @Test func aProblemAfterASeparatorIsPlacedInTheInput() throws {
        let text = "a: \"x\u{2028}y\u{85}\"\nb: x\u{07}\n"
        let diagnostic = try #require(read(text).diagnostics.first)
        #expect(diagnostic.code == .yamlSyntaxError)
        #expect(diagnostic.range.start.line == 2 && diagnostic.range.start.column == 5)
        #expect(Array(text.utf8)[diagnostic.range.start.offset] == 0x07)
    }

    /// Stand-ins are looked for among the characters past U+FFFF; an input that holds nearly all of them still has
    /// some, and one that holds all of them (over 4 MiB) is refused with a problem of its own, not misread.
    @Test func anInputHoldingEveryCharacterPastUFFFFHasNoStandIns() throws {
        func input(sparing spared: Int) -> [UInt8] {
            var bytes = Array("a: \"\u{2028}\"\n# ".utf8)
            bytes.reserveCapacity(4 * 0x10_0000 + 16)
            for codePoint in UInt32(0x1_0000 + spared)...0x10_FFFF {
                bytes += [0xF0 | UInt8(codePoint >> 18), 0x80 | UInt8(codePoint >> 12 & 0x3F),
                    0x80 | UInt8(codePoint >> 6 & 0x3F), 0x80 | UInt8(codePoint & 0x3F)]
            }
            return bytes + [0x0A]
        }
        let limits = YAMLLimits(maximumInputBytes: 8 << 20)
        let spared = read(bytes: input(sparing: 3), limits: limits)
        #expect(spared.diagnostics.isEmpty)
        #expect(spared.root?.mapping?.first?.value.scalar?.text == "\u{2028}")
        let none = read(bytes: input(sparing: 0), limits: limits)
        #expect(none.diagnostics.map(\.code) == [.yamlNoStandIn])
        #expect(none.root == nil)
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

extension String {
    /// The string with zeros in front, to `length` characters.
    fileprivate func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
