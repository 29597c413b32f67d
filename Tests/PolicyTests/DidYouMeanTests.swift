import Foundation
@testable import LaunchPolicy
import Testing
import TestSupport

/// The suggestions of misspelt names: the same answers as the whole table of edit distances gives, without filling
/// it for names too far from the word in length to be suggested.
@Suite struct DidYouMeanTests {
    /// The edit distance as the table is defined, filled whole: the reference the rows-at-a-time version must match.
    private func distanceByTable(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in stride(from: 1, through: a.count, by: 1) {
            for j in stride(from: 1, through: b.count, by: 1) {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }

    /// The nearest name by the whole table, every name compared.
    private func nearestByTable(to word: String, in names: [String]) -> String? {
        var best: (name: String, distance: Int)?
        for name in names {
            let distance = distanceByTable(Array(word.lowercased().unicodeScalars),
                Array(name.lowercased().unicodeScalars))
            if distance < (best?.distance ?? Int.max) { best = (name, distance) }
        }
        guard let best, best.distance <= max(1, min(3, word.count / 3)) else { return nil }
        return best.name
    }

    @Test func knownDistances() {
        let cases: [(String, String, Int)] = [
            ("", "", 0), ("", "abc", 3), ("abc", "", 3), ("first", "frist", 1), ("platform", "platfrom", 1),
            ("kitten", "sitting", 3), ("ab", "ba", 1), ("abc", "ca", 3), ("é", "e", 1),
            ("lint.lockot", "lint.lockout", 1),
        ]
        for (a, b, expected) in cases {
            #expect(DidYouMean.editDistance(Array(a.unicodeScalars), Array(b.unicodeScalars)) == expected, "\(a) \(b)")
        }
    }

    /// Random words over a small alphabet, so that swaps and near misses are common, against names of every length.
    @Test func theSameAnswersAsTheWholeTable() {
        var generator = SeededGenerator(seed: 20_261_123)
        let alphabet = Array("abcde-.".unicodeScalars)
        func word(_ length: Int) -> String {
            String(String.UnicodeScalarView((0..<length).map { _ in alphabet.randomElement(using: &generator)! }))
        }
        for _ in 0..<3_000 {
            let a = word(Int.random(in: 0...9, using: &generator)), b = word(Int.random(in: 0...9, using: &generator))
            #expect(DidYouMean.editDistance(Array(a.unicodeScalars), Array(b.unicodeScalars))
                == distanceByTable(Array(a.unicodeScalars), Array(b.unicodeScalars)), "\(a) \(b)")
        }
        for _ in 0..<2_000 {
            let names = (0..<Int.random(in: 1...8, using: &generator)).map { _ in
                word(Int.random(in: 1...12, using: &generator))
            }
            let written = Bool.random(using: &generator)
                ? word(Int.random(in: 0...16, using: &generator))
                : String(names.randomElement(using: &generator)!.shuffled(using: &generator).prefix(10))
            #expect(DidYouMean.nearest(to: written, in: names) == nearestByTable(to: written, in: names),
                "\(written) in \(names)")
        }
    }

    @Test func aLongWordIsNotNearAnyName() {
        let names = PolicyLanguage.contextKeys
        #expect(DidYouMean.nearest(to: String(repeating: "platform", count: 8_000), in: names) == nil)
        #expect(DidYouMean.nearest(to: "app-verison", in: names) == "app-version")
        // Three edits are the most a suggestion takes, so a word three letters longer than a name is still near it.
        #expect(DidYouMean.nearest(to: "platformxyz", in: names) == "platform")
        #expect(DidYouMean.nearest(to: "platformwxyz", in: names) == nil)
    }
}
