import Foundation
@testable import LaunchPolicy
import Testing
import TestSupport

/// Files made to exhaust memory or time through the diagnostics they cause: each found by building one, not by the
/// fuzzer, whose inputs are at most 64 KiB and random.
@Suite struct HostilePolicyTests {
    /// A 60 KB locale tag under an anchor, and 40,000 aliases of it: 220 KB of YAML.
    private static let aliasedValue: String = {
        let value = String(repeating: "x", count: 60_000)
        return """
            policy: 1
            id: aliases
            messages: {m: {default: "Hi."}}
            rules:
              - id: r
                when:
                  locale: [&a "\(value)", \(Array(repeating: "*a", count: 40_000).joined(separator: ", "))]
                then: block
                message: m

            """
    }()

    @Test func aValueQuotedAtEachOfItsAliasesMakesBoundedDiagnostics() throws {
        // Before, each of the 40,001 uses gave an error quoting all 60 KB: 2.4 GB of messages, in an app at launch.
        let result = YAMLPolicyParser().parse(Data(Self.aliasedValue.utf8))
        #expect(result.usablePolicy == nil)
        #expect(result.diagnostics.count == DecodingSupport.maximumReported + 1)
        #expect(result.diagnostics.filter { $0.code == .policyTooManyProblems }.map(\.message)
            == ["more than 500 problems; the rest are not reported"])
        #expect(result.diagnostics.allSatisfy { $0.message.utf8.count <= Diagnostic.maximumMessageLength })
        let invalid = try #require(result.diagnostics.first { $0.code == .policyInvalidValue })
        #expect(invalid.message.hasPrefix("\"xxxx"))
        #expect(invalid.message.hasSuffix("xxx\" is not a language tag such as ja or pt-BR"))
    }

    @Test func aLaunchGateConfigurationReportsNoMoreProblemsThanAPolicy() {
        let unknown = (0..<2_000).map { "\"k\($0)\": 1" }.joined(separator: ", ")
        let json = "{\"ios\": {\"requiredUpdate\": {\"minimumVersion\": \"2.0\", \"message\": \"m\"}, \(unknown)}}"
        let result = AutomaticPolicyParser(expectsLaunchGateJSON: true).parse(Data(json.utf8))
        #expect(result.format == .launchGate)
        #expect(result.diagnostics.count == DecodingSupport.maximumReported + 1)
        #expect(result.diagnostics.filter { $0.code == .compatUnknownKey }.count == DecodingSupport.maximumReported)
        #expect(result.diagnostics.last?.code == .policyTooManyProblems)
    }

    /// Unknown keys past the problems reported get no suggestion worked out (each looked for its mapping through the
    /// tree), and the first of them is still where the error that says the rest are not reported points.
    @Test func unknownKeysPastTheReportedProblemsStillEndTheReport() throws {
        let keys = (0..<600).map { "    whne\($0): 1" }.joined(separator: "\n")
        let result = YAMLPolicyParser().parse(Data("""
            policy: 1
            messages: {m: {default: "Hi."}}
            rules:
              - id: r
                then: notify
                message: m
            \(keys)
            """.utf8))
        #expect(result.diagnostics.count == DecodingSupport.maximumReported + 1)
        let last = try #require(result.diagnostics.last)
        #expect(last.code == .policyTooManyProblems)
        #expect(last.range.start.line == 7 + DecodingSupport.maximumReported)
        let reported = result.diagnostics.dropLast()
        #expect(reported.allSatisfy { $0.code == .policyUnknownKey })
        #expect(reported.last?.message.hasPrefix("a rule has no key \"whne499\"; known keys: id, when, then") == true)
    }

    @Test func aLongMessageKeepsItsStartAndEndAndWholeScalars() {
        let start = "the value \"" + String(repeating: "é", count: 700)
        let end = String(repeating: "🦄", count: 300) + "\" is not a language tag"
        let bounded = Diagnostic.error("test.code", start + end, at: .wholeInputStart).message
        #expect(bounded.utf8.count <= Diagnostic.maximumMessageLength)
        #expect(bounded.hasPrefix("the value \"éé"))
        #expect(bounded.hasSuffix("🦄🦄\" is not a language tag"))
        #expect(bounded.contains("é … 🦄"))
        #expect(!bounded.unicodeScalars.contains("\u{FFFD}"))
        // At the limit a message is kept whole; notes are bounded as messages are.
        let exact = String(repeating: "a", count: Diagnostic.maximumMessageLength)
        #expect(Diagnostic.error("test.code", exact, at: .wholeInputStart).message == exact)
        #expect(Diagnostic.Note(message: exact + "b", range: .wholeInputStart).message.utf8.count
            <= Diagnostic.maximumMessageLength)
        #expect(Diagnostic.quoted("short") == "\"short\"")
        #expect(Diagnostic.quoted(String(repeating: "ü", count: 61))
            == "\"" + String(repeating: "ü", count: 60) + "…\"")
    }

    /// The node of `key` in a one-line mapping.
    private func node(_ yaml: String, _ key: String = "k") throws -> YAMLNode {
        try #require(YAMLReader().read(yaml).root?[key])
    }

    @Test func aPositionInsideAScalarIsFoundByItsBytes() throws {
        // ASCII: as many columns as bytes.
        let plain = DecodingSupport.range(inside: try node("k: 1.2 || 3\n"), position: 7, length: 1)
        #expect(plain.start == SourceLocation(line: 1, column: 11, offset: 10))
        #expect(plain.end == SourceLocation(line: 1, column: 12, offset: 11))
        // Two-byte scalars before the position: columns count scalars, offsets bytes.
        let accented = DecodingSupport.range(inside: try node("k: \"éé 1.2 || 3\"\n"), position: 3, length: 3)
        #expect(accented.start == SourceLocation(line: 1, column: 8, offset: 9))
        #expect(accented.end == SourceLocation(line: 1, column: 11, offset: 12))
        // Past the end: clamped to it.
        let past = DecodingSupport.range(inside: try node("k: \"é1\"\n"), position: 5, length: 2)
        #expect(past.start == SourceLocation(line: 1, column: 7, offset: 7) && past.end == past.start)
        // Written otherwise than it reads (an escape, a doubled quote): the whole scalar. Before, an escape that
        // decodes to no backslash (\x41) moved every position after it.
        for yaml in ["k: \"\\x41 1.2\"\n", "k: 'it''s 1.2'\n", "k: \"a\\\\b 1.2\"\n"] {
            let whole = try node(yaml)
            #expect(DecodingSupport.range(inside: whole, position: 4, length: 3) == whole.range, "\(yaml)")
        }
    }
}
