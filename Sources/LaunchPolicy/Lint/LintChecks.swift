/// The stable codes of policy-lint's own diagnostics.
extension DiagnosticCode {
    /// A file named on the command line or found in a folder could not be read, or a folder could not be searched.
    public static let lintUnreadableFile: DiagnosticCode = "lint.unreadable-file"
    /// A `block` or `require-update` rule matches every app version of a platform and has no date window to end it.
    public static let lintLockout: DiagnosticCode = "lint.lockout"
    /// A rule whose condition no context satisfies: an empty range, or entries that contradict each other.
    public static let lintNeverMatches: DiagnosticCode = "lint.never-matches"
    /// A rule that an earlier rule of the same kind always decides first.
    public static let lintShadowedRule: DiagnosticCode = "lint.shadowed-rule"
    /// A date window that has already ended.
    public static let lintEndedWindow: DiagnosticCode = "lint.ended-window"
    /// A `block` rule's date window is longer than the configured maximum.
    public static let lintLongBlockWindow: DiagnosticCode = "lint.long-block-window"
    /// A message lacks a translation that other messages have.
    public static let lintMissingTranslation: DiagnosticCode = "lint.missing-translation"
    /// A message with two texts for the same language tag (`pt-BR` and `pt_BR`, `he` and `iw`), one never shown.
    public static let lintDuplicateTranslation: DiagnosticCode = "lint.duplicate-translation"
    /// A message no rule shows.
    public static let lintUnusedMessage: DiagnosticCode = "lint.unused-message"
    /// An unquoted value that YAML 1.1 tools would read as a number, boolean or null, changing it.
    public static let lintRetypedScalar: DiagnosticCode = "lint.retyped-scalar"
    /// A partial version after `<=`, `>`, `=`, `!=`, or bare, which people read two ways.
    public static let lintAmbiguousVersion: DiagnosticCode = "lint.ambiguous-version"
    /// `original-app-version` on iOS compared with what looks like a marketing version; it is a build number there.
    public static let lintOriginalVersionIsBuild: DiagnosticCode = "lint.original-version-is-build"
    /// An update rule without a `url` whose platform has no store URL either.
    public static let lintMissingUpdateURL: DiagnosticCode = "lint.missing-update-url"
    /// A `*.tests.yaml` file without the policy it tests beside it.
    public static let lintTestsWithoutPolicy: DiagnosticCode = "lint.tests-without-policy"
    /// A `.policy-lint.yaml` configuration, or an inline `# policy-lint:` comment, that cannot be used as written.
    public static let lintInvalidConfiguration: DiagnosticCode = "lint.invalid-configuration"
}

/// A check policy-lint makes beyond what the reader and the decoder report: its code, its severity unless the
/// configuration says otherwise, and what it finds, for `--format sarif`'s rule list and for documentation.
public struct LintCheck: Sendable, Hashable {
    /// The check's code.
    public var code: DiagnosticCode
    /// Its severity unless `.policy-lint.yaml` sets another.
    public var severity: Severity
    /// What it finds, in one sentence.
    public var summary: String

    /// Every check, in the order the documentation lists them.
    public static let all: [LintCheck] = [
        LintCheck(code: .lintLockout, severity: .warning,
            summary: "A block or require-update rule matches every app version of a platform and has no date window: no update lets those users in."),
        LintCheck(code: .lintNeverMatches, severity: .warning,
            summary: "A rule can never match: an empty range, or entries that contradict each other."),
        LintCheck(code: .lintShadowedRule, severity: .warning,
            summary: "An earlier rule of the same kind matches whenever this one does, so this one never decides."),
        LintCheck(code: .lintEndedWindow, severity: .warning,
            summary: "A date window ended before now, so its rule no longer applies."),
        LintCheck(code: .lintLongBlockWindow, severity: .warning,
            summary: "A block rule's date window is longer than the configured maximum (max-block-window)."),
        LintCheck(code: .lintMissingTranslation, severity: .warning,
            summary: "A message lacks a locale that other messages have; those users see its default text."),
        LintCheck(code: .lintDuplicateTranslation, severity: .warning,
            summary: "A message has two texts for the same language tag (pt-BR and pt_BR, he and iw): one is never "
                + "shown."),
        LintCheck(code: .lintUnusedMessage, severity: .note, summary: "No rule shows this message."),
        LintCheck(code: .lintRetypedScalar, severity: .error,
            summary: "An unquoted value that other YAML tools read as a number, boolean or null (1.10, no, 010, 1e3); quote it."),
        LintCheck(code: .lintAmbiguousVersion, severity: .warning,
            summary: "A partial version after <=, >, =, != or bare, which people read two ways."),
        LintCheck(code: .lintOriginalVersionIsBuild, severity: .note,
            summary: "original-app-version on iOS is the build number of the first purchase, and the sandbox reports 1.0."),
        LintCheck(code: .lintMissingUpdateURL, severity: .warning,
            summary: "An update rule has no url and the policy's store has none for its platform: the app must supply one."),
        LintCheck(code: .lintUnreadableFile, severity: .error,
            summary: "A file could not be read, or a folder could not be searched for policies."),
        LintCheck(code: .lintTestsWithoutPolicy, severity: .error,
            summary: "A *.tests.yaml file has no policy of the same name beside it."),
        LintCheck(code: .lintInvalidConfiguration, severity: .error,
            summary: "A .policy-lint.yaml setting or an inline policy-lint comment cannot be used as written."),
        LintCheck(code: .testFailed, severity: .error, summary: "A policy test case's expected decision differs from the interpreter's."),
        LintCheck(code: .testInvalidContext, severity: .error, summary: "A policy test case's context has a value that is not valid."),
    ]

    /// The check with this code, if policy-lint makes one.
    public static func named(_ code: DiagnosticCode) -> LintCheck? { all.first { $0.code == code } }
}

extension Diagnostic {
    /// Whether the diagnostic is an error of the reader or the decoder, not of a check: the file cannot be used, so
    /// neither a configuration nor an inline directive turns it off or changes its severity.
    var isBeyondConfiguration: Bool { severity == .error && LintCheck.named(code) == nil }
}
