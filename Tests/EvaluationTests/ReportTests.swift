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

    @Test func eachEscapedCharacterIsEscapedAndItsNeighboursAreNot() {
        // Around each escaped class, the characters next to it in code, which are written as they are.
        let text = JSONValue.string("a\u{7E}\u{7F}\u{80}\u{85}\u{9F}\u{A0}\u{2027}\u{2028}\u{2029}\u{202F}"
            + "\u{FEFE}\u{FEFF}\u{FFFF}é🚀\"\\/\n\r\t\u{8}\u{C}\u{1F} \u{E2}").text
        #expect(text == "\"a~" + #"\u007f\u0080\u0085\u009f"# + "\u{A0}\u{2027}" + #"\u2028\u2029"# + "\u{202F}\u{FEFE}"
            + #"\ufeff"# + "\u{FFFF}é🚀" + #"\"\\/\n\r\t\u0008\u000c\u001f"# + " \u{E2}\"")
    }

    /// The bidirectional controls, which reorder what a terminal shows around them, are escaped; their neighbours in
    /// code are not. A JSON reader reads the same text back.
    @Test func bidirectionalControlsAreEscaped() throws {
        let controls = "\u{061C}\u{200E}\u{200F}\u{202A}\u{202B}\u{202C}\u{202D}\u{202E}"
            + "\u{2066}\u{2067}\u{2068}\u{2069}"
        let neighbours = "\u{061B}\u{061D}\u{200D}\u{2010}\u{2029}\u{202F}\u{2065}\u{206A}"
        let text = JSONValue.string("a" + controls + neighbours).text
        #expect(text == "\"a" + #"\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"#
            + "\u{061B}\u{061D}\u{200D}\u{2010}" + #"\u2029"# + "\u{202F}\u{2065}\u{206A}\"")
        let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed) as? String
        #expect(parsed == "a" + controls + neighbours)
    }

    @Test func indentedBytesPutEachItemOnALineOfItsOwn() {
        let value = JSONValue.object([
            ("a", .array([])), ("b", .object([])), ("c", .array([.int(1), .object([("d", .null), ("e", .double(0.5))])])),
        ])
        #expect(String(decoding: value.indentedBytes, as: UTF8.self) == """
            {
              "a": [],
              "b": {},
              "c": [
                1,
                {
                  "d": null,
                  "e": 0.5
                }
              ]
            }
            """)
        #expect(value.text == #"{"a": [], "b": {}, "c": [1, {"d": null, "e": 0.5}]}"#)
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
