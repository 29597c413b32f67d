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

    /// Written in pieces, a value is its text, handed on once a piece is full and only at the end of an item: longer
    /// than the piece's size by at most that item's text.
    @Test func aValueWrittenInPiecesIsItsText() {
        let long = String(repeating: "é\"x", count: 40)
        let value = JSONValue.object([
            ("texts", .array((0..<30).map { .string("\(long)\($0)") })),
            ("nested", .array([.object([("a", .array([.int(1), .null, .double(0.25)]))]), .array([]), .object([])])),
            ("last", .string(long)),
        ])
        // The longest item's text, with what comes before the first item.
        let longestItem = JSONValue.string(long + "29").text.utf8.count + #"{"texts": ["#.utf8.count
        for pieceSize in [1, 10, 1_000, 1 << 16] {
            var pieces: [[UInt8]] = []
            value.write(inPiecesOf: pieceSize) { pieces.append($0) }
            #expect(String(decoding: pieces.joined(), as: UTF8.self) == value.text, "\(pieceSize)")
            #expect(pieces.dropLast().allSatisfy { $0.count >= pieceSize }, "\(pieceSize)")
            #expect(pieces.allSatisfy { $0.count < pieceSize + longestItem }, "\(pieceSize)")
            let fewest = pieceSize == 1 << 16 ? 1 : value.text.utf8.count / (pieceSize + longestItem) + 1
            #expect(pieces.count >= fewest && (pieceSize < 1 << 16 || pieces.count == 1), "\(pieceSize)")
        }
        var empty: [[UInt8]] = []
        JSONValue.array([]).write { empty.append($0) }
        #expect(empty == [Array("[]".utf8)])
    }

    /// An array written from a sequence makes each item as it is written: the first piece is handed on before the
    /// sequence has made its last item.
    @Test func anArrayIsWrittenAsItsItemsAreMade() {
        var made = 0
        var madeAtFirstPiece: Int?
        var pieces: [[UInt8]] = []
        let item = { (index: Int) -> JSONValue in
            .object([("rule", .string("r\(index)")), ("description", .string(String(repeating: "w", count: 50)))])
        }
        let items = (0..<100).lazy.map { index -> JSONValue in
            made += 1
            return item(index)
        }
        JSONValue.write(arrayOf: items, inPiecesOf: 200) { piece in
            if madeAtFirstPiece == nil { madeAtFirstPiece = made }
            pieces.append(piece)
        }
        #expect(madeAtFirstPiece == 3)
        #expect(made == 100)
        #expect(String(decoding: pieces.joined(), as: UTF8.self) == JSONValue.array((0..<100).map(item)).text)
        var empty: [[UInt8]] = []
        JSONValue.write(arrayOf: EmptyCollection<JSONValue>()) { empty.append($0) }
        #expect(empty == [Array("[]".utf8)])
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

/// A decision's report written line by line: no write holds more than a line, however many lines quote a long text.
@Suite struct DecisionReportWritingTests {
    private struct Writes: TextOutputStream {
        var texts: [String] = []
        mutating func write(_ string: String) { texts.append(string) }
    }

    @Test func theReportIsWrittenALineAtATime() throws {
        let text = String(repeating: "Update now. ", count: 100) + "\\a"
        let rules = (0..<200).map { "  - {id: r\($0), then: notify, message: m}" }.joined(separator: "\n")
        let decision = try policy("""
            policy: 1
            messages:
              m: {default: "\(text)"}
            rules:
            \(rules)
            """).evaluate(try LaunchContext(platform: .ios))
        #expect(decision.notices.count == 200)
        var writes = Writes()
        decision.writeReport(to: &writes)
        // A line for each notice and for each other section, a blank line, the explanation's title, a line a rule.
        #expect(writes.texts.count == 200 + 4 + 2 + 200)
        #expect(writes.texts.allSatisfy { $0.utf8.count < text.utf8.count + 40 })
        let report = writes.texts.joined()
        #expect(report == decision.report)
        #expect(report.hasPrefix("gate          none\nprompts       none\nnotices       notify by r0: \"Update now."))
        // The bell written visibly, as every line of the report is.
        #expect(report.contains("Update now. \u{2407}\"\n              notify by r1: "))
        #expect(report.hasSuffix("\n  r199  line 204  matches: shows its message"))
    }
}
