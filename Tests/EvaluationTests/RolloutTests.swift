import Foundation
@testable import LaunchPolicy
import TestSupport
import Testing

@Suite struct RolloutTests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        (String(repeating: "a", count: 1_000), "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3"),
        // Every way the padding can fall: one tail block, two, and none but whole blocks.
        (String(repeating: "a", count: 55), "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
        (String(repeating: "a", count: 56), "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
        (String(repeating: "a", count: 63), "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"),
        (String(repeating: "a", count: 64), "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
        (String(repeating: "a", count: 65), "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"),
        (String(repeating: "a", count: 119), "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"),
        (String(repeating: "a", count: 120), "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c"),
        (String(repeating: "a", count: 128), "6836cf13bac400e9105071cd6af47084dfacad4e5e302c94bfed24e013afb73e"),
    ])
    func sha256MatchesTheStandardVectors(message: String, hex: String) {
        let digest = SHA256.digest(Array(message.utf8))
        #expect(digest.map { String(format: "%02x", $0) }.joined() == hex)
        // Both block functions, the processor's where it has one.
        for hardware in SHA256.hardwareCompresses ? [false, true] : [false] {
            let words = Array(message.utf8).withUnsafeBytes { SHA256.words(of: $0, hardware: hardware) }
            #expect(Self.list(words).map(SHA256.hex).joined() == hex, "hardware: \(hardware)")
        }
    }

    private static func list(_ words: SHA256.State) -> [UInt32] {
        [words.0, words.1, words.2, words.3, words.4, words.5, words.6, words.7]
    }

    /// The processor's block function (CSHA256) against the Swift one, on messages of every length up to five
    /// blocks, so that every place of the padding and runs of several whole blocks are covered.
    @Test(.enabled(if: SHA256.hardwareCompresses,
        "this processor has no SHA instructions: only the Swift block function runs"))
    func theProcessorsBlockFunctionGivesTheSameDigests() {
        var random = SeededGenerator(seed: 256)
        for length in 0...320 {
            let message = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            let swift = message.withUnsafeBytes { SHA256.words(of: $0, hardware: false) }
            let processor = message.withUnsafeBytes { SHA256.words(of: $0, hardware: true) }
            #expect(Self.list(swift) == Self.list(processor), "length \(length)")
        }
    }

    /// Buckets computed independently (Python's hashlib) from the documented definition.
    @Test(arguments: [
        ("rollout-5", "install-0001", 5860),
        ("rollout-5", "6F1C2A9E-0B7D-4C1E-9A53-2D8E4F6A7B10", 6390),
        ("new-onboarding", "install-0001", 783),
        ("r", "", 568),
        ("", "install-0001", 9635),
        ("règle", "ü-1", 8957),
    ])
    func bucketsAreTheDocumentedHash(rule: String, install: String, bucket: Int) {
        #expect(Rollout.bucket(installID: install, ruleID: rule) == bucket)
    }

    @Test func aQuarterOfTenThousandInstallsLandsWithinTwentyThreeToTwentySevenPercent() throws {
        let policy = try policy("""
            policy: 1
            messages: {m: {default: "m"}}
            rules:
              - {id: quarter, when: {rollout: "25%"}, then: notify, message: m}
              - {id: other-quarter, when: {rollout: "25%"}, then: notify, message: m}
            """)
        var counts = ["quarter": 0, "other-quarter": 0]
        var both = 0
        for index in 0..<10_000 {
            let decision = policy.evaluate(try LaunchContext(installID: "install-\(index)"))
            for notice in decision.notices { counts[notice.rule, default: 0] += 1 }
            if decision.notices.count == 2 { both += 1 }
        }
        for (rule, count) in counts {
            #expect((2_300...2_700).contains(count), "\(rule): \(count) of 10,000")
        }
        // Each rule draws its own buckets: the two quarters overlap about as independent draws would (6.25 %).
        #expect((400...850).contains(both), "\(both) installs in both")
    }

    @Test func raisingThePercentageOnlyAddsInstalls() {
        for index in 0..<2_000 {
            let bucket = Rollout.bucket(installID: "id-\(index)", ruleID: "staged")
            if Rollout.includes(bucket: bucket, percentage: 10) {
                #expect(Rollout.includes(bucket: bucket, percentage: 10.5))
                #expect(Rollout.includes(bucket: bucket, percentage: 100))
            }
            #expect(!Rollout.includes(bucket: bucket, percentage: 0))
        }
    }

    @Test func theSameInstallGetsTheSameAnswerEveryLaunch() throws {
        let policy = try policy("""
            policy: 1
            messages: {m: {default: "m"}}
            rules: [{id: staged, when: {rollout: "50%"}, then: notify, message: m, show: every-launch}]
            """)
        for index in 0..<200 {
            let id = "device-\(index)"
            let first = policy.evaluate(try LaunchContext(installID: id)).notices.isEmpty
            let again = policy.evaluate(try LaunchContext(platform: .android, installID: id)).notices.isEmpty
            #expect(first == again)
            #expect(first == (Rollout.bucket(installID: id, ruleID: "staged") >= 5_000))
        }
        let withoutID = policy.evaluate(try LaunchContext())
        #expect(withoutID.notices.isEmpty)
        #expect(withoutID.explanation[0].summary == "does not match: install-id is not in the context, so no rollout includes it")
    }
}
