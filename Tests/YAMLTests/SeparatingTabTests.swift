import LaunchPolicy
import TestSupport
import Testing

/// A tab between a `-`, `?` or `:` that starts a line and the node after it is separation, as YAML 1.2 reads it,
/// unless that node is a block collection on the same line, which YAML 1.2 indents with spaces only; so is a tab
/// between a line's indentation and a node, unless the node is a key or a block collection; inside a scalar a tab is
/// text.
@Suite struct SeparatingTabTests {
    @Test(arguments: [
        "-\tx\n", "- \tx\n", "-\t\tx\n",  // a plain scalar
        "-\t-1\n",  // `-1` is a scalar, not an entry (the test suite's Y79Y/010)
        "-\t\"q\"\n- \t'q'\n",  // quoted
        "-\t[a, b]\n-\t{a: b}\n",  // flow collections
        "- &a x\n-\t*a\n-\t&b y\n-\t!!str z\n",  // an alias, an anchor, a tag
        "-\t|\n  text\n-\t>-\n  folded\n",  // block scalars
        "-\t# a note\n  x\n",  // a comment, then the node on the next line
        "-\t\n  x\n",  // blanks to the line's end
        "-\t&a\n  k: v\n-\t!!seq\n  - x\n",  // properties, then a block collection on a line of its own
        "? \tk\n:\tv\n",  // an explicit key and its value
        "- -\tx\n",  // after the second `-` of a line
        "? a\n: -\tb\n  -  -\tc\n     - d\n",  // the test suite's A2M4
        "key:\n  -\tvalue\n  -\tother\n",  // in a mapping
        "-\tx\r\n-\ty\r\n",  // CR LF
        "-\t",  // an empty entry at the input's end
        "- \t\n  - x\n",  // a trailing tab before a block collection on the next line
    ])
    func aTabBeforeANodeOtherThanABlockCollectionIsSeparation(text: String) throws {
        let tabbed = suiteEvents(Array(text.utf8))
        #expect(tabbed.error == nil, "\(tabbed.error?.description ?? "")")
        let spaced = suiteEvents(Array(text.replacingOccurrences(of: "\t", with: " ").utf8))
        #expect(spaced.error == nil)
        #expect(tabbed.lines == spaced.lines)
    }

