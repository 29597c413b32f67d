@testable import LaunchPolicy
import Testing
import TestSupport

/// The tables a read is built in: they hold what an array would, through growth, runs copied from another table and
/// elements written over, for plain numbers and for texts, which the table must keep alive and release.
@Suite struct PlainTableTests {
    @Test func itHoldsWhatAnArrayHoldsThroughGrowth() {
        var random = SeededGenerator(seed: 0x7AB1E)
        for capacity in [1, 2, 3, 16] {
            let table = PlainTable<Int>(capacity: capacity)
            var array: [Int] = []
            for _ in 0..<200 {
                let value = Int.random(in: -1_000...1_000, using: &random)
                table.append(value)
                array.append(value)
            }
            #expect(table.count == array.count)
            #expect((0..<table.count).map { table[$0] } == array, "capacity \(capacity)")
        }
    }

    @Test func aRunFromAnotherTableIsCopied() {
        let source = PlainTable<Int>(capacity: 2)
        for value in 0..<10 { source.append(value) }
        let table = PlainTable<Int>(capacity: 1)
        table.append(-1)
        table.append(source, from: 3, to: 8)
        table.append(source, from: 5, to: 5)
        #expect((0..<table.count).map { table[$0] } == [-1, 3, 4, 5, 6, 7])
        // The source is left as it was.
        #expect((0..<source.count).map { source[$0] } == Array(0..<10))
    }

    @Test func textsLiveAsLongAsTheTable() {
        // Texts long enough to be objects of their own, which growth moves and writing over releases.
        let texts = (0..<40).map { "a text long enough to be stored in an object of its own, number \($0)" }
        let table = PlainTable<String>(capacity: 1)
        for text in texts { table.append(String(text)) }
        table[7] = "written over, " + texts[7]
        let copy = PlainTable<String>()
        copy.append(table, from: 30, to: 40)
        #expect((0..<table.count).map { table[$0] } == texts.enumerated().map { $0 == 7 ? "written over, " + $1 : $1 })
        #expect((0..<copy.count).map { copy[$0] } == Array(texts[30..<40]))
    }
}
