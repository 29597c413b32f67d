import LaunchPolicy
import TestSupport
import Testing

/// A tab on a line of blanks, or before a comment, is a comment line between nodes, as YAML 1.2 reads it, and text
/// or indentation inside a scalar, as libyaml reads it there; a tab libyaml stops at is said for what it does.
@Suite struct TabbedBlankLineTests {
    /// The events of `text`, which must read without a problem, and those of the same text with every tab a space.
    private func eventsWithAndWithoutTabs(_ text: String) -> (tabbed: [String], spaced: [String]) {
        let tabbed = suiteEvents(Array(text.utf8))
        #expect(tabbed.error == nil, "\(tabbed.error?.description ?? "")")
        let spaced = suiteEvents(Array(text.replacingOccurrences(of: "\t", with: " ").utf8))
        #expect(spaced.error == nil)
        return (tabbed.lines, spaced.lines)
    }

    @Test(arguments: [
        "a: 1\n\t\nb: 2\n",  // the tab an editor leaves on an emptied line (the test suite's DK95/04)
        " \t\nfoo: 1\n",  // on the first line (DK95/03)
        "a: 1\n \t \t\nb: 2\n",  // blanks of both kinds
        "a: 1\n\t# a note\nb: 2\n",  // a comment indented with a tab
        "rules:\n  - id: a\n\t\n  - id: b\n    when:\n  \t  # later\n      first-launch: true\n",
        "a: 1\r\n\t\r\nb: 2\r\n",  // CR LF
        "a: 1\r\t\rb: 2\r",  // CR
        "a: [1,\n\t\n  2]\n\t",  // in a flow collection, and the last line, with no line break
        "\"Y\"\n\t",  // after a quoted root: what a fix-it quoting `Y` made of `Y\n\t` (found by the fuzzer)
    ])
    func aTabbedLineBetweenNodesIsACommentLine(text: String) {
        let (tabbed, spaced) = eventsWithAndWithoutTabs(text)
        #expect(tabbed == spaced)
    }

    @Test func positionsAfterATabbedLineAreTheInputs() throws {
        let text = "a: 1\n\t\t\nb: 2\n"
        let result = read(text)
        #expect(result.diagnostics.isEmpty)
        let b = try #require(result.root?.mapping?.last)
        #expect(b.key.range.start == SourceLocation(line: 3, column: 1, offset: 8))
        #expect(b.value.range.start == SourceLocation(line: 3, column: 4, offset: 11))
    }

