import Foundation
import LaunchPolicy
import Testing

/// The time the checks compare date windows with in these tests.
let lintNow = Date(timeIntervalSince1970: 1_795_176_000)  // 2026-11-20T12:00:00Z

/// The diagnostics policy-lint reports for a policy written in YAML.
func lint(
    _ yaml: String, path: String = "policy.yaml", configuration: LintConfiguration = LintConfiguration(),
    now: Date = lintNow
) -> [Diagnostic] {
    PolicyLinter(configuration: configuration, now: now).lint(Array(yaml.utf8), path: path).diagnostics
}

/// The diagnostics with one code.
func findings(_ code: DiagnosticCode, _ diagnostics: [Diagnostic]) -> [Diagnostic] {
    diagnostics.filter { $0.code == code }
}

/// Expects exactly one diagnostic with `code`, at `line`:`column`, with `severity`; returns it.
@discardableResult
func expectOne(
    _ code: DiagnosticCode, at line: Int, _ column: Int, severity: Severity, in diagnostics: [Diagnostic],
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) -> Diagnostic? {
    let found = findings(code, diagnostics)
    #expect(found.count == 1, "expected one \(code), got \(diagnostics.map(\.description))", sourceLocation: sourceLocation)
    guard let first = found.first else { return nil }
    #expect(first.range.start.line == line && first.range.start.column == column,
        "\(code) at \(first.range.start), expected \(line):\(column)", sourceLocation: sourceLocation)
    #expect(first.severity == severity, sourceLocation: sourceLocation)
    return first
}
