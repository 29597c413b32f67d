/// Unquoted values that other YAML tools would change (`lint.retyped-scalar`): `version: 1.10` is the number 1.1 to
/// PyYAML, `region: NO` is false, `build: 010` is 8. LaunchPolicy reads them as written, but a script, an editor or a
/// converter that touches the file will not. The fix-it quotes the value.
enum RetypedScalarChecks {
    /// Keys whose values are numbers to the policy language too, so that a numeric reading changes nothing that
    /// matters (`rollout: 12.50` is 12.5 % either way).
    static let numericKeys: Set<String> = ["policy", "rollout"]

    static func findings(in index: ScalarIndex) -> [Diagnostic] {
        // Appended to, not a compactMap: nearly every scalar gives no finding, and an optional diagnostic made and
        // dropped for each one cost more than the test.
        var findings: [Diagnostic] = []
        index.forEachPlainScalar(where: YAMLImplicitTyping.mayChangeReading) { scalar, text in
            guard let reading = YAMLImplicitTyping.changedReading(of: text) else { return }
            let node = index.node(scalar)
            if !scalar.isKey, let key = index.key(of: scalar), numericKeys.contains(key), reading.hasPrefix("the number") {
                return
            }
            let quoted = YAMLWriting.quoted(text)
            findings.append(Diagnostic(code: .lintRetypedScalar,
                severity: LintCheck.named(.lintRetypedScalar)?.severity ?? .error,
                message: "other YAML tools read the unquoted \(scalar.isKey ? "key" : "value") \(text) as "
                    + "\(reading); quote it: \(quoted)",
                range: node.range,
                fixIt: .replacing(node, with: quoted, message: "quote it")))
        }
        return findings
    }
}
