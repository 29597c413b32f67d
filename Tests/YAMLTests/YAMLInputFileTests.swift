import Foundation
import LaunchPolicy
import Testing
import TestSupport

/// Files read for the reader: never further than one byte past its limit.
@Suite struct YAMLInputFileTests {
    @Test func aFileOverTheLimitIsHeldOnlyToOneBytePastItAndRefusedWithItsWholeSize() throws {
        let folder = try makeTemporaryFolder("input-file")
        defer { try? FileManager.default.removeItem(at: folder) }
        let limits = YAMLLimits(maximumInputBytes: 100)
        let url = folder.appendingPathComponent("big.yaml")
        try Data(("a: 1\n" + String(repeating: "b", count: 5_000)).utf8).write(to: url)
        let file = try YAMLInputFile(contentsOf: url, limits: limits)
        #expect(file.bytes.count == 101)
        let tooLarge = try #require(file.tooLarge)
        #expect(tooLarge.code == .yamlInputTooLarge)
        #expect(tooLarge.message == "the input is 5005 bytes, more than the limit of 100 bytes")
        #expect(tooLarge.range.start == SourceLocation(line: 2, column: 96, offset: 100))

        // At the limit exactly, the whole file is read and nothing is said.
        try Data(String(repeating: "c", count: 100).utf8).write(to: url)
        let fits = try YAMLInputFile(contentsOf: url, limits: limits)
        #expect(fits.bytes.count == 100 && fits.tooLarge == nil)

        #expect(throws: (any Error).self) {
            try YAMLInputFile(contentsOf: folder.appendingPathComponent("none.yaml"), limits: limits)
        }
    }

    #if os(Linux)
    @Test func aStreamWithNoEndIsReadToTheLimitAndItsSizeNotGuessed() throws {
        // /dev/zero never ends and has no size: before, `launch-policy eval /dev/zero` read until memory ran out.
        let limits = YAMLLimits(maximumInputBytes: 1_000)
        let file = try YAMLInputFile(contentsOf: URL(fileURLWithPath: "/dev/zero"), limits: limits)
        #expect(file.bytes.count == 1_001)
        #expect(file.tooLarge?.message == "the input is more than the limit of 1000 bytes")
    }
    #endif
}
