import Foundation
import LaunchPolicy
import Testing

@Suite struct ReaderTests {
    @Test func scalarsStayUntypedTextWithTheirStyle() throws {
        let result = read("""
            version: 1.10
            answer: no
            octal: 010
            nothing: ~
            single: 'it''s'
            double: "tab\\there"
            literal: |
              a
              b
            folded: >
              a
              b
            """)
        #expect(result.diagnostics.isEmpty)
        let root = try #require(result.root)
        #expect(root["version"]?.scalar == YAMLScalar(text: "1.10", style: .plain))
        #expect(root["answer"]?.scalar == YAMLScalar(text: "no", style: .plain))
        #expect(root["octal"]?.scalar?.text == "010")
        #expect(root["nothing"]?.scalar?.text == "~")
        #expect(root["single"]?.scalar == YAMLScalar(text: "it's", style: .singleQuoted))
        #expect(root["double"]?.scalar == YAMLScalar(text: "tab\there", style: .doubleQuoted))
        #expect(root["literal"]?.scalar == YAMLScalar(text: "a\nb\n", style: .literal))
        // The input ends without a line break, so clip chomping adds none.
        #expect(root["folded"]?.scalar == YAMLScalar(text: "a b", style: .folded))
    }

    @Test func mappingsKeepTheirOrderAndSequencesTheirItems() throws {
        let root = try #require(read("z: 1\na: [x, y]\nm: {k: v}\n").root)
        let entries = try #require(root.mapping)
        #expect(entries.map { $0.key.scalar?.text } == ["z", "a", "m"])
        #expect(root["a"]?.sequence?.map { $0.scalar?.text } == ["x", "y"])
        #expect(root["m"]?["k"]?.scalar?.text == "v")
        #expect(root["missing"] == nil)
        #expect(root.kindName == "mapping")
    }

    @Test func everyNodeHasLineColumnAndByteOffset() throws {
        let text = "rules:\n  - id: a\n    then: block\n"
        let root = try #require(read(text).root)
        let rule = try #require(root["rules"]?.sequence?.first)
        let id = try #require(rule["id"])
        #expect(id.range.start == SourceLocation(line: 2, column: 9, offset: 15))
        #expect(id.range.end == SourceLocation(line: 2, column: 10, offset: 16))
        let then = try #require(rule["then"])
        #expect(then.range.start == SourceLocation(line: 3, column: 11, offset: 27))
        #expect(root.range.start == SourceLocation(line: 1, column: 1, offset: 0))
    }

    @Test func columnsCountCharactersAndOffsetsCountBytes() throws {
        let text = "ja: \"最新版\"\nnext: x\n"
        let root = try #require(read(text).root)
        let ja = try #require(root["ja"])
        #expect(ja.range.start == SourceLocation(line: 1, column: 5, offset: 4))
        // The closing quote ends the range: 3 characters of 3 bytes each after the opening quote.
        #expect(ja.range.end == SourceLocation(line: 1, column: 10, offset: 15))
        let next = try #require(root["next"])
        #expect(next.range.start == SourceLocation(line: 2, column: 7, offset: 22))
        #expect(Array(text.utf8)[next.range.start.offset] == UInt8(ascii: "x"))
    }

    /// Positions in a non-ASCII input are walked eight ASCII characters at a time where they can be: keys after
    /// ASCII runs of every length from 0 to 19, around multi-byte values, each land on their own text, with the
    /// column counting characters.
    @Test func positionsHoldAfterASCIIRunsOfEveryLengthInANonASCIIInput() throws {
        var text = ""
        for run in 0..<20 {
            text += "k\(run)\(String(repeating: "x", count: run)): \"\(String(repeating: "é", count: run % 5))最\"\n"
        }
        let bytes = Array(text.utf8)
        let root = try #require(read(text).root)
        let entries = try #require(root.mapping)
        #expect(entries.count == 20)
        for entry in entries {
            let key = try #require(entry.key.text)
            let start = entry.key.range.start
            #expect(Array(bytes[start.offset..<start.offset + key.utf8.count]) == Array(key.utf8))
            #expect(start.column == 1)
            let value = entry.value.range.start
            #expect(bytes[value.offset] == UInt8(ascii: "\""))
            // The value starts after the key, a colon and a space; every one of them is a single character.
            #expect(value.column == key.count + 3)
            let end = entry.value.range.end
            #expect(bytes[end.offset - 1] == UInt8(ascii: "\""))
            let valueCharacters = String(decoding: bytes[value.offset..<end.offset], as: UTF8.self).count
            #expect(end.column == value.column + valueCharacters)
        }
    }

