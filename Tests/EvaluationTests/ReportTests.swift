import Foundation
@testable import LaunchPolicy
import Testing

@Suite struct JSONValueTests {
    @Test func stringsAreEscapedSoThatAnyJSONParserReadsThemBack() throws {
        let awkward = "quote \" backslash \\ slash / newline \n tab \t return \r bell \u{07} nul \u{0} "
            + "separators \u{2028}\u{2029} emoji 🚀 kana カナ, a quote with an accent \"\u{301} and a line end \r\n"
        let text = JSONValue.object([("key \"1\"", .string(awkward)), ("list", .array([.int(-3), .bool(true), .null]))]).text
        #expect(!text.contains("\n"), "one line")
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(parsed["key \"1\""] as? String == awkward)
        #expect((parsed["list"] as? [Any])?.count == 3)
        #expect(text.contains(#"\u0007"#) && text.contains(#"\u0000"#) && text.contains(#"\u2028"#))
    }

    @Test func objectsKeepTheirKeyOrder() {
        #expect(JSONValue.object([("b", .int(1)), ("a", .string(nil))]).text == #"{"b": 1, "a": null}"#)
    }
}

@Suite struct ExplanationLengthTests {
    @Test func longCombinationsAreCappedSoExplanationsStayReadable() throws {
        let alternatives = (0..<60).map { "{attributes: {tier\($0): gold}}" }.joined(separator: ", ")
        let policy = try policy("""
            policy: 1
            messages: {m: {default: "m"}}
            rules:
              - id: r
                when: {not: {any: [\(alternatives)]}, platform: ios}
                then: notify
                message: m
              - id: s
                when: {any: [\(alternatives)]}
                then: notify
                message: m
            """)
        let decision = policy.evaluate(try LaunchContext(platform: .ios))
        guard case .notMatched(let finding) = decision.explanation(of: "s")?.outcome else {
            Issue.record("no attribute is set, so s cannot match")
            return
        }
        #expect(finding.message.count == ConditionFinding.maximumMessageLength)
        #expect(finding.message.hasPrefix("none of the 60 alternatives of any holds: attribute tier0 is not in the context"))
        #expect(finding.message.hasSuffix("…"))
        #expect(decision.explanation(of: "r")?.matched == true)
    }
}
