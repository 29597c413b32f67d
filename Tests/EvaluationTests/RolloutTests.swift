import Foundation
@testable import LaunchPolicy
import Testing

@Suite struct RolloutTests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        (String(repeating: "a", count: 1_000), "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3"),
    ])
    func sha256MatchesTheStandardVectors(message: String, hex: String) {
        let digest = SHA256.digest(Array(message.utf8))
        #expect(digest.map(SHA256.hexDigits).joined() == hex)
        #expect(digest.map { String(format: "%02x", $0) }.joined() == hex)
    }

    /// Buckets computed independently (Python's hashlib) from the documented definition.
    @Test(arguments: [
        ("rollout-5", "install-0001", 5860),
        ("rollout-5", "6F1C2A9E-0B7D-4C1E-9A53-2D8E4F6A7B10", 6390),
        ("new-onboarding", "install-0001", 783),
        ("r", "", 568),
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
