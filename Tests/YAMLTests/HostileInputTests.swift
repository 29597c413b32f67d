import Foundation
import LaunchPolicy
import Testing

/// Inputs built to hurt a parser. Each must be refused by a limit, at the right place, having done no more work than
/// the limit allows. Work is measured in events pulled from libyaml, which is deterministic, rather than in time.
@Suite struct HostileInputTests {
    /// Counts the events the reader pulls before it stops, and returns the diagnostic that stopped it.
    private func eventsPulled(_ bytes: [UInt8], limits: YAMLLimits = .default) -> (count: Int, stop: Diagnostic?) {
        let (_, stop, count) = suiteEvents(bytes, limits: limits)
        return (count, stop)
    }

    @Test func billionLaughsIsRefusedWithoutExpandingAnything() throws {
        var lines = ["a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]"]
        let names = Array("abcdefghi")
        for level in 1..<9 {
            let previous = names[level - 1]
            let aliases = Array(repeating: "*\(previous)", count: 9).joined(separator: ",")
            lines.append("\(names[level]): &\(names[level]) [\(aliases)]")
        }
        let text = lines.joined(separator: "\n") + "\n"
        #expect(text.utf8.count < 500)
        let result = read(text)
        #expect(codes(result) == ["yaml.alias-budget-exceeded"])
        // a=10, b=91, c=820, d=7381, e=66430 nodes: the first *e inside f passes 100,000.
        let diagnostic = try #require(result.diagnostics.first)
        #expect(diagnostic.range.start.line == 6)
        #expect(diagnostic.range.start.column == 8)
        #expect(result.root == nil)
    }

