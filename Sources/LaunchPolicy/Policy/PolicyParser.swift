import Foundation

/// What a parser made of a file: the policy, when one could be built, and every problem found.
public struct PolicyParseResult: Sendable {
    /// The policy; nil when the file could not be read as a document at all. With errors among the diagnostics it
    /// is incomplete and must not be evaluated.
    public var policy: Policy?
    /// Every problem found, in source order.
    public var diagnostics: [Diagnostic]
    /// The format the file was read as.
    public var format: PolicyFileFormat

    /// Creates a result.
    public init(policy: Policy?, diagnostics: [Diagnostic], format: PolicyFileFormat = .policyLanguage) {
        self.policy = policy
        self.diagnostics = diagnostics
        self.format = format
    }

    /// The policy, when it decoded without errors.
    public var usablePolicy: Policy? { diagnostics.containsErrors ? nil : policy }
}

/// The formats a policy can be written in.
public enum PolicyFileFormat: String, Sendable, Hashable {
    /// The policy language (YAML, or the same structure in JSON).
    case policyLanguage = "policy-language"
    /// A LaunchGate or Gandalf configuration, mapped onto the policy language.
    case launchGate = "launchgate"
}

/// A parser from file contents to a policy: the native plugin seam. The YAML parser is the default; other formats
/// plug in here and share the interpreter.
public protocol PolicyParser: Sendable {
    /// Parses the bytes of one file.
    func parse(_ data: Data) -> PolicyParseResult
}

/// A parser whose formats are read by the YAML reader (the policy language, and JSON configurations): it reads the
/// bytes once, and ``AutomaticPolicyParser`` hands the same reading to whichever parser the format needs.
protocol YAMLReadingPolicyParser: PolicyParser {
    /// The reader's limits.
    var limits: YAMLLimits { get }
    /// Turns what the reader made of a file into a policy.
    func parse(read: YAMLReadResult) -> PolicyParseResult
}

extension YAMLReadingPolicyParser {
    public func parse(_ data: Data) -> PolicyParseResult {
        parse(read: YAMLReader(limits: limits).read(data))
    }
}

/// The policy language in YAML: the reader, then the decoder.
public struct YAMLPolicyParser: YAMLReadingPolicyParser {
    /// The reader's limits.
    public var limits: YAMLLimits
    /// The most problems the decoder reports; see ``DecodingSupport/problemLimit``.
    var problemLimit = DecodingSupport.maximumReported

    /// Creates a parser.
    public init(limits: YAMLLimits = .default) {
        self.limits = limits
    }

    /// Decodes an already-read file.
    func parse(read: YAMLReadResult) -> PolicyParseResult {
        guard let root = read.root else { return PolicyParseResult(policy: nil, diagnostics: read.diagnostics) }
        var decoder = PolicyDecoder()
        decoder.problemLimit = problemLimit
        let decoded = decoder.decode(root)
        var diagnostics = read.diagnostics + decoded.diagnostics
        diagnostics.sortBySource()
        return PolicyParseResult(policy: decoded.policy, diagnostics: diagnostics)
    }
}
