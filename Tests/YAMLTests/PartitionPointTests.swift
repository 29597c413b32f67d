@testable import LaunchPolicy
import Testing
import TestSupport

/// The binary search lint and the launch share: the same index as a walk from the start, on lists of every length up
/// to 40 with repeated values, at every point, and on a slice whose indices do not start at zero.
@Suite struct PartitionPointTests {
    @Test func itFindsWhatAWalkFinds() {
        var random = SeededGenerator(seed: 0x5EA4C4)
        for length in 0...40 {
            let values = (0..<length).map { _ in Int.random(in: 0..<12, using: &random) }.sorted()
            for point in -1...12 {
                let expected = values.firstIndex { $0 > point } ?? values.endIndex
                #expect(values.partitionPoint { $0 > point } == expected, "\(values), past \(point)")
            }
        }
    }

    @Test func aSliceKeepsItsIndices() {
        let slice = [1, 3, 3, 5, 8, 13][2...]
        #expect(slice.partitionPoint { $0 >= 5 } == 3)
        #expect(slice.partitionPoint { $0 > 100 } == slice.endIndex)
        #expect(slice.partitionPoint { _ in true } == slice.startIndex)
        #expect([Int]().partitionPoint { _ in true } == 0)
    }
}
