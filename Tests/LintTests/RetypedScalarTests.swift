import Foundation
import LaunchPolicy
import Testing

/// Unquoted values other YAML tools would change, and the quoting fix-it.
@Suite struct RetypedScalarTests {
    @Test(arguments: [
        ("1.10", "the number 1.1"), ("no", "the boolean false"), ("NO", "the boolean false"), ("Yes", "the boolean true"),
        ("on", "the boolean true"), ("010", "the number 8"), ("08", "the number 8"), ("1e3", "the number 1000"),
        ("2.50", "the number 2.5"), (".5", "the number 0.5"), ("+1", "the number 1"), ("1_000", "the number 1000"),
        ("0x1F", "the number 31"), ("0o17", "the number 15"), ("1:30", "the number 90"), ("~", "null"),
        ("True", "the boolean true"), ("1.", "the number 1"), ("NULL", "null"), ("Null", "null"), ("OFF", "the boolean false"),
        ("y", "the boolean true"), ("N", "the boolean false"), ("_1.5", "the number 1.5"), ("-010", "the number -8"),
        ("FALSE", "the boolean false"), ("False", "the boolean false"),
    ])
    func valuesOtherToolsChange(text: String, reading: String) {
        #expect(YAMLImplicitTyping.changedReading(of: text) == reading)
    }

    @Test(arguments: [
        "2.4", "2.0", "12", "0", "true", "false", "null", "1.2.3", "< 2.4", "ios", "pt-BR", "2026-12-01", "12h", "25%",
        "-", "e5", "1e", "", "x.10", "123456789012345678901234567890", "E1", "~x", "nope", "Thanks", "offline", "then",
        "Yes please", "null", "Nil", "onward", "yEs", "TrUe", "oFF", "fALSE",
    ])
    func valuesThatComeBackAsWritten(text: String) {
        #expect(YAMLImplicitTyping.changedReading(of: text) == nil, "\(text)")
    }

    @Test func anUnquotedValueIsAnErrorWithAQuotingFixIt() throws {
        let diagnostics = lint("""
            policy: 1
            messages: {hi: {default: "Hi.", no: "Hei."}}
            rules:
              - id: norway
                when: {region: NO, app-version: 1.10}
                then: notify
                message: hi
            """)
        let found = findings(.lintRetypedScalar, diagnostics)
        #expect(found.map(\.range.start.line) == [2, 5, 5])
        #expect(found.map(\.range.start.column) == [33, 20, 37])
        #expect(found.allSatisfy { $0.severity == .error })
        let fixIt = try #require(found.last?.fixIt)
        #expect(fixIt.replacement == "\"1.10\"")
        #expect(fixIt.range.start.column == 37 && fixIt.range.end.column == 41)
        #expect(found[0].message.contains("unquoted key no as the boolean false"))
    }

    @Test func quotedOrTaggedValuesNumericSettingsAndJSONAreLeftAlone() {
        // A tag tells every YAML tool how to read the value, as quotes do.
        let diagnostics = lint("""
            policy: 01
            messages: {hi: {default: "Hi.", "no": "Hei."}}
            rules:
              - id: norway
                when: {region: "NO", app-version: '1.10', rollout: 12.50, build: !!str 010, os-version: !!str 1.10}
                then: notify
                message: hi
            """)
        #expect(findings(.lintRetypedScalar, diagnostics).isEmpty, "\(diagnostics.map(\.description))")
        let json = PolicyLinter(now: lintNow).lint(Array("""
            {"ios": {"requiredUpdate": {"minimumVersion": "1.10", "message": "Update."}}}
            """.utf8), path: "config.json")
        #expect(json.diagnostics.isEmpty)
    }

    @Test func aValueReachedThroughAnAliasIsReportedOnce() {
        let diagnostics = lint("""
            policy: 1
            messages: {hi: {default: "Hi."}}
            rules:
              - id: a
                when: &cond {app-version: 1.10}
                then: notify
                message: hi
              - id: b
                when: *cond
                then: notify
                message: hi
            """)
        #expect(findings(.lintRetypedScalar, diagnostics).count == 1)
    }
}
