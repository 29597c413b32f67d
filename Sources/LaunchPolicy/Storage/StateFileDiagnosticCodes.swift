/// The stable codes of the library's state files — the launch history, the display memory, the delivery cache — when
/// one cannot be read. An app that logs them can tell a file cut short from one a newer version wrote.
extension DiagnosticCode {
    /// The file is not JSON: empty, cut short, a stray byte, nested deeper than 32 levels.
    public static let stateNotJSON: DiagnosticCode = "state.not-json"
    /// The file exists but could not be read: permission, a folder, not a regular file. Only the delivery cache, the
    /// one store that reports this as a problem of the file, gives it, as the cause of its `delivery.cache-unusable`;
    /// the others throw the file system's error.
    public static let stateUnreadable: DiagnosticCode = "state.unreadable"
    /// The file is larger than any state file may be (64 MiB).
    public static let stateTooLarge: DiagnosticCode = "state.too-large"
    /// The file was written in a format this version of the library does not read (a newer one wrote it).
    public static let stateUnsupportedFormat: DiagnosticCode = "state.unsupported-format"
    /// A key the file must have is missing.
    public static let stateMissingKey: DiagnosticCode = "state.missing-key"
    /// A key the library reads appears twice in one object.
    public static let stateDuplicateKey: DiagnosticCode = "state.duplicate-key"
    /// A value has the wrong JSON type: a string where a number belongs.
    public static let stateWrongType: DiagnosticCode = "state.wrong-type"
    /// A value has the right type but is not one the library writes: a negative count, a date that is not ISO 8601.
    public static let stateInvalidValue: DiagnosticCode = "state.invalid-value"
}