    @Test func theAliasBudgetCountsExactly() {
        // 1 root mapping + 2 keys + anchored sequence (1 + 3) + alias (4) = 11 nodes.
        let text = "a: &s [1, 2, 3]\nb: *s\n"
        #expect(read(text, limits: YAMLLimits(maximumExpandedNodes: 11)).diagnostics.isEmpty)
        #expect(codes(read(text, limits: YAMLLimits(maximumExpandedNodes: 10))) == ["yaml.alias-budget-exceeded"])
        // A document of many nodes and no alias meets the same budget; the message says so without blaming aliases.
        let plain = read("[1, 2, 3, 4]", limits: YAMLLimits(maximumExpandedNodes: 4))
        #expect(plain.diagnostics.map(\.message)
            == ["the document has more than 4 nodes, counting each alias as the nodes it stands for"])
    }

    @Test func deepFlowNestingIsRefusedAtTheLimit() throws {
        let bytes = [UInt8](repeating: UInt8(ascii: "["), count: 100_000)
        let (count, stop) = eventsPulled(bytes)
        let diagnostic = try #require(stop)
        #expect(diagnostic.code == .yamlTooDeep)
        #expect(diagnostic.range.start == SourceLocation(line: 1, column: 65, offset: 64))
        // Stream start, document start and 64 sequence starts: nothing more was pulled from libyaml.
        #expect(count == 66)
        #expect(codes(read(bytes: bytes)) == ["yaml.too-deep"])
    }

    @Test func deepBlockNestingIsRefusedAtTheLimit() throws {
        var text = ""
        for level in 0..<3_000 {
            text += String(repeating: " ", count: level) + "k:\n"
        }
        // 4.5 MB: raise the input limit so that the depth limit is the one that stops it.
        let (count, stop) = eventsPulled(Array(text.utf8), limits: YAMLLimits(maximumInputBytes: 8 << 20))
        let diagnostic = try #require(stop)
        #expect(diagnostic.code == .yamlTooDeep)
        #expect(diagnostic.range.start.line == 65)
        #expect(diagnostic.range.start.column == 65)
        #expect(count < 200)
    }

    @Test func nestingExactlyAtTheLimitIsAccepted() {
        let depth = 64
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(read(text).diagnostics.isEmpty)
        #expect(codes(read("[" + text + "]")) == ["yaml.too-deep"])
        #expect(read("[" + text + "]", limits: YAMLLimits(maximumDepth: 65)).diagnostics.isEmpty)
    }

    /// A chain of anchors, each a flow sequence holding an alias of the one before, as items of one sequence: written
    /// two levels deep, the item `&cK` nests K levels.
    private func anchorChain(_ length: Int) -> String {
        var lines = ["- &c1 [x]"]
        for level in 2...length { lines.append("- &c\(level) [*c\(level - 1)]") }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func anAliasNestsWhatItStandsForWhereItIsWritten() throws {
        // The root sequence is one level; `&c63 [*c62]` nests 1 + 63 levels, the limit, and `&c64 [*c63]` one more.
        #expect(read(anchorChain(63)).diagnostics.isEmpty)
        let result = read(anchorChain(64))
        #expect(codes(result) == ["yaml.too-deep"])
        let diagnostic = try #require(result.diagnostics.first)
        #expect(diagnostic.range.start == SourceLocation(line: 64, column: 9, offset: 869))
        #expect(diagnostic.message == "the alias *c63 stands for sequences and mappings 63 levels deep, which here "
            + "nest more than 64 levels deep")
        #expect(result.root == nil)
    }

    @Test func aChainOfAliasesCannotNestPastTheLimitInASmallFile() throws {
        // 2,000 levels in 34 KB, each alias well within the alias budget: refused where the chain passes the limit,
        // not handed to the decoder and the evaluator, which recurse through every level.
        let text = anchorChain(2_000)
        #expect(text.utf8.count < 40_000)
        let result = read(text)
        #expect(codes(result) == ["yaml.too-deep"])
        #expect(try #require(result.diagnostics.first).range.start.line == 64)
    }

    @Test func theDepthAnAliasReachesDependsOnWhereItIsWritten() {
        // The same alias, of a node three levels deep: at the top it reaches depth 4, in two more sequences depth 6.
        let text = "a: &deep [[[x]]]\nb: *deep\nc: [[*deep]]\n"
        let limits = YAMLLimits(maximumDepth: 5)
        #expect(codes(read("a: &deep [[[x]]]\nb: *deep\n", limits: limits)).isEmpty)
        #expect(codes(read(text, limits: limits)) == ["yaml.too-deep"])
        #expect(codes(read(text, limits: YAMLLimits(maximumDepth: 6))).isEmpty)
        // A scalar adds no level, wherever its alias is written.
        #expect(codes(read("a: &s x\nb: [[[[*s]]]]\n", limits: limits)).isEmpty)
    }

    @Test func aThirtyMegabyteScalarIsRefusedByTheInputLimitBeforeParsing() throws {
        let bytes = Array("k: ".utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: 30 << 20)
        let (count, stop) = eventsPulled(bytes)
        #expect(count == 0)
        let diagnostic = try #require(stop)
        #expect(diagnostic.code == .yamlInputTooLarge)
        #expect(diagnostic.range.start == SourceLocation(line: 1, column: (1 << 20) + 1, offset: 1 << 20))
    }

    /// Source positions are 32-bit numbers; a limit set past what they hold still refuses what they cannot hold,
    /// and a location made from numbers out of their range keeps the nearest it can.
    @Test func positionsHoldEveryInputTheLimitsLetThrough() {
        #expect(YAMLLimits.largestInputBytes < Int(UInt32.max))
        let unlimited = YAMLLimits(maximumInputBytes: .max)
        #expect(read("a: 1\n", limits: unlimited).diagnostics.isEmpty)
        let far = SourceLocation(line: Int.max, column: -3, offset: 1 << 40)
        #expect(far.line == Int(UInt32.max))
        #expect(far.column == 0)
        #expect(far.offset == Int(UInt32.max))
        var moved = SourceLocation(line: 2, column: 9, offset: 15)
        moved.offset += 1
        moved.line = 1 << 33
        #expect(moved == SourceLocation(line: Int(UInt32.max), column: 9, offset: 16))
        #expect(SourceLocation(line: 3_000_000_000, column: 7, offset: 4_000_000_000).offset == 4_000_000_000)
    }

    @Test func aThirtyMegabyteScalarIsRefusedByTheScalarLimitWhenTheInputLimitAllowsIt() throws {
        let bytes = Array("k: ".utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: 30 << 20)
        let result = read(bytes: bytes, limits: YAMLLimits(maximumInputBytes: 64 << 20))
        #expect(codes(result) == ["yaml.scalar-too-long"])
        #expect(result.diagnostics.first?.range.start == SourceLocation(line: 1, column: 4, offset: 3))
    }

    @Test func theScalarLimitIsInclusive() {
        let limits = YAMLLimits(maximumScalarBytes: 8)
        #expect(read("k: \"12345678\"", limits: limits).diagnostics.isEmpty)
        #expect(codes(read("k: \"123456789\"", limits: limits)) == ["yaml.scalar-too-long"])
    }

    @Test func aTwentyMegabyteFileIsRefusedBeforeItBecomesNodes() throws {
        let line = Array("- item\n".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(20 << 20)
        while bytes.count < 20 << 20 { bytes += line }
        let (count, stop) = eventsPulled(bytes)
        #expect(count == 0)
        let diagnostic = try #require(stop)
        #expect(diagnostic.code == .yamlInputTooLarge)
        // Byte 1 MiB lies on line 1 MiB / 7 + 1.
        #expect(diagnostic.range.start.line == (1 << 20) / 7 + 1)
        #expect(diagnostic.message.contains("\(bytes.count) bytes"))
    }

    @Test func theInputLimitIsInclusive() {
        let text = "k: v\n"
        #expect(read(text, limits: YAMLLimits(maximumInputBytes: 5)).diagnostics.isEmpty)
        #expect(codes(read(text, limits: YAMLLimits(maximumInputBytes: 4))) == ["yaml.input-too-large"])
    }

    @Test func manyAliasesOfABigScalarAsKeysStopAtTheDuplicateCap() {
        let big = String(repeating: "x", count: 60_000)
        var text = "a: &k \(big)\nm:\n"
        for index in 0..<10_000 { text += "  *k : \(index)\n" }
        let result = read(text, limits: YAMLLimits(maximumInputBytes: 4 << 20))
        #expect(result.diagnostics.last?.code == .yamlTooManyErrors)
        #expect(result.diagnostics.count == 51)
    }
}
