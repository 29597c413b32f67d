import Foundation

/// Maps LaunchGate and Gandalf configurations onto the policy AST, so that they run through the same interpreter
/// as native policies.
///
/// For each platform section, in this order:
/// - `alert` → rule `alert`: `block` if blocking, else `notify` shown once per message text;
/// - `requiredUpdate` → rule `requiredUpdate`: `require-update` when the app version (Gandalf: the versionCode,
///   tested as `build`) is below `minimumVersion`;
/// - `optionalUpdate` → rule `optionalUpdate`: `suggest-update` below `optionalVersion`, once per version.
///
/// Each rule applies only to its section's platform. Message texts become messages named like their rules; the
/// optional update's message id also carries `@` and the optional version, so that it is remembered once per
/// optional version, as LaunchGate remembers it, and once per app version, as `once-per-version` does. When a
/// file has both sections, rule and message ids end in `-ios` and `-android` so that they stay unique. A blocking
/// alert comes before the required update: unlike LaunchGate, a configured required update never hides it.
public enum LaunchGateMapping {
    /// Which section of a file a configuration came from.
    public enum Section: String, Sendable, CaseIterable {
        /// LaunchGate's `ios` section: versions are marketing versions compared with `app-version`.
        case ios
        /// Gandalf's `android` section: versions are versionCodes compared with `build`.
        case android

        /// The platforms whose users the section gates. LaunchGate reads its `ios` section on every device the iOS
        /// app runs on, iPads included, so an app that reports `ipados` on an iPad is gated by it as well.
        var platforms: [Platform] { self == .ios ? [.ios, .ipados] : [.android] }
    }

    /// One section's configuration and where its parts are written (the start of the input when unknown).
    public struct SectionConfiguration: Sendable {
        public var section: Section
        public var configuration: LaunchGateConfiguration
        /// Where each part is written, by key (`alert`, `requiredUpdate`, `optionalUpdate`, and `…Version`).
        public var ranges: [String: SourceRange]

        /// Creates a section configuration.
        public init(section: Section, configuration: LaunchGateConfiguration, ranges: [String: SourceRange] = [:]) {
            self.section = section
            self.configuration = configuration
            self.ranges = ranges
        }
    }

    /// The policy equivalent to the sections, and problems with their versions.
    public static func policy(from sections: [SectionConfiguration]) -> (policy: Policy, diagnostics: [Diagnostic]) {
        var policy = Policy(id: "launchgate")
        var diagnostics: [Diagnostic] = []
        let suffixed = sections.count > 1
        for section in sections {
            let suffix = suffixed ? "-\(section.section.rawValue)" : ""
            let platform = ConditionEntry(
                key: "platform", test: .platform(section.section.platforms), range: .wholeInputStart)
            func where_(_ key: String) -> SourceRange { section.ranges[key] ?? .wholeInputStart }
            func rule(
                _ name: String, _ action: Action, _ key: String, text: String, messageID: String? = nil,
                extra: [ConditionEntry] = [], show: ShowFrequency? = nil
            ) -> Rule {
                let id = name + suffix
                let message = messageID ?? id
                policy.messages.append(Message(id: message, translations: ["default": text], range: where_(key)))
                return Rule(
                    id: Located(id, range: where_(key)),
                    condition: .all([.entry(platform)] + extra.map(Condition.entry), range: where_(key)),
                    action: Located(action, range: where_(key)), message: Located(message, range: where_(key)),
                    show: show, range: where_(key))
            }
            func below(_ update: UpdateConfiguration, versionKey: String) -> ConditionEntry? {
                let kind: VersionKind = section.section == .ios ? .marketing : .versionCode
                do {
                    _ = try Version(update.version, kind: kind)
                    let range = try VersionRange("< \(update.version)", kind: kind == .versionCode ? .build : kind)
                    let test: ConditionEntry.Test = section.section == .ios ? .appVersion(range) : .build(range)
                    return ConditionEntry(key: section.section == .ios ? "app-version" : "build", test: test, range: where_(versionKey))
                } catch {
                    diagnostics.append(.error(.compatInvalidVersion,
                        "\(versionKey) \"\(update.version)\" is not a valid \(kind == .versionCode ? "versionCode" : "version"): \(error.reason)",
                        at: where_(versionKey)))
                    return nil
                }
            }
            let configuration = section.configuration
            if let alert = configuration.alert {
                policy.rules.append(rule("alert", alert.blocking ? .block : .notify, "alert", text: alert.message,
                    show: alert.blocking ? nil : .once))
            }
            if let update = configuration.requiredUpdate, let entry = below(update, versionKey: "minimumVersion") {
                policy.rules.append(rule("requiredUpdate", .requireUpdate, "requiredUpdate", text: update.message,
                    extra: [entry]))
            }
            if let update = configuration.optionalUpdate, let entry = below(update, versionKey: "optionalVersion") {
                // The optional version is part of the message id, so that raising it asks again, as LaunchGate does.
                policy.rules.append(rule("optionalUpdate", .suggestUpdate, "optionalUpdate", text: update.message,
                    messageID: "optionalUpdate\(suffix)@\(update.version)", extra: [entry], show: .oncePerVersion))
            }
        }
        return (policy, diagnostics)
    }
}

/// Runs a custom ``LaunchGateParser`` as a ``PolicyParser``: its configuration is mapped like the built-in one.
public struct LaunchGateParserAdapter<Parser: LaunchGateParser & Sendable>: PolicyParser {
    /// The custom parser.
    public var parser: Parser
    /// The section its configuration stands for: `ios` (LaunchGate) or `android` (Gandalf).
    public var section: LaunchGateMapping.Section

    /// Wraps a custom parser.
    public init(_ parser: Parser, section: LaunchGateMapping.Section = .ios) {
        self.parser = parser
        self.section = section
    }

    public func parse(_ data: Data) -> PolicyParseResult {
        guard let configuration = parser.parse(data) else {
            let failure = Diagnostic.error(.compatParserFailed,
                "the custom LaunchGate parser \(Parser.self) returned no configuration", at: .wholeInputStart)
            return PolicyParseResult(policy: nil, diagnostics: [failure], format: .launchGate)
        }
        let mapped = LaunchGateMapping.policy(from: [.init(section: section, configuration: configuration)])
        return PolicyParseResult(policy: mapped.policy, diagnostics: mapped.diagnostics, format: .launchGate)
    }
}
