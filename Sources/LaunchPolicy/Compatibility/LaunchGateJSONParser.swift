import Foundation

/// LaunchGate's (`{"ios": {...}}`) and Gandalf's (`{"android": {...}}`) JSON configurations; one file may hold both.
///
/// The file is read by the YAML reader (JSON is YAML), so every problem has a line and column. Unlike LaunchGate, a
/// malformed section is reported with its position and field instead of silently meaning "no configuration".
public struct LaunchGateJSONParser: YAMLReadingPolicyParser {
    /// The reader's limits.
    public var limits: YAMLLimits

    /// Creates a parser.
    public init(limits: YAMLLimits = .default) {
        self.limits = limits
    }

    /// The policy equivalent to an already-read file (see ``LaunchGateMapping``).
    func parse(read: YAMLReadResult) -> PolicyParseResult {
        guard let root = read.root else {
            return PolicyParseResult(policy: nil, diagnostics: read.diagnostics, format: .launchGate)
        }
        let (sections, diagnostics) = Self.sections(of: root)
        let mapped = LaunchGateMapping.policy(from: sections)
        return PolicyParseResult(
            policy: sections.isEmpty ? nil : mapped.policy,
            diagnostics: (read.diagnostics + diagnostics + mapped.diagnostics).sortedBySource(), format: .launchGate)
    }

    /// Whether a document is a LaunchGate or Gandalf configuration: a mapping with an `ios` or `android` key.
    public static func recognizes(_ root: YAMLNode) -> Bool {
        guard let entries = root.mapping else { return false }
        return entries.contains { ["ios", "android"].contains($0.key.scalar?.text) }
    }

    static func sections(of root: YAMLNode) -> ([LaunchGateMapping.SectionConfiguration], [Diagnostic]) {
        var reader = FieldReader()
        guard let entries = root.mapping else {
            reader.error(.compatWrongType, "a LaunchGate configuration is a JSON object, not a \(root.kindName)", root.range)
            return ([], reader.diagnostics)
        }
        var sections: [LaunchGateMapping.SectionConfiguration] = []
        for entry in entries {
            guard let key = entry.key.scalar?.text else { continue }
            guard let section = LaunchGateMapping.Section(rawValue: key) else {
                reader.warning("\"\(key)\" is not read by LaunchGate or Gandalf; it is ignored", entry.key.range)
                continue
            }
            if let parsed = reader.section(section, entry.value) { sections.append(parsed) }
        }
        if !entries.contains(where: { ["ios", "android"].contains($0.key.scalar?.text) }) {
            reader.error(.compatNoPlatformSection,
                "the configuration has neither an \"ios\" (LaunchGate) nor an \"android\" (Gandalf) section", root.range)
        }
        return (sections, reader.diagnostics)
    }
}

/// LaunchGate's default parser under its own contract: the `ios` section's configuration, or nil when the file has
/// none or it is malformed. Use ``LaunchGateJSONParser`` to learn what is wrong and where.
public struct LaunchGateDefaultParser: LaunchGateParser, Sendable {
    /// Creates a parser.
    public init() {}

    public func parse(_ jsonData: Data) -> LaunchGateConfiguration? {
        guard let root = YAMLReader().read(jsonData).root else { return nil }
        let (sections, diagnostics) = LaunchGateJSONParser.sections(of: root)
        guard !diagnostics.containsErrors else { return nil }
        return sections.first { $0.section == .ios }?.configuration
    }
}

/// Typed reads of a LaunchGate section, each problem reported with its position.
private struct FieldReader {
    /// Where the problems go: the decoder's, which reports no more than it should keep.
    private var support = DecodingSupport()

    var diagnostics: [Diagnostic] { support.diagnostics }

    mutating func error(_ code: DiagnosticCode, _ message: String, _ range: SourceRange) {
        support.report(.error(code, message, at: range))
    }

    mutating func warning(_ message: String, _ range: SourceRange) {
        support.report(.warning(.compatUnknownKey, message, at: range))
    }