    @Test func aByteOrderMarkIsSkippedButCountedInOffsets() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("key: value\n".utf8)
        let result = read(bytes: bytes)
        #expect(result.diagnostics.isEmpty)
        let value = try #require(result.root?["key"])
        #expect(value.scalar?.text == "value")
        #expect(value.range.start == SourceLocation(line: 1, column: 6, offset: 8))
        #expect(bytes[value.range.start.offset] == UInt8(ascii: "v"))
    }

    @Test func crlfLineEndsReadLikeLF() throws {
        let crlf = read("a: 1\r\nb: |\r\n  x\r\n  y\r\nc: 3\r\n")
        let lf = read("a: 1\nb: |\n  x\n  y\nc: 3\n")
        #expect(crlf.diagnostics.isEmpty)
        let crlfRoot = try #require(crlf.root)
        let lfRoot = try #require(lf.root)
        #expect(crlfRoot["b"]?.scalar?.text == "x\ny\n")
        #expect(crlfRoot["b"]?.scalar == lfRoot["b"]?.scalar)
        let c = try #require(crlfRoot["c"])
        #expect(c.range.start.line == 5)
        #expect(c.range.start.column == 4)
        #expect(c.range.start.offset == 25)
    }

    @Test(arguments: ["", "\n\n", "# only a comment\n", "   "])
    func anInputWithNoDocumentIsAnError(text: String) {
        let result = read(text)
        #expect(codes(result) == ["yaml.empty-input"])
        #expect(result.diagnostics.first?.range.start == .start)
        #expect(result.root == nil)
    }

    @Test func anExplicitEmptyDocumentIsAnEmptyPlainScalar() throws {
        let root = try #require(read("---\n").root)
        #expect(root.scalar == YAMLScalar(text: "", style: .plain))
    }

    @Test func aSecondDocumentIsRefusedWhereItStarts() {
        let result = read("a: 1\n---\nb: 2\n")
        #expect(codes(result) == ["yaml.too-many-documents"])
        #expect(result.diagnostics.first?.range.start.line == 2)
        #expect(result.diagnostics.first?.range.start.column == 1)
        #expect(result.root == nil)
    }

    @Test func severalDocumentsAreReadWhenTheLimitAllowsThem() {
        let result = read("a: 1\n---\nb: 2\n", limits: YAMLLimits(maximumDocuments: 2))
        #expect(result.diagnostics.isEmpty)
        #expect(result.documents.count == 2)
        #expect(result.documents[1]["b"]?.scalar?.text == "2")
    }

    @Test func tagsAreKeptAsLibYAMLResolvesThem() throws {
        let root = try #require(read("a: !!str 1.10\nb: !custom x\nc: != 1.0\nd: !!map {k: v}\n").root)
        #expect(root["a"]?.tag == "tag:yaml.org,2002:str")
        #expect(root["a"]?.scalar?.text == "1.10")
        #expect(root["b"]?.tag == "!custom")
        // An unquoted `!= 1.0` is the tag `!=` on `1.0`: the policy decoder reports it; the reader keeps it.
        #expect(root["c"]?.tag == "!=")
        #expect(root["c"]?.scalar?.text == "1.0")
        #expect(root["d"]?.tag == "tag:yaml.org,2002:map")
        #expect(root["d"]?["k"]?.scalar?.text == "v")
        let tagged = try #require(root["c"])
        #expect(tagged.range.start == SourceLocation(line: 3, column: 4, offset: 30))
    }

    @Test func aDuplicateKeyNamesBothPositions() throws {
        let result = read("id: a\nrules: []\nid: b\nafter: c\n")
        #expect(codes(result) == ["yaml.duplicate-key"])
        let diagnostic = try #require(result.diagnostics.first)
        #expect(diagnostic.range.start == SourceLocation(line: 3, column: 1, offset: 16))
        #expect(diagnostic.notes.first?.range.start == SourceLocation(line: 1, column: 1, offset: 0))
        #expect(diagnostic.message.contains("\"id\""))
        #expect(diagnostic.message.contains("1:1"))
        // The tree is still returned, with the first value, so that later stages can report their own problems.
        #expect(result.root?["id"]?.scalar?.text == "a")
        // Only the duplicate's value is left out: the entry after it is read whole.
        #expect(result.root?["after"]?.scalar?.text == "c")
        #expect(result.root?.mapping?.count == 3)
    }

    @Test func keysCompareByTextWhateverTheirQuoting() {
        #expect(codes(read("no: 1\n\"no\": 2\n")) == ["yaml.duplicate-key"])
        #expect(codes(read("a: {x: 1, 'x': 2}\n")) == ["yaml.duplicate-key"])
        #expect(codes(read("a: {x: 1}\nb: {x: 2}\n")) == [])
    }

    /// Short mappings compare keys in a list and long ones in a table: duplicates are found on both sides of the
    /// switch, and distinct keys are never mistaken for one.
    @Test(arguments: [3, 15, 16, 17, 40])
    func duplicatesAreFoundInMappingsOfAnySize(keys: Int) throws {
        let distinct = (0..<keys).map { "k\($0): v\n" }.joined()
        #expect(codes(read(distinct)) == [])
        let result = read(distinct + "k0: again\nk\(keys - 1): again\n")
        #expect(codes(result) == ["yaml.duplicate-key", "yaml.duplicate-key"])
        #expect(result.diagnostics.map(\.range.start.line) == [keys + 1, keys + 2])
        #expect(result.diagnostics.compactMap(\.notes.first?.range.start.line) == [1, keys])
        #expect(result.root?.mapping?.count == keys)
    }

    /// In a long mapping too, whose keys are in a table: a collection key by structure, and never the same key as a
    /// scalar, whatever the scalar's text.
    @Test func complexKeysCompareByStructureInALongMapping() {
        let many = (0..<20).map { "k\($0): v\n" }.joined()
        let twice = read(many + "? [a, b]\n: 1\n? [a, b]\n: 2\n")
        #expect(codes(twice) == ["yaml.duplicate-key"])
        #expect(twice.diagnostics.first?.notes.first?.range.start.line == 21)
        #expect(codes(read(many + "? [a, b]\n: 1\n? [b, a]\n: 2\n")) == [])
        // Scalars spelt as a sequence's description might be: each a key of its own.
        let lookalikes = ["q2", "s1:a", "q2s1:as1:b", "q2s1:bs1:a", "[a, b]"].map { "'\($0)': x\n" }.joined()
        #expect(codes(read(many + "? [a, b]\n: 1\n" + lookalikes)) == [])
    }

    /// A mapping inside another keeps its own keys, in a list or a table, and the outer one's go on where they were
    /// once it ends: a long mapping around a short one, and a short one around a long one.
    @Test func nestedMappingsKeepTheirOwnKeys() {
        let long = (0..<20).map { "k\($0): v\n" }.joined()
        let longAroundShort = read(long + "inner:\n  x: 1\n  k0: 2\n  x: 3\nk0: again\nlast: v\n")
        #expect(codes(longAroundShort) == ["yaml.duplicate-key", "yaml.duplicate-key"])
        #expect(longAroundShort.diagnostics.map(\.range.start.line) == [24, 25])
        #expect(longAroundShort.root?.mapping?.count == 22)
        let longInner = (0..<20).map { "  k\($0): v\n" }.joined()
        let shortAroundLong = read("a: 1\ninner:\n" + longInner + "  a: 2\n  k3: again\nb: 2\na: again\n")
        #expect(codes(shortAroundLong) == ["yaml.duplicate-key", "yaml.duplicate-key"])
        #expect(shortAroundLong.diagnostics.map(\.range.start.line) == [24, 26])
        #expect(shortAroundLong.root?["inner"]?.mapping?.count == 21)
        #expect(shortAroundLong.root?.mapping?.count == 3)
    }

    @Test func complexKeysCompareByStructure() {
        let collectionKeys = read("? [a, b]\n: 1\n? [a, b]\n: 2\n")
        #expect(codes(collectionKeys) == ["yaml.duplicate-key"])
        #expect(collectionKeys.diagnostics.first?.message.hasPrefix("the key (a sequence) appears twice") == true)
        #expect(codes(read("? [a, b]\n: 1\n? [b, a]\n: 2\n")) == [])
    }

    @Test func duplicateKeysAreAllReportedUpToACap() {
        let text = (0..<200).map { _ in "k: v\n" }.joined()
        let result = read(text)
        #expect(result.diagnostics.filter { $0.code == .yamlDuplicateKey }.count == 50)
        #expect(result.diagnostics.last?.code == .yamlTooManyErrors)
        #expect(result.root == nil)
    }

    @Test func aliasesShareTheirAnchorsNode() throws {
        let root = try #require(read("base: &b {platform: ios}\nuse: *b\n").root)
        #expect(root["use"]?["platform"]?.scalar?.text == "ios")
        #expect(root["use"]?.range == root["base"]?.range)
        #expect(root["base"]?.anchor == "b")
    }

    @Test func anAliasToAnUnknownAnchorIsAnError() throws {
        let result = read("a: 1\nb: *nowhere\n")
        #expect(codes(result) == ["yaml.unknown-anchor"])
        #expect(result.diagnostics.first?.range.start == SourceLocation(line: 2, column: 4, offset: 8))
        #expect(result.root == nil)
    }

    @Test func anAliasIntoItsOwnOpenAnchorIsAnError() {
        let result = read("a: &loop\n  b: *loop\n")
        #expect(codes(result) == ["yaml.recursive-alias"])
        #expect(result.diagnostics.first?.range.start.line == 2)
        #expect(result.diagnostics.first?.range.start.column == 6)
    }

    @Test func aRedefinedAnchorTakesItsLatestNode() throws {
        let root = try #require(read("a: &x 1\nb: &x 2\nc: *x\n").root)
        #expect(root["c"]?.scalar?.text == "2")
    }

    @Test func scalarsKeepEscapedNULsAndLineBreaks() throws {
        let root = try #require(read("a: \"x\\0y\\nz\"\n").root)
        #expect(root["a"]?.scalar?.text == "x\0y\nz")
    }

    @Test func syntaxErrorsCarryLibYAMLsPositionAndContext() throws {
        let result = read("a: 1\nb: [1, 2\nc: 3\n")
        let diagnostic = try #require(result.diagnostics.first)
        #expect(diagnostic.code == .yamlSyntaxError)
        #expect(diagnostic.range.start.line == 3)
        #expect(diagnostic.notes.first?.range.start == SourceLocation(line: 2, column: 4, offset: 8))
        #expect(diagnostic.message.contains("flow sequence"))
        #expect(result.root == nil)
    }

    @Test func aBadIndentIsASyntaxErrorAtItsLine() throws {
        let result = read("rules:\n  - id: a\n   then: block\n")
        #expect(codes(result) == ["yaml.syntax-error"])
        #expect(result.diagnostics.first?.range.start.line == 3)
    }

    @Test func readingDataAndStringsAgree() throws {
        let text = "a: [1, 2]\n"
        let fromData = YAMLReader().read(Data(text.utf8))
        let fromString = YAMLReader().read(text)
        #expect(fromData.root?["a"]?.sequence?.count == 2)
        #expect(fromData.root?["a"]?.range == fromString.root?["a"]?.range)
    }
}