    /// Nodes keep the input's positions: a tab is one character, as the space libyaml reads for it.
    @Test func positionsAfterASeparatingTabAreTheInputs() throws {
        let result = read("- a\n-\t\tb\n-\td\n")
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.description))")
        let items = try #require(result.root?.sequence)
        #expect(items.count == 3)
        #expect(items[1].text == "b")
        #expect(items[1].range.start == SourceLocation(line: 2, column: 4, offset: 7))
        #expect(items[2].range.start == SourceLocation(line: 3, column: 3, offset: 11))
    }

    /// Before a block collection on the same line the tab is refused, as YAML 1.2 refuses it (the test suite's
    /// Y79Y/004 to Y79Y/009), at the tab, saying so.
    @Test(arguments: [
        ("-\tk: v\n", 1, 2), ("-\t- x\n", 1, 2), ("- \t- x\n", 1, 3), ("-\t-\n", 1, 2), ("?\t- x\n", 1, 2),
        ("?\tk: v\n", 1, 2), ("? a\n:\t- b\n", 2, 2), ("-\t&a k: v\n", 1, 2), ("-\t!!map k: v\n", 1, 2),
        ("-\t\"k\": v\n", 1, 2), ("- x\n-\t-\ty\n", 2, 2),
    ])
    func aTabBeforeABlockCollectionOnItsLineIsRefused(text: String, line: Int, column: Int) throws {
        let error = try #require(read(text).diagnostics.first)
        #expect(error.code.rawValue == "yaml.syntax-error")
        #expect(error.range.start.line == line && error.range.start.column == column, "\(error)")
        #expect(error.message.hasSuffix(
            "a block collection that starts on the same line, which YAML allows after spaces only"), "\(error)")
    }

    /// Past the depth limit the first pass stops, as the reader does: the input is too deep, whatever its tabs.
    @Test func aDeepInputWithSeparatingTabsIsTooDeep() {
        let limits = YAMLLimits(maximumDepth: 20)
        let chain = String(repeating: "- ", count: 30) + "\tx\n"
        #expect(codes(read(chain, limits: limits)) == ["yaml.too-deep"])
        let nested = (0..<30).map { String(repeating: " ", count: 2 * $0) + "k\($0):\n" }.joined()
            + String(repeating: " ", count: 61) + "\tvalue\n"
        #expect(codes(read(nested, limits: limits)) == ["yaml.too-deep"])
        #expect(read(nested).diagnostics.isEmpty)
    }

    /// Inside a scalar the line is text, and its tab with it.
    @Test(arguments: [
        ("k: \"a\n  - \tb\"\n", "a - \tb"),  // a quoted scalar over lines
        ("k: |\n  - \tb\n", "- \tb\n"),  // a literal block scalar
        ("k: a\n  - \tb\n", "a - \tb"),  // a plain scalar over lines
    ])
    func insideAScalarTheTabIsText(text: String, value: String) throws {
        let result = read(text)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.description))")
        #expect(result.root?["k"]?.text == value)
    }

    /// After the spaces that indent a node past its parent, a tab separates the node from them: before a value or
    /// an entry on a line of its own, and at the top of a document before any node but a block collection (the test
    /// suite's DK95/00, 6CA3, Q5MG).
    @Test(arguments: [
        "\t[a, b]\n", "\t{a: b}\n", "\tfoo\n", "\t[\n\t]\n",  // at the top
        "key:\n \tvalue\n", "key:\n  \t\tvalue\n",  // a value, past its key's column
        "key:\n \t[a]\n", "key:\n \t\"q\"\n", "k: &a x\nkey:\n \t*a\n",
        "- a\n-\n \tb\n",  // an entry on the line after its `-`
        "outer:\n  inner:\n   \tvalue\n",  // nested
        "key:\n \tvalue\n  more\n",  // a plain scalar going on
    ])
    func aTabAfterANodesIndentationIsSeparation(text: String) throws {
        let tabbed = suiteEvents(Array(text.utf8))
        #expect(tabbed.error == nil, "\(tabbed.error?.description ?? "")")
        let spaced = suiteEvents(Array(text.replacingOccurrences(of: "\t", with: " ").utf8))
        #expect(tabbed.lines == spaced.lines)
    }

    /// Before a key or a block collection, or with too few spaces before it, the tab indents the line, which YAML
    /// does with spaces only: refused at the tab, saying so (the test suite's DK95/06 and 4EJS).
    @Test(arguments: [
        ("a:\n\tb: 1\n", 2, 1), ("key:\n\tvalue\n", 2, 1), ("a:\n  b: 1\n  \tc: 2\n", 3, 3),
        ("key:\n \t- x\n", 2, 2), ("key:\n \tk: v\n", 2, 2), ("-\n\tb\n", 2, 1), ("\tkey: value\n", 1, 1),
        ("outer:\n  inner:\n  \tvalue\n", 3, 3),
    ])
    func aTabThatIndentsAKeyOrABlockCollectionIsRefused(text: String, line: Int, column: Int) throws {
        let error = try #require(read(text).diagnostics.first)
        #expect(error.range.start.line == line && error.range.start.column == column, "\(error)")
        #expect(error.message.hasSuffix("; a tab indents the line, and YAML indents with spaces only"), "\(error)")
    }

    /// Every `-`, `?` or `:` that starts a line's text (alone, or after another) in every input of the YAML test
    /// suite that libyaml reads as the suite does, and in the example policies, with the space after it a tab: the
    /// input reads as with the space (a scalar's text with a tab for that space), or, where a block collection
    /// starts after it on that line, is refused at the tab, saying so.
    @Test func aSeparatingTabAnywhereReadsAsTheSpaceOrIsRefusedBeforeABlockCollection() throws {
        let files = try inputs()
        var (readAlike, refused) = (0, 0)
        for file in files {
            let bytes = Array(file.utf8)
            var events: [YAMLEvent] = []
            let error = bytes.withUnsafeBytes { buffer in
                YAMLEventReader(limits: YAMLLimits(maximumDocuments: .max)).readEvents(buffer) { event in
                    events.append(event)
                    return true
                }
            }
            guard error == nil else { continue }
            let original = suiteEvents(bytes).lines.map { $0.replacingOccurrences(of: "\\t", with: " ") }
            for (space, line, column) in separatingSpaces(in: bytes) {
                var tabbed = bytes
                tabbed[space] = UInt8(ascii: "\t")
                let read = suiteEvents(tabbed)
                let place = "\(file.prefix(40).debugDescription), line \(line), column \(column)"
                if let error = read.error {
                    #expect(error.range.start.line == line, "\(place): \(error)")
                    #expect(error.message.hasSuffix("which YAML allows after spaces only"), "\(place): \(error)")
                    #expect(startsBlockCollection(events, line: line, column: column), "\(place): \(error)")
                    refused += 1
                } else {
                    #expect(read.lines.map { $0.replacingOccurrences(of: "\\t", with: " ") } == original, "\(place)")
                    #expect(!startsBlockCollection(events, line: line, column: column), "\(place)")
                    readAlike += 1
                }
            }
        }
        #expect(refused > 20, "\(refused) refused")
        #expect(readAlike > 2 * refused, "\(readAlike) read alike")
    }

    /// The same for the last space before the text of every line that starts with spaces: it reads as the space
    /// (scalars compared with tabs as spaces), or is refused at its line, the tab indenting a key, a block collection
    /// or a block scalar's line, or too few spaces before it; or, at the start of a literal block scalar's text, it is
    /// text and the spaces before it the scalar's indentation, one less than before.
    @Test func aTabAfterALinesSpacesReadsAsTheSpaceOrIsRefusedThere() throws {
        var (readAlike, refused, literalStarts) = (0, 0, 0)
        for file in try inputs() {
            let bytes = Array(file.utf8)
            let original = suiteEvents(bytes)
            guard original.error == nil else { continue }
            let expected = original.lines.map { $0.replacingOccurrences(of: "\\t", with: " ") }
            var lineStart = 0
            var line = 1
            while lineStart < bytes.count {
                var end = lineStart
                while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
                var text = lineStart
                while text < end, bytes[text] == UInt8(ascii: " ") { text += 1 }
                if text > lineStart, text < end, bytes[text] != UInt8(ascii: "#") {
                    var tabbed = bytes
                    tabbed[text - 1] = UInt8(ascii: "\t")
                    let read = suiteEvents(tabbed)
                    let place = "\(file.prefix(40).debugDescription), line \(line)"
                    if let error = read.error {
                        #expect(error.range.start.line == line && error.message.contains("tab"), "\(place): \(error)")
                        refused += 1
                    } else {
                        let lines = read.lines.map { $0.replacingOccurrences(of: "\\t", with: " ") }
                        if lines == expected {
                            readAlike += 1
                        } else {
                            #expect(isLiteralIndentedOneLess(lines, expected), "\(place)")
                            literalStarts += 1
                        }
                    }
                }
                lineStart = end + 1
                line += 1
            }
        }
        #expect(refused > 100, "\(refused) refused")
        #expect(readAlike > 100, "\(readAlike) read alike")
        #expect(literalStarts > 10, "\(literalStarts) literal scalars' first lines")
    }

    /// Whether `lines` are `expected` but for one literal block scalar indented one space less, so that each line of
    /// its text that is not empty starts with a space more (the suite's notation: `=VAL |text\nmore`).
    private func isLiteralIndentedOneLess(_ lines: [String], _ expected: [String]) -> Bool {
        guard lines.count == expected.count else { return false }
        let differing = lines.indices.filter { lines[$0] != expected[$0] }
        guard differing.count == 1, let index = differing.first,
            let bar = expected[index].firstIndex(of: "|"), expected[index].hasPrefix("=VAL ")
        else { return false }
        let head = expected[index][...bar]
        let text = expected[index][expected[index].index(after: bar)...]
        // The text's lines, split at the notation's `\n` but not at an escaped backslash before an `n`.
        var textLines = [""]
        var escaped = false
        for character in text {
            if escaped, character == "n" {
                textLines[textLines.count - 1].removeLast()
                textLines.append("")
            } else {
                textLines[textLines.count - 1].append(character)
            }
            escaped = !escaped && character == "\\"
        }
        let indented = textLines.map { $0.isEmpty ? "" : " " + $0 }
        return lines[index] == head + indented.joined(separator: "\\n")
    }

    /// The example policies, and every input of the YAML test suite that libyaml reads as the suite does.
    private func inputs() throws -> [String] {
        var files = try PolicyMutations.seeds().map { String(decoding: $0, as: UTF8.self) }
        if Conformance.folder("yaml-test-suite") != nil {
            for testCase in try YAMLTestSuiteTests.cases() where !testCase.isError {
                guard LibYAMLKnownDifferences.cases[testCase.id] == nil else { continue }
                files.append(
                    try String(contentsOf: testCase.directory.appendingPathComponent("in.yaml"), encoding: .utf8))
            }
        } else if Conformance.isCI {
            Issue.record("\(Conformance.absenceMessage("yaml-test-suite")); CI must provide it")
        } else {
            print("SKIPPED (the YAML test suite's part): \(Conformance.absenceMessage("yaml-test-suite"))")
        }
        return files
    }

    /// The offset of each space that follows a `-`, `?` or `:` starting a line's text (after spaces, or after
    /// another such indicator and its spaces), with the line and column (1-based) of what follows the spaces.
    private func separatingSpaces(in bytes: [UInt8]) -> [(space: Int, line: Int, column: Int)] {
        var found: [(Int, Int, Int)] = []
        var lineStart = 0
        var line = 1
        while lineStart <= bytes.count {
            var end = lineStart
            while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
            var index = lineStart
            while index < end, bytes[index] == UInt8(ascii: " ") { index += 1 }
            while index + 1 < end, [UInt8(ascii: "-"), UInt8(ascii: "?"), UInt8(ascii: ":")].contains(bytes[index]),
                bytes[index + 1] == UInt8(ascii: " ")
            {
                let space = index + 1
                index = space
                while index < end, bytes[index] == UInt8(ascii: " ") { index += 1 }
                found.append((space, line, index - lineStart + 1))
            }
            lineStart = end + 1
            line += 1
        }
        return found
    }

    /// Whether a block collection starts at a place, with its first node on the same line when it has properties:
    /// what YAML 1.2 refuses a tab before.
    private func startsBlockCollection(_ events: [YAMLEvent], line: Int, column: Int) -> Bool {
        for (index, event) in events.enumerated()
        where event.range.start.line == line && event.range.start.column == column {
            let hasProperties: Bool
            switch event.kind {
            case .sequenceStart(let anchor, let tag, let flow), .mappingStart(let anchor, let tag, let flow):
                guard !flow else { continue }
                hasProperties = anchor != nil || tag != nil
            default: continue
            }
            return !hasProperties || (index + 1 < events.count && events[index + 1].range.start.line == line)
        }
        return false
    }
}
