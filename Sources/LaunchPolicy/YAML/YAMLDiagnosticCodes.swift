/// The stable codes of the YAML reader's diagnostics.
extension DiagnosticCode {
    /// The input is larger than ``YAMLLimits/maximumInputBytes``.
    public static let yamlInputTooLarge: DiagnosticCode = "yaml.input-too-large"
    /// The input is not valid UTF-8.
    public static let yamlInvalidUTF8: DiagnosticCode = "yaml.invalid-utf8"
    /// The input holds a NUL byte.
    public static let yamlNULByte: DiagnosticCode = "yaml.nul-byte"
    /// The input starts with a UTF-16 or UTF-32 byte-order mark; only UTF-8 is read.
    public static let yamlUnsupportedEncoding: DiagnosticCode = "yaml.unsupported-encoding"
    /// The input holds so many different characters that the reader has none to spare for what it hands libyaml in
    /// place of NEL, LS, PS or a JSON escape pair (see docs/yaml-reader.md).
    public static let yamlNoStandIn: DiagnosticCode = "yaml.no-stand-in"
    /// The input holds no document (it is empty, or only comments and blank lines).
    public static let yamlEmptyInput: DiagnosticCode = "yaml.empty-input"
    /// libyaml rejected the text.
    public static let yamlSyntaxError: DiagnosticCode = "yaml.syntax-error"
    /// Sequences and mappings nest deeper than ``YAMLLimits/maximumDepth``, as written or through an alias.
    public static let yamlTooDeep: DiagnosticCode = "yaml.too-deep"
    /// A scalar is longer than ``YAMLLimits/maximumScalarBytes``.
    public static let yamlScalarTooLong: DiagnosticCode = "yaml.scalar-too-long"
    /// Expanding the aliases would exceed ``YAMLLimits/maximumExpandedNodes``.
    public static let yamlAliasBudgetExceeded: DiagnosticCode = "yaml.alias-budget-exceeded"
    /// An alias names an anchor that was never defined.
    public static let yamlUnknownAnchor: DiagnosticCode = "yaml.unknown-anchor"
    /// An alias names an anchor whose node is still open: the node would contain itself.
    public static let yamlRecursiveAlias: DiagnosticCode = "yaml.recursive-alias"
    /// The input holds more documents than ``YAMLLimits/maximumDocuments``.
    public static let yamlTooManyDocuments: DiagnosticCode = "yaml.too-many-documents"
    /// A mapping has the same key twice.
    public static let yamlDuplicateKey: DiagnosticCode = "yaml.duplicate-key"
    /// So many problems that the reader stopped reporting them.
    public static let yamlTooManyErrors: DiagnosticCode = "yaml.too-many-errors"
}
