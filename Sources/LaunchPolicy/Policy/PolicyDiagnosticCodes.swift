/// The stable codes of the policy decoder's diagnostics.
extension DiagnosticCode {
    /// A value has the wrong shape: a mapping where a scalar belongs, a list where a mapping does.
    public static let policyWrongType: DiagnosticCode = "policy.wrong-type"
    /// A key the language does not have; the message suggests the nearest known key.
    public static let policyUnknownKey: DiagnosticCode = "policy.unknown-key"
    /// A required key is missing.
    public static let policyMissingKey: DiagnosticCode = "policy.missing-key"
    /// `policy:` names a format version this library does not read.
    public static let policyUnsupportedVersion: DiagnosticCode = "policy.unsupported-version"
    /// A value outside its set: an unknown action, platform, launch kind, `show` value, versioning.
    public static let policyInvalidValue: DiagnosticCode = "policy.invalid-value"
    /// A version range that does not parse.
    public static let policyInvalidRange: DiagnosticCode = "policy.invalid-range"
    /// A rule names a message that `messages` does not define.
    public static let policyUnknownMessage: DiagnosticCode = "policy.unknown-message"
    /// A test case names a rule that does not exist.
    public static let policyUnknownRule: DiagnosticCode = "policy.unknown-rule"
    /// Two rules share an id.
    public static let policyDuplicateRuleID: DiagnosticCode = "policy.duplicate-rule-id"
    /// A message has no `default` text.
    public static let policyMissingDefaultMessage: DiagnosticCode = "policy.missing-default-message"
    /// A date that is not ISO 8601 with a time zone, or that does not exist.
    public static let policyInvalidDate: DiagnosticCode = "policy.invalid-date"
    /// A YAML tag on a value; usually an unquoted `!= 1.0`, which YAML reads as the tag `!=`.
    public static let policyUnexpectedTag: DiagnosticCode = "policy.unexpected-tag"
    /// A key that the rule's action does not use.
    public static let policyIgnoredKey: DiagnosticCode = "policy.ignored-key"
    /// More problems than the decoder reports (``DecodingSupport/maximumReported``); the rest are left out.
    public static let policyTooManyProblems: DiagnosticCode = "policy.too-many-problems"
}
