import LaunchPolicy
import Testing
import TestSupport

/// The range from `line`:`column` (at byte `offset`) to `endLine`:`endColumn` (at byte `endOffset`).
private func span(_ line: Int, _ column: Int, _ offset: Int, to endLine: Int, _ endColumn: Int, _ endOffset: Int)
    -> SourceRange
{
    SourceRange(
        start: SourceLocation(line: line, column: column, offset: offset),
        end: SourceLocation(line: endLine, column: endColumn, offset: endOffset))
}

@Suite struct DiagnosticRenderingTests {
    @Test func rendersLikeACompilerWithTheSourceLineAndACaret() throws {
        let source = "policy: 1\nrules:\n  - id: a\n  - id: a\n"
        let diagnostic = Diagnostic.error(
            "policy.duplicate-rule-id", "the rule id \"a\" is used twice",
            at: span(4, 9, 35, to: 4, 10, 36),
            notes: [.init(
                message: "first used here",
                range: SourceRange(start: SourceLocation(line: 3, column: 9, offset: 25)))])
        let rendered = diagnostic.rendered(file: "p.yaml", source: Array(source.utf8))
        #expect(rendered == """
            p.yaml:4:9: error: the rule id "a" is used twice [policy.duplicate-rule-id]
              - id: a
                    ^
            p.yaml:3:9: note: first used here
              - id: a
                    ^
            """)
    }

    /// What a policy holds reaches a terminal: a key written `"\e[2J"` is quoted in the message, and the line under
    /// it is the file's. Neither may send the terminal an escape sequence, break the diagnostic's line, or show its
    /// text in another order (a bidirectional override): each such character is shown as one visible character, so
    /// that the caret stays under its column.
    @Test func whatTheFileHoldsCannotControlTheTerminal() throws {
        // The line holds them raw (libyaml refuses the controls, and its error shows the line); the key, read from
        // escapes, holds line breaks too.
        let hidden = ["\u{1B}", "\u{07}", "\u{7F}", "\u{9B}", "\u{85}", "\u{2028}", "\u{202E}", "\u{2066}"]
        let written = "k" + hidden.joined() + "y"
        let key = "k\n\r" + hidden.joined() + "y"
        let source = Array("policy: 1\n\"\(written)\": [1, 2]\n".utf8)
        // The `[` after the key: the column counts each hidden character as one.
        let column = written.unicodeScalars.count + 5
        let offset = 10 + written.utf8.count + 4
        #expect(source[offset] == UInt8(ascii: "["))
        let diagnostic = Diagnostic.error("policy.unknown-key", "a policy has no key \"\(key)\"",
            at: span(2, column, offset, to: 2, column + 1, offset + 1),
            notes: [.init(message: "\(key) is here", range: span(2, 1, 10, to: 2, 2, 11))])
        for colored in [false, true] {
            let rendered = diagnostic.rendered(file: "p\u{1B}.yaml", source: source, colored: colored)
            let scalars = rendered.unicodeScalars.map(\.value)
            // Only the colours' own escapes, each starting `ESC [ digits m`.
            let escapes = rendered.components(separatedBy: "\u{1B}").dropFirst()
            #expect(escapes.allSatisfy { $0.range(of: #"^\[[0-9;]*m"#, options: .regularExpression) != nil })
            #expect(!scalars.contains { [0x07, 0x0D, 0x7F, 0x9B, 0x85, 0x2028, 0x202E, 0x2066].contains($0) })
            if colored { continue }
            #expect(!scalars.contains(0x1B))
            let lines = rendered.components(separatedBy: "\n")
            #expect(lines.count == 6)
            let shown = "\u{241B}\u{2407}\u{2421}\u{FFFD}\u{2424}\u{2424}\u{FFFD}\u{FFFD}y"
            #expect(lines[0] == "p\u{241B}.yaml:2:\(column): error: a policy has no key \"k\u{240A}\u{240D}\(shown)\" "
                + "[policy.unknown-key]")
            #expect(lines[1] == "\"k\(shown)\": [1, 2]")
            // The caret under the `[`, one column for each character shown.
            #expect(lines[2] == String(repeating: " ", count: column - 1) + "^")
            #expect(lines[3].hasSuffix("note: k\u{240A}\u{240D}\(shown) is here"))
        }
    }

    /// Over random texts: nothing a terminal acts on is left, each character is shown as one, and the rest is kept.
    @Test func visibleTextKeepsEveryOtherCharacterInItsPlace() {
        let acted: [UInt32] = Array(0..<0x20).filter { $0 != 0x09 } + Array(0x7F...0x9F)
            + [0x061C, 0x200E, 0x200F, 0x2028, 0x2029] + Array(0x202A...0x202E) + Array(0x2066...0x2069)
        let kept: [UInt32] = [0x09, 0x20, 0x41, 0x7E, 0xA0, 0xE9, 0x200D, 0x2027, 0x202F, 0x3042, 0x1F600]
        var random = SeededGenerator(seed: 7)
        for _ in 0..<500 {
            let scalars = (0..<Int.random(in: 0...12, using: &random)).map { _ in
                Unicode.Scalar((Bool.random(using: &random) ? acted : kept).randomElement(using: &random)!)!
            }
            let text = String(String.UnicodeScalarView(scalars))
            for keepingLineFeeds in [false, true] {
                let shown = Array(TerminalText.visible(text, keepingLineFeeds: keepingLineFeeds).unicodeScalars)
                #expect(shown.count == scalars.count)
                for (original, scalar) in zip(scalars, shown) {
                    if keepingLineFeeds, original == "\n" {
                        #expect(scalar == "\n")
                    } else if acted.contains(original.value) {
                        #expect(!acted.contains(scalar.value) && scalar != original)
                    } else {
                        #expect(scalar == original)
                    }
                }
            }
        }
    }

    @Test func theCaretSpansTheRangeAndKeepsTabs() {
        let source = "\tkey: \"< 2.4.x\"\n"
        let diagnostic = Diagnostic.warning(
            "test.code", "message",
            at: span(1, 7, 6, to: 1, 16, 15),
            fixIt: FixIt(
                range: SourceRange(start: SourceLocation(line: 1, column: 7, offset: 6)),
                replacement: "\"< 2.4\"", message: "drop the x"))
        let lines = diagnostic.rendered(file: "f", source: Array(source.utf8)).split(separator: "\n")
        #expect(lines[0] == "f:1:7: warning: message [test.code]")
        #expect(lines[1] == "\tkey: \"< 2.4.x\"")
        #expect(lines[2] == "\t     ^" + String(repeating: "~", count: 8))
        #expect(lines[3] == "f:1:7: fix-it: drop the x: replace with \"< 2.4\"")
    }

    @Test func columnsCountScalarsNotBytes() {
        // "é" and "日" are two and three bytes, one column each (the position says 5); under them the caret line
        // gives "日" the two columns a terminal does, so that the caret stands under the quote.
        let source = "é日: \"< 2.4.x\"\n"
        let diagnostic = Diagnostic.warning(
            "test.code", "message",
            at: span(1, 5, 7, to: 1, 14, 16))
        let lines = diagnostic.rendered(file: "f", source: Array(source.utf8)).split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[1] == "é日: \"< 2.4.x\"")
        #expect(lines[2] == "     ^" + String(repeating: "~", count: 8))
    }

    /// Terminals show East Asian characters and emoji two columns wide, and combining marks on the character before:
    /// the caret line stands under the range, and underlines a Japanese text whole.
    @Test func theCaretLineFollowsTheWidthsATerminalShows() {
        // The quoted text, columns 9 to 24: 16 characters in 20 terminal columns (five wide, one combining mark).
        let source = "m: {ja: \"Lanternを更新してe\u{301}\", x: 1, 😀: x}\n"
        let text = Diagnostic.warning("test.code", "message", at: span(1, 9, 8, to: 1, 25, 0))
            .rendered(file: "f", source: Array(source.utf8)).split(separator: "\n")
        #expect(text[2] == String(repeating: " ", count: 8) + "^" + String(repeating: "~", count: 19))
        // The last `x`, column 36: after the text, `, x: 1, `, the emoji's two columns and `: `.
        #expect(source.unicodeScalars.dropFirst(35).first == "x")
        let after = Diagnostic.warning("test.code", "message", at: span(1, 36, 0, to: 1, 37, 0))
            .rendered(file: "f", source: Array(source.utf8)).split(separator: "\n")
        #expect(after[2] == String(repeating: " ", count: 8 + 20 + 8 + 2 + 2) + "^")
    }

    @Test func aPositionPastTheCutIsShownInThePartOfTheLineAroundIt() {
        // The line is cut at 240 scalars; a position past that is shown with the 80 scalars before it, after "...".
        let source = String(repeating: "k", count: 250) + ": x\n"
        let diagnostic = Diagnostic.error("test.code", "message", at: span(1, 253, 252, to: 1, 254, 253))
        let lines = diagnostic.rendered(file: "f", source: Array(source.utf8)).split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[1] == "..." + String(repeating: "k", count: 78) + ": x")
        #expect(lines[2] == String(repeating: " ", count: 83) + "^")
        // At the last column shown, the line is still shown from its start.
        let atTheCut = Diagnostic.error("test.code", "message", at: span(1, 240, 239, to: 1, 241, 240))
        let uncut = atTheCut.rendered(file: "f", source: Array(source.utf8)).split(separator: "\n")
        #expect(uncut[1] == String(repeating: "k", count: 240))
        #expect(uncut[2] == String(repeating: " ", count: 239) + "^")
    }

    @Test func aLineEndedByACarriageReturnIsShownWithoutIt() {
        // Windows line ends: the part shown stops at CR, whichever way the start of the part is found.
        let source = Array("a: 1\r\nb: [\r\n".utf8)
        let lines = Diagnostic.error("test.code", "message", at: span(2, 4, 9, to: 2, 5, 10))
            .rendered(file: "f", source: source).split(separator: "\n")
        #expect(lines[1] == "b: [")
        #expect(lines[2] == "   ^")
        let long = Array((String(repeating: "x", count: 300) + "y\r\nz\r\n").utf8)
        let far = Diagnostic.error("test.code", "message", at: span(1, 301, 300, to: 1, 302, 301))
            .rendered(file: "f", source: long).split(separator: "\n")
        #expect(far[1] == "..." + String(repeating: "x", count: 80) + "y")
        #expect(far[2] == String(repeating: " ", count: 83) + "^")
    }

    /// A file whose lines end with CR alone (old Mac files) shows the line the position names. Before, the start of
    /// the line was looked for at an LF, and the excerpt was the file's first line.
    @Test func aFileOfCarriageReturnsShowsTheLineNamed() throws {
        let source = Array("policy: 1\rmessages: {}\rrules:\r  - {id: r, then: blok}\r".utf8)
        let diagnostic = try #require(PolicyLinter().lint(source, path: "f.yaml").diagnostics.first)
        #expect(diagnostic.range.start.line == 4 && diagnostic.range.start.column == 19)
        let lines = diagnostic.rendered(file: "f", source: source).split(separator: "\n")
        #expect(lines[1] == "  - {id: r, then: blok}")
        #expect(lines[2] == String(repeating: " ", count: 18) + "^~~~")
    }

    @Test func theLimitsErrorInAFileOfOneLongLineIsShownInAFewScalars() throws {
        // A file of one line over the input limit: the error stands a million columns in. Before, the caret line
        // was a million spaces long.
        let source = Array(repeating: UInt8(ascii: "#"), count: (1 << 20) + 1)
        let read = YAMLReader().read(source)
        let diagnostic = try #require(read.diagnostics.first)
        #expect(diagnostic.range.start.column == (1 << 20) + 1)
        let lines = diagnostic.rendered(file: "f", source: source).split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[1] == "..." + String(repeating: "#", count: 81))
        #expect(lines[2] == String(repeating: " ", count: 83) + "^")
        // The part shown is found by walking back from the position, by scalar: two-byte letters before it.
        let accented = Array((String(repeating: "é", count: 300) + "x: 1").utf8)
        let atAccentedX = Diagnostic.error("test.code", "message", at: span(1, 301, 600, to: 1, 302, 601))
        let accentedLines = atAccentedX.rendered(file: "f", source: accented).split(separator: "\n")
        #expect(accentedLines[1] == "..." + String(repeating: "é", count: 80) + "x: 1")
        #expect(accentedLines[2] == String(repeating: " ", count: 83) + "^")
        // A tab before the position is kept in the caret line, so that it lines up.
        let tabbed = Array(repeating: UInt8(ascii: "#"), count: 300) + [UInt8(ascii: "\t"), UInt8(ascii: "x")]
        let atX = Diagnostic.error("test.code", "message", at: span(1, 302, 301, to: 1, 303, 302))
        let tabLines = atX.rendered(file: "f", source: tabbed).split(separator: "\n")
        #expect(tabLines[1] == "..." + String(repeating: "#", count: 79) + "\tx")
        #expect(tabLines[2] == String(repeating: " ", count: 82) + "\t^")
    }

    @Test func aLongLineIsCutAndARangeRunningOnIsMarkedToTheCut() {
        let maximum = 240
        let source = String(repeating: "ü", count: maximum + 60) + "\nnext\n"
        let diagnostic = Diagnostic.error(
            "test.code", "message",
            at: span(1, 11, 20, to: 2, 3, 603))
        let lines = diagnostic.rendered(file: "f", source: Array(source.utf8)).split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[1] == String(repeating: "ü", count: maximum))
        #expect(lines[2] == String(repeating: " ", count: 10) + "^" + String(repeating: "~", count: maximum - 11))
    }

    @Test func colouredAsCompilersColourThem() {
        let source = "a: 1\n"
        let diagnostic = Diagnostic.warning(
            "test.code", "message",
            at: span(1, 4, 3, to: 1, 5, 4),
            notes: [.init(message: "see", range: SourceRange(start: SourceLocation(line: 1, column: 1, offset: 0)))])
        let escape = "\u{1B}["
        #expect(diagnostic.rendered(file: "f", source: Array(source.utf8), colored: true) == """
            \(escape)1mf:1:4:\(escape)0m \(escape)35mwarning:\(escape)0m \(escape)1mmessage [test.code]\(escape)0m
            a: 1
            \(escape)32m   ^\(escape)0m
            \(escape)1mf:1:1:\(escape)0m \(escape)36mnote:\(escape)0m \(escape)1msee\(escape)0m
            a: 1
            \(escape)32m^\(escape)0m
            """)
    }

    @Test func withoutSourceOnlyTheHeadlineIsPrinted() {
        let diagnostic = Diagnostic.error("yaml.empty-input", "empty", at: .wholeInputStart)
        #expect(diagnostic.rendered(file: "f.yaml") == "f.yaml:1:1: error: empty [yaml.empty-input]")
        #expect(diagnostic.description == "1:1: error: empty [yaml.empty-input]")
    }

    @Test func readerDiagnosticsRenderAgainstTheirInput() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("a: 1\nb: *x\n".utf8)
        let result = read(bytes: bytes)
        let diagnostic = try #require(result.diagnostics.first)
        let rendered = diagnostic.rendered(file: "bom.yaml", source: bytes)
        #expect(rendered.hasPrefix("bom.yaml:2:4: error: the alias *x names no anchor"))
        #expect(rendered.hasSuffix("b: *x\n   ^~"))
    }

    @Test func errorsSortFirstAndDiagnosticsSortBySource() {
        let late = Diagnostic.error("c", "m", at: SourceRange(start: SourceLocation(line: 9, column: 1, offset: 90)))
        let early = Diagnostic.warning("c", "m", at: .wholeInputStart)
        let sameSpotError = Diagnostic.error("c", "m", at: .wholeInputStart)
        #expect([late, early, sameSpotError].sortedBySource() == [sameSpotError, early, late])
        #expect([early].containsErrors == false)
        #expect([early, late].containsErrors)
        #expect(Severity.error < Severity.warning && Severity.warning < Severity.note)
    }
}