    mutating func section(
        _ section: LaunchGateMapping.Section, _ node: YAMLNode
    ) -> LaunchGateMapping.SectionConfiguration? {
        guard let entries = object(node, "the \"\(section.rawValue)\" section") else { return nil }
        var configuration = LaunchGateConfiguration()
        var ranges: [String: SourceRange] = [:]
        for entry in entries {
            guard let key = entry.key.scalar?.text else { continue }
            switch key {
            case "alert":
                guard let fields = fields(entry.value, key, required: ["message", "blocking"]) else { continue }
                guard let message = string(fields["message"], "alert.message"),
                    let blocking = boolean(fields["blocking"], "alert.blocking")
                else { continue }
                configuration.alert = AlertConfiguration(message: message, blocking: blocking)
                if configuration.alert == nil { error(.compatWrongType, "alert.message is empty", fields["message"]!.range) }
                ranges["alert"] = entry.key.range
            case "requiredUpdate", "optionalUpdate":
                let versionKey = key == "requiredUpdate" ? "minimumVersion" : "optionalVersion"
                guard let fields = fields(entry.value, key, required: [versionKey, "message"]) else { continue }
                guard let version = string(fields[versionKey], "\(key).\(versionKey)", allowNumber: true),
                    let message = string(fields["message"], "\(key).message")
                else { continue }
                guard let update = UpdateConfiguration(version: version, message: message) else {
                    error(.compatWrongType, "\(key) has an empty version or message", entry.value.range)
                    continue
                }
                if key == "requiredUpdate" { configuration.requiredUpdate = update } else { configuration.optionalUpdate = update }
                ranges[key] = entry.key.range
                ranges[versionKey] = fields[versionKey]!.range
            default:
                warning("\"\(key)\" is not read by \(section == .ios ? "LaunchGate" : "Gandalf"); it is ignored", entry.key.range)
            }
        }
        return LaunchGateMapping.SectionConfiguration(section: section, configuration: configuration, ranges: ranges)
    }

    private mutating func object(_ node: YAMLNode, _ what: String) -> YAMLNode.Entries? {
        if let entries = node.mapping { return entries }
        error(.compatWrongType, "\(what) must be a JSON object, not a \(node.kindName)", node.range)
        return nil
    }

    private mutating func fields(_ node: YAMLNode, _ what: String, required: [String]) -> [String: YAMLNode]? {
        guard let entries = object(node, "\"\(what)\"") else { return nil }
        var fields: [String: YAMLNode] = [:]
        for entry in entries {
            guard let key = entry.key.scalar?.text else { continue }
            if required.contains(key) { fields[key] = entry.value } else {
                warning("\"\(what).\(key)\" is not read by LaunchGate or Gandalf; it is ignored", entry.key.range)
            }
        }
        var complete = true
        for key in required where fields[key] == nil {
            error(.compatMissingKey, "\"\(what)\" has no \"\(key)\"", node.range)
            complete = false
        }
        return complete ? fields : nil
    }

    /// A JSON string; a plain number too where `allowNumber` (versions are often written as numbers). Numbers keep
    /// their text exactly (`1.10` stays `1.10`).
    private mutating func string(_ node: YAMLNode?, _ what: String, allowNumber: Bool = false) -> String? {
        guard let node else { return nil }
        if let scalar = node.scalar {
            if scalar.style != .plain { return scalar.text }
            if allowNumber, scalar.text.first?.isNumber == true { return scalar.text }
        }
        error(.compatWrongType, "\(what) must be a string", node.range)
        return nil
    }

    private mutating func boolean(_ node: YAMLNode?, _ what: String) -> Bool? {
        guard let node else { return nil }
        if let scalar = node.scalar, scalar.style == .plain, scalar.text == "true" || scalar.text == "false" {
            return scalar.text == "true"
        }
        let shown = node.scalar.map { $0.style == .plain ? $0.text : "\"\($0.text)\"" } ?? "a \(node.kindName)"
        error(.compatWrongType, "\(what) must be true or false, not \(shown)", node.range)
        return nil
    }
}

/// The default parser: reads the file once, detects the format and dispatches. A mapping with an `ios` or
/// `android` key (and no `policy` key) is a LaunchGate/Gandalf configuration; anything else is the policy language.
public struct AutomaticPolicyParser: YAMLReadingPolicyParser {
    /// The reader's limits.
    public var limits: YAMLLimits
    /// Whether the file is known to be JSON (a `.json` file): then, unless it has a `policy` key, it is read as a
    /// LaunchGate/Gandalf configuration even without a platform section, so that the missing section is reported.
    public var expectsLaunchGateJSON: Bool
    /// The most problems a policy's decoder reports; see ``DecodingSupport/problemLimit``. A LaunchGate
    /// configuration's problems have no fix-its, and are always held to the default.
    var problemLimit = DecodingSupport.maximumReported

    /// Creates a parser.
    public init(limits: YAMLLimits = .default, expectsLaunchGateJSON: Bool = false) {
        self.limits = limits
        self.expectsLaunchGateJSON = expectsLaunchGateJSON
    }

    /// Decodes an already-read file in the format it is in.
    func parse(read: YAMLReadResult) -> PolicyParseResult {
        if let root = read.root, root["policy"] == nil, expectsLaunchGateJSON || LaunchGateJSONParser.recognizes(root) {
            return LaunchGateJSONParser(limits: limits).parse(read: read)
        }
        var parser = YAMLPolicyParser(limits: limits)
        parser.problemLimit = problemLimit
        return parser.parse(read: read)
    }
}
