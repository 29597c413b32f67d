import Foundation
@testable import LaunchPolicy
import Testing

/// Decodes a policy that must have no errors.
func policy(_ yaml: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> Policy {
    let result = YAMLPolicyParser().parse(Data(yaml.utf8))
    let errors = result.diagnostics.filter { $0.severity == .error }
    #expect(errors.isEmpty, "\(errors.map { $0.rendered(file: "test.yaml") })", sourceLocation: sourceLocation)
    return try #require(result.usablePolicy as Policy?, sourceLocation: sourceLocation)
}

/// A context from condition keys, as a test case writes it.
func context(_ values: [String: String], attributes: [String: String]? = nil) throws -> LaunchContext {
    var typed = values.mapValues(ContextValue.text)
    if let attributes { typed["attributes"] = .map(attributes) }
    return try LaunchContext(values: typed, defaultNow: date("2026-11-20T12:00:00Z"))
}

/// An ISO 8601 date.
func date(_ text: String) -> Date {
    guard case .success(let date) = ValueSyntax.date(text) else { fatalError("bad date \(text)") }
    return date
}

extension Decision {
    /// The ids of the rules behind prompts, notices and presentations.
    var shownRules: [String] { shown.map(\.rule) }

    /// The explanation of one rule.
    func explanation(of rule: String) -> RuleExplanation? { explanation.first { $0.rule == rule } }
}
