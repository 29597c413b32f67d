/// The stable codes of the LaunchGate and Gandalf compatibility layer.
extension DiagnosticCode {
    /// A JSON configuration with neither an `ios` nor an `android` section.
    public static let compatNoPlatformSection: DiagnosticCode = "compat.no-platform-section"
    /// A field of the wrong type, such as `blocking` given as a string.
    public static let compatWrongType: DiagnosticCode = "compat.wrong-type"
    /// A required field is missing, such as `minimumVersion`.
    public static let compatMissingKey: DiagnosticCode = "compat.missing-key"
    /// A version that is not a valid marketing version (LaunchGate) or versionCode (Gandalf).
    public static let compatInvalidVersion: DiagnosticCode = "compat.invalid-version"
    /// A field LaunchGate and Gandalf do not read; it is ignored.
    public static let compatUnknownKey: DiagnosticCode = "compat.unknown-key"
    /// A custom parser returned no configuration.
    public static let compatParserFailed: DiagnosticCode = "compat.parser-failed"
}
