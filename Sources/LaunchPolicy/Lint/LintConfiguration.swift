import Foundation

/// What `.policy-lint.yaml` says: a severity per code, codes turned off, and the longest window a `block` rule may
/// have.
///
/// ```yaml
/// # .policy-lint.yaml — applies to policies in this folder and below, up to the next .policy-lint.yaml
/// severity:
///   lint.unused-message: warning
///   lint.lockout: error
/// disable: [lint.missing-update-url]
/// max-block-window: 12h
/// ```
///
/// An error from the reader or the decoder cannot be lowered or turned off: the library refuses to evaluate such a
/// policy, so a clean lint would be a lie. Everything else can.
public struct LintConfiguration: Sendable {
    /// The file name looked for, upward from each linted file.
    public static let fileName = ".policy-lint.yaml"
    /// The keys of the file.
    public static let keys = Key.known.names
    enum Key: String, WrittenNames {
        case severity, disable, maxBlockWindow = "max-block-window"
        static let known = KnownNames<Self>()
    }
    /// The longest `block` window when the file does not say: a day.
    public static let defaultMaximumBlockWindow: TimeInterval = 86_400

    /// Severities that replace a code's own.
    public var severities: [DiagnosticCode: Severity]
    /// Codes not reported.
    public var disabled: Set<DiagnosticCode>
    /// The longest date window a `block` rule may have before `lint.long-block-window` is reported.
    public var maximumBlockWindow: TimeInterval

    /// Creates a configuration; the defaults report every check at its own severity.
    public init(
        severities: [DiagnosticCode: Severity] = [:], disabled: Set<DiagnosticCode> = [],
        maximumBlockWindow: TimeInterval = defaultMaximumBlockWindow
    ) {
        self.severities = severities
        self.disabled = disabled
        self.maximumBlockWindow = maximumBlockWindow
    }

    /// The nearest `.policy-lint.yaml` in the folder of `file` or a folder above it.
    public static func find(for file: URL) -> URL? {
        var folder = file.standardizedFileURL.deletingLastPathComponent()
        while true {
            let candidate = folder.appendingPathComponent(fileName)
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { return nil }
            folder = parent
        }
    }

    /// Reads a configuration file: the configuration, and every problem found in it (`lint.invalid-configuration`,
    /// or the reader's). Settings with problems are left at their defaults.
    public static func parse(_ bytes: [UInt8]) -> (configuration: LintConfiguration, diagnostics: [Diagnostic]) {
        let read = YAMLReader().read(bytes)
        var configuration = LintConfiguration()
        var support = DecodingSupport()
        guard let root = read.root else { return (configuration, read.diagnostics) }
        // An empty file (only comments) configures nothing.
        if root.scalar?.text == "", root.tag == nil { return (configuration, read.diagnostics) }
        if let entries = support.mapping(root, "a .policy-lint.yaml file") {
            let byKey = support.entries(entries, as: Key.self, in: fileName)
            if let node = byKey[.severity], let codes = support.mapping(node, "severity") {
                for entry in codes {
                    guard let code = support.text(entry.key, "a diagnostic code"),
                        let severityText = support.text(entry.value, "a severity"),
                        let severity = support.choice(severityText, "severity", as: Severity.self),
                        let checked = checkedCode(code.value, at: code.range, in: code.node, &support)
                    else { continue }
                    configuration.severities[checked] = severity
                }
            }
            if let node = byKey[.disable], let codes = support.oneOrList(node, "disable", { $1 }) {
                configuration.disabled = Set(codes.compactMap {
                    checkedCode($0.value, at: $0.range, in: $0.node, &support)
                })
            }
            if let node = byKey[.maxBlockWindow], let text = support.text(node, "max-block-window") {
                if let seconds = ValueSyntax.duration(text.value), seconds > 0 {
                    configuration.maximumBlockWindow = seconds
                } else {
                    support.error(.lintInvalidConfiguration,
                        "max-block-window: \"\(text.value)\" is not a duration such as 12h, 3d or 1w", at: text.range)
                }
            }
        }
        // The decoder's codes are the policy's; in this file every problem is a configuration problem.
        let problems = support.diagnostics.map { diagnostic in
            var diagnostic = diagnostic
            diagnostic.code = .lintInvalidConfiguration
            return diagnostic
        }
        return (configuration, (read.diagnostics + problems).sortedBySource())
    }

    /// What `policy-lint --fix` does to a configuration file's text: its fix-its (a misspelt code renamed to the
    /// code it is nearest to) applied, over passes as for a policy (``PolicyLinter/fix(fileAt:path:passes:)``). The
    /// report's source is the fixed text, to be read with ``parse(_:)`` and written in place of the file when
    /// ``LintFix/changed``.
    public static func fix(_ bytes: [UInt8], path: String, passes: Int = 8) -> LintFix {
        let check = { (text: [UInt8]) in LintReport(path: path, source: text, diagnostics: parse(text).diagnostics) }
        return LintFix(fixing: check(bytes), passes: passes, check: check)
    }

    /// A code the configuration may name: one of policy-lint's checks, or a code of another stage (`yaml.`,
    /// `policy.`, `compat.`, `test.`), whose errors nevertheless stay errors. A misspelt code's fix-it names the
    /// code it is nearest to in place of `node`, the scalar it is written as, or, in a comment, of the text at
    /// `range`.
    static func checkedCode(
        _ text: String, at range: SourceRange, in node: YAMLNode? = nil, _ support: inout DecodingSupport
    ) -> DiagnosticCode? {
        let code = DiagnosticCode(rawValue: text)
        if LintCheck.named(code) != nil { return code }
        let stages = ["yaml.", "policy.", "compat.", "test."]
        if stages.contains(where: text.hasPrefix), text.count > 5 { return code }
        let suggestion = DidYouMean.nearest(to: text, in: LintCheck.all.map(\.code.rawValue))
        support.error(.lintInvalidConfiguration,
            "\"\(text)\" is not a diagnostic code" + (suggestion.map { "; did you mean \"\($0)\"?" } ?? ""),
            at: range,
            fixIt: suggestion.flatMap { code in
                let message = "use \"\(code)\""
                guard let node else { return FixIt(range: range, replacement: code, message: message) }
                return FixIt.naming(node, code, message: message)
            })
        return nil
    }

    /// The diagnostics as configured: severities replaced and disabled codes dropped, except that errors of the
    /// reader and the decoder stay as they are.
    public func applied(to diagnostics: [Diagnostic]) -> [Diagnostic] {
        var configured = diagnostics
        apply(to: &configured)
        return configured
    }

    /// ``applied(to:)`` in place: lint configures its report's list so, which a list of a file's thousands of
    /// warnings otherwise copied whole, and a list of a dozen grew by a new allocation at a time.
    func apply(to diagnostics: inout [Diagnostic]) {
        if !disabled.isEmpty {
            diagnostics.removeAll { !$0.isBeyondConfiguration && disabled.contains($0.code) }
        }
        guard !severities.isEmpty else { return }
        for index in diagnostics.indices where !diagnostics[index].isBeyondConfiguration {
            if let severity = severities[diagnostics[index].code] { diagnostics[index].severity = severity }
        }
    }
}