    /// After a byte-order mark, which libyaml is not given: lines and offsets as the input's.
    @Test func aTabbedLineAfterAByteOrderMarkKeepsThePositions() throws {
        let result = read(bytes: [0xEF, 0xBB, 0xBF] + Array("a: 1\n\t\r\nb: |\n  x\n\t\nc: 3\n".utf8))
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.description))")
        let root = try #require(result.root)
        #expect(root["b"]?.text == "x\n")
        #expect(root["c"]?.range.start == SourceLocation(line: 6, column: 4, offset: 25))
    }

    /// With a separator (LS) for `InputSubstitution` and an escape pair, both read through the same copy.
    @Test func aTabbedLineAndSubstitutedCharactersReadTogether() throws {
        let result = read("a: \"x\u{2028}y \\uD83D\\uDE00\"\n\t\nb: 2\n")
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.description))")
        let root = try #require(result.root)
        #expect(root["a"]?.text == "x\u{2028}y 😀")
        #expect(root["b"]?.range.start.line == 3)
    }

    /// Inside a scalar, a tabbed line is what libyaml reads there: text after the indentation, or folded away at the
    /// start of a quoted or plain scalar's line. Never a space in the value.
    @Test func insideAScalarTheLineIsReadAsWritten() throws {
        let root = try #require(read("a: |\n  x\n  \t\n  y\nb: \"x\n \t\n y\"\nc: x\n  \t\n  y\n").root)
        #expect(root["a"]?.text == "x\n\t\ny\n")
        #expect(root["b"]?.text == "x\ny")
        #expect(root["c"]?.text == "x\ny")
    }

    /// A tab where a block scalar's indentation is (the test suite's Y79Y/000): refused, as YAML 1.2 refuses it,
    /// with a fix-it that empties the line.
    @Test func aTabInABlockScalarsIndentationIsRefusedWithAFixIt() throws {
        let result = read("foo: |\n\t\nbar: 1\n")
        let error = try #require(result.diagnostics.first)
        #expect(error.code == .yamlSyntaxError)
        #expect(error.range.start.line == 2)
        #expect(error.message.hasSuffix(
            "; the line holds only blanks and a tab, inside a scalar, where a tab cannot indent a line"))
        let fixIt = try #require(error.fixIt)
        #expect((fixIt.range.start.offset, fixIt.range.end.offset) == (7, 8))
        #expect(fixIt.replacement.isEmpty)
    }

    /// After a block scalar's last line of text, a tab short of the scalar's indentation ends the scalar, and the
    /// line is a comment (YAML 1.2's l-chomped-empty takes only lines of spaces); at or past it, it is text.
    @Test(arguments: [
        ("a: |\n  x\n\t\nb: 1\n", "x\n"),
        ("a: |\n  x\n\t", "x\n"),  // the last line, with no line break
        ("a: |+\n  x\n\n\t\n\nb: 1\n", "x\n\n"),  // kept: the empty line before the tab only
        ("a: |-\n  x\n \t \nb: 1\n", "x"),
        ("a: >\n    x\n    y\n  \t\nb: 1\n", "x y\n"),  // indented by 4
        ("m:\n  a: |\n    Hello\n  \t\n  \t\nb: 1\n", "Hello\n"),  // nested, two lines
        ("a: |\n  x\n  \t\nb: 1\n", "x\n\t\n"),  // at the indentation: text
        ("a: |1\n   x\n \t\nb: 1\n", "  x\n\t\n"),  // an explicit indentation of 1: text
        ("a: >\n    x\n      more\n  \t\nb: 1\n", "x\n  more\n"),  // a more-indented last line
        // Once a line has ended the scalar, a tab at its indentation is a comment line's blank, not text.
        ("a: |\n  x\n\t\n  \t\nb: 1\n", "x\n"),
        ("a: |\n \tx\n\t\n \t  \n\t \nb: 1\n", "\tx\n"),  // the fuzzer's: the text starts with a tab
    ])
    func aTabAfterABlockScalarsTextIsReadAsYAML12ReadsIt(text: String, value: String) throws {
        let result = read(text)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.description))")
        let root = try #require(result.root)
        #expect((root["a"] ?? root["m"]?["a"])?.text == value)
        if text.contains("b: 1") { #expect(root["b"]?.text == "1") }
    }

    /// Before more of a block scalar's text, a tab short of its indentation is refused, as YAML 1.2 refuses it: the
    /// scalar ended, and its text goes on.
    @Test func aTabBeforeMoreOfABlockScalarsTextIsRefused() throws {
        let error = try #require(read("a: |\n  x\n\t\n  y\n").diagnostics.first)
        #expect(error.code == .yamlSyntaxError)
        #expect(error.range.start.line == 3)
        #expect(error.message.contains("inside a scalar"))
        #expect(error.fixIt != nil)
        // Before a comment, in a scalar indented by 1 (libyaml reads the copy's ` # c` as its text), the same, and
        // no fix-it: deleting the blanks would end the scalar at the comment.
        let commented = try #require(read("a: |\n x\n\t# c\n y\n").diagnostics.first)
        #expect(commented.range.start.line == 3)
        #expect(commented.message.hasSuffix(
            "; the line holds only blanks, a tab and a comment, inside a scalar, where a tab cannot indent a line"))
        #expect(commented.fixIt == nil)
    }

    /// A tab among other text at a line's start is indentation, which YAML forbids: still refused, and the message
    /// says what the invisible character under the caret does, without a fix-it (how many spaces it stands for is
    /// the editor's to say). So for a tab after a `-`, `?` or `:` that starts a line's text before a block collection
    /// on that line, which YAML 1.2 refuses too.
    @Test(arguments: [
        ("a:\n\tb: 1\n", 2, 1, "; a tab indents the line, and YAML indents with spaces only"),
        ("rules:\n  - id: a\n  \tthen: block\n", 3, 3, "; a tab indents the line, and YAML indents with spaces only"),
        ("a: |\n  x\n\ty\n", 3, 1, "; a tab indents the line, and YAML indents with spaces only"),
        ("- a\n-\tb: 1\n", 2, 2, "; a tab separates the `-` from a block collection that starts on the same line, "
            + "which YAML allows after spaces only"),
        ("? a\n:\t- b\n", 2, 2, "; a tab separates the `:` from a block collection that starts on the same line, "
            + "which YAML allows after spaces only"),
        ("- - \t- b\n", 1, 5, "; a tab separates the `-` from a block collection that starts on the same line, "
            + "which YAML allows after spaces only"),
    ])
    func aTabThatIndentsOrSeparatesIsSaidSo(text: String, line: Int, column: Int, explanation: String) throws {
        let error = try #require(read(text).diagnostics.first)
        #expect(error.code == .yamlSyntaxError)
        #expect((error.range.start.line, error.range.start.column) == (line, column))
        #expect(error.message.hasSuffix(explanation), "\(error.message)")
        #expect(error.fixIt == nil)
    }

    /// Where libyaml's first pass stops, at another problem or past the depth limit, that problem is the one
    /// reported, not the tabbed lines before or after it.
    @Test func anotherProblemIsReportedAsItself() throws {
        let unclosed = try #require(read("a: 1\n\t\nb: [1,\n\t\n").diagnostics.first)
        #expect(unclosed.code == .yamlSyntaxError)
        #expect(!unclosed.message.contains("tab"), "\(unclosed.message)")
        let deep = read("a: 1\n\t\nb: " + String(repeating: "[", count: 5) + String(repeating: "]", count: 5)
            + "\n\t\n", limits: YAMLLimits(maximumDepth: 3))
        #expect(codes(deep) == ["yaml.too-deep"])
    }

    /// A syntax error elsewhere says nothing of tabs, even on a line that holds one.
    @Test func aSyntaxErrorAwayFromATabSaysNothingOfTabs() throws {
        let error = try #require(read("a: [1,\tb\nc: 2\n").diagnostics.first)
        #expect(error.code == .yamlSyntaxError)
        #expect(!error.message.contains("tab"))
    }

    /// Many tabbed lines, between nodes and inside scalars alike, each read as the rules above say.
    @Test func manyTabbedLinesAreEachReadByWhereTheyAre() throws {
        var text = ""
        for index in 0..<200 {
            text += "k\(index): |\n  line\n  \t\n  end\n\t\n"
        }
        let result = read(text)
        #expect(result.diagnostics.isEmpty)
        let entries = try #require(result.root?.mapping)
        #expect(entries.count == 200)
        #expect(entries.allSatisfy { $0.value.text == "line\n\t\nend\n" })
    }

    /// Every line boundary of the example policies and of a file of every kind of node (block scalars of each style
    /// and chomping but kept, multi-line plain and quoted scalars, flow collections over lines, comments), with a
    /// line that starts with a tab put there (``insertingTabbedLines(into:)``).
    @Test func aTabbedLineAnywhereReadsAsTheLineWithoutTheTabOrIsRefusedThere() throws {
        let kinds = "top: 1\nliteral: |\n  one\n\n  two\nfolded: >-\n    three\n      four\n    five\n"
            + "plain: six\n  seven\nquoted: \"eight\n  nine\"\nsingle: 'ten\n  eleven'\n"
            + "flow: [a,\n  b, {c: d,\n  e: f}]\n"
            + "# a comment\nnested:\n  - item\n  - key: |2\n        twelve\n      thirteen\n    other: x\nlast: y\n"
        let files = try PolicyMutations.seeds().map { String(decoding: $0, as: UTF8.self) } + [kinds]
        let (readAlike, refused) = insertingTabbedLines(into: files)
        // Both answers were given, and most places read alike.
        #expect(refused > 0)
        #expect(readAlike > 10 * refused)
    }

    /// The same at every line boundary of every input of the YAML test suite that libyaml reads as the suite does,
    /// but those with kept chomping: anchors, tags, directives, several documents, complex keys, every style.
    @Test func aTabbedLineAnywhereInTheYAMLTestSuiteReadsSoToo() throws {
        guard Conformance.folder("yaml-test-suite") != nil else {
            if Conformance.isCI { Issue.record("\(Conformance.absenceMessage("yaml-test-suite")); CI must provide it") }
            print("SKIPPED: \(Conformance.absenceMessage("yaml-test-suite"))")
            return
        }
        var files: [String] = []
        for testCase in try YAMLTestSuiteTests.cases() where !testCase.isError {
            guard LibYAMLKnownDifferences.cases[testCase.id] == nil else { continue }
            let input = try String(contentsOf: testCase.directory.appendingPathComponent("in.yaml"), encoding: .utf8)
            guard input.range(of: #"[|>][1-9]?\+"#, options: .regularExpression) == nil else { continue }
            files.append(input)
        }
        let (readAlike, refused) = insertingTabbedLines(into: files)
        #expect(files.count > 200, "\(files.count) inputs")
        #expect(refused > 0)
        #expect(readAlike > 10 * refused)
    }

    /// Puts a line that starts with a tab at every line boundary of each file, three ways. YAML 1.2 reads a line of
    /// blanks as an empty line (inside a scalar) or as a comment line (between nodes, or after a block scalar's text,
    /// which it ends): the tabbed line must read as one of those, the same line without its blanks or `#`, or, where
    /// the tab would stand in a scalar's indentation, be refused at that line, saying so; where both readings are
    /// refused, so is it. A tab at a line's start is short of any scalar's indentation; one past it is text, tested
    /// above. Kept chomping is left out: YAML 1.2 ends the kept lines at the tab (above). Returns how many read as
    /// one of the readings and how many were refused.
    private func insertingTabbedLines(into files: [String]) -> (readAlike: Int, refused: Int) {
        var readAlike = 0
        var refused = 0
        for file in files {
            let lines = file.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            for index in 0...lines.count {
                for (tabbed, readings) in [("\t", ["", "#"]), ("\t \t ", ["", "#"]), ("\t# note", ["# note"])] {
                    func inserting(_ line: String) -> [UInt8] {
                        var copy = lines
                        copy.insert(line, at: index)
                        return Array(copy.joined(separator: "\n").utf8)
                    }
                    let read = suiteEvents(inserting(tabbed))
                    let expected = readings.map { suiteEvents(inserting($0)) }.filter { $0.error == nil }
                    let place = "line \(index + 1) of \(file.prefix(40).debugDescription): \(tabbed.debugDescription)"
                    if let error = read.error {
                        guard !expected.isEmpty else { continue }
                        #expect(error.range.start.line == index + 1, "\(place): \(error)")
                        #expect(error.message.contains("inside a scalar"), "\(place): \(error)")
                        refused += 1
                    } else {
                        #expect(expected.contains { $0.lines == read.lines }, "\(place): \(read.lines)")
                        readAlike += 1
                    }
                }
            }
        }
        return (readAlike, refused)
    }

    /// Spaces then a tab at the start of a literal block scalar's first line of text: the spaces are its indentation,
    /// and the tab is text, as YAML 1.2 reads it (the test suite's 96NN and Y79Y/001). libyaml works the indentation
    /// out from the line's first blanks and refused the tab; it reads a stand-in, and the text gets the tab back.
    @Test(arguments: [
        ("a: |\n \tbar\n", "\tbar\n"),
        ("a: |-\n \tbar", "\tbar"),  // stripped, and no line break at the end (96NN/01)
        ("a: |+\n  \tx\n\n", "\tx\n\n"),
        ("a: |\n \t\nb: 1\n", "\t\n"),  // a line of blanks (Y79Y/001)
        ("a: | # a note\n  \t\tx \t y\n  z\n", "\t\tx \t y\nz\n"),  // a comment; every tab of the line
        ("a: |\n\n  \n  \tx\n   y\n", "\n\n\tx\n y\n"),  // after empty lines
        ("a: |\r\n  \tx\r\n  y\r\nb: 1\r\n", "\tx\ny\n"),  // CR LF
        ("- |\n  \tx\n  y\n- |\n   \tz\n   w\n", "\tx\ny\n"),  // in a sequence, twice
        ("a: |\n  \t~ {x} | y\n", "\t~ {x} | y\n"),  // other printable characters stay as written
        ("a: |1\n \tx\n", "\tx\n"),  // an explicit indentation, which libyaml read before too
        ("- |  \t\n\r\n  \t\n", "\n\t\n"),  // blanks and a tab after the header, an empty line (found by the fuzzer)
        ("a: |\n  \tx\n   \n  \n   y\n", "\tx\n \n\n y\n"),  // a line of spaces past the indentation is a space of text
        ("a: |\n  \tx |\n  \t\n", "\tx |\n\t\n"),  // a later line after text ending in `|`, at the indentation
        // A JSON escape pair, text in a literal scalar, which the reader hands libyaml in another spelling: the tab's
        // stand-in is never one of its letters or digits.
        ("a: |\n \t\\uD83D\\uDE00 \(punctuation)\n", "\t\\uD83D\\uDE00 \(punctuation)\n"),
    ])
    func aTabStartingALiteralScalarsTextIsText(text: String, value: String) throws {
        let result = read(text)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.description))")
        let root = try #require(result.root)
        #expect((root["a"] ?? root.sequence?.first)?.text == value)
        if text.contains("b: 1") { #expect(root["b"]?.text == "1") }
        if root.sequence?.count == 2 { #expect(root.sequence?.last?.text == "\tz\nw\n") }
    }

    /// A message whose first line starts with a tab, in a policy: its text, and the places of what follows it, are
    /// the input's; a tabbed line between nodes after it is still a comment line.
    @Test func aMessageStartingWithATabReadsAndThePositionsAfterItAreTheInputs() throws {
        let text = "messages:\n  hi:\n    default: |\n      \tDark mode\n      Light mode\n\t\nrules: [a]\n"
        let result = read(text)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.description))")
        let root = try #require(result.root)
        #expect(root["messages"]?["hi"]?["default"]?.text == "\tDark mode\nLight mode\n")
        let rules = try #require(root.mapping?.last)
        #expect(rules.key.range.start == SourceLocation(line: 7, column: 1, offset: 67))
        #expect(rules.value.sequence?.first?.range.start == SourceLocation(line: 7, column: 9, offset: 75))
    }

    /// Where the line before only looks like a literal scalar's header, the tab is read as before: folded away in a
    /// quoted scalar, refused as indentation after a comment, and refused in a folded scalar, whose folding libyaml
    /// would get wrong (R4YG); so when the input holds every printable character, leaving none to stand in.
    @Test func aTabAfterWhatOnlyLooksLikeALiteralHeaderIsReadAsBefore() throws {
        let quoted = read("a: \"x |\n \ty\"\n")
        #expect(quoted.diagnostics.isEmpty)
        #expect(quoted.root?["a"]?.text == "x | y")
        for text in ["a: 1 # x |\n \tb: 2\n", "a: >\n \tx\n", "# \(printable)\na: |\n \tx\n"] {
            let error = try #require(read(text).diagnostics.first, "\(text)")
            #expect(error.code == .yamlSyntaxError)
            #expect((error.range.start.line, error.range.start.column) == (text.hasPrefix("#") ? 3 : 2, 2))
        }
    }

    /// Where libyaml still refuses such a tab (a folded scalar, or no character to stand in for it), the error says
    /// what YAML 1.2 reads, and its fix-it writes the indentation in the header, after which libyaml reads the tab.
    @Test(arguments: [
        ("a: >\n \tx\n y\n", 4, "1", "\tx\ny\n"),  // the test suite's R4YG, at the top of a mapping
        ("m:\n  a: >-\n\n     \tx\n      y\n", 9, "3", "\n\tx\n y"),  // nested, stripped, after an empty line
        ("--- >\n  \t\n  z\n", 5, "2", "\t\nz\n"),  // a line of blanks, at the top of a document
        ("# \(printable)\na: |\n  \tx\n", 101, "2", "\tx\n"),  // literal, with no character to stand in
    ])
    func aTabLibYAMLRefusesAtABlockScalarsStartGetsItsIndentationWritten(
        text: String, offset: Int, indicator: String, value: String
    ) throws {
        let error = try #require(read(text).diagnostics.first)
        #expect(error.code == .yamlSyntaxError)
        #expect(error.message.contains("YAML 1.2 reads the tab as the first character of the scalar's text"))
        let fixIt = try #require(error.fixIt)
        #expect(fixIt.range.start.offset == offset && fixIt.range.end.offset == offset)
        #expect(fixIt.replacement == indicator)
        let fixed = FixIt.apply([fixIt], to: Array(text.utf8)).text
        let result = read(bytes: fixed)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.description))")
        let root = try #require(result.root)
        #expect((root["a"] ?? root["m"]?["a"] ?? root)?.text == value)
    }

    /// A header that gives an indentation the tab is short of, or a tab after text, is refused as YAML 1.2 refuses it,
    /// and gets no such fix-it.
    @Test func aTabShortOfAGivenIndentationGetsNoIndentationFixIt() throws {
        for text in ["a: >2\n \tx\n", "a: >\n  x\n \ty\n"] {
            let error = try #require(read(text).diagnostics.first, "\(text)")
            #expect(!error.message.contains("YAML 1.2 reads the tab"), "\(text)")
            #expect(error.fixIt == nil, "\(text)")
        }
    }
}

private let printable = String((UInt8(ascii: "!")...UInt8(ascii: "~")).map { Character(Unicode.Scalar($0)) })
/// Every printable ASCII character but letters, digits, `~` and the backslash.
private let punctuation = printable.filter { !$0.isLetter && !$0.isNumber && $0 != "~" && $0 != "\\" }
