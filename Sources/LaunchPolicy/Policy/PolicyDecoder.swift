import Foundation

/// Decodes the reader's node tree into a ``Policy``, typing every value from the schema and reporting every
/// problem in one pass.
///
/// The decoder never stops at the first problem: each part is decoded as far as it can be and every diagnostic is
/// collected. The policy it returns is complete only when no diagnostic is an error.
public struct PolicyDecoder: Sendable {
    /// The format versions this decoder reads.
    public static let supportedFormatVersions = [1]

    /// The most problems reported; see ``DecodingSupport/problemLimit``.
    var problemLimit = DecodingSupport.maximumReported

    /// Creates a decoder.
    public init() {}

    /// Decodes a document's root node.
    public func decode(_ root: YAMLNode) -> (policy: Policy, diagnostics: [Diagnostic]) {
        var support = DecodingSupport(problemLimit: problemLimit)
        var policy = Policy(range: root.range)
        guard let entries = support.mapping(root, "a policy file") else { return (policy, support.diagnostics) }
        let byKey = support.entries(entries, as: TopLevelKey.self, in: "a policy")

        support.require(.policy, in: byKey, of: root, "a policy file (policy: 1)")
        if let node = byKey[.policy], let text = support.text(node, "policy") {
            if let version = Int(text.value), Self.supportedFormatVersions.contains(version) {
                policy.formatVersion = version
            } else {
                support.error(.policyUnsupportedVersion,
                    "policy: \(text.value) is not a format this version of LaunchPolicy reads; use policy: 1",
                    at: text.range)
            }
        }
        if let node = byKey[.id] { policy.id = support.text(node, "id")?.value }
        if let node = byKey[.versioning], let text = support.text(node, "versioning") {
            switch text.value {
            case "marketing": policy.versioning = .marketing
            case "semver": policy.versioning = .semver
            default:
                support.error(.policyInvalidValue,
                    "versioning must be marketing or semver, not \"\(text.value)\"", at: text.range)
            }
        }
        if let node = byKey[.store], let store = support.mapping(node, "store") {
            for entry in store {
                guard let platformText = support.text(entry.key, "a platform"),
                    let platform = support.choice(platformText, "platform", as: Platform.self),
                    let url = support.text(entry.value, "a store URL")
                else { continue }
                policy.storeURLs[platform] = url.located
            }
        }
        if let node = byKey[.messages] {
            policy.messages = MessageDecoding.messages(node, &support)
        }
        if let node = byKey[.rules] {
            policy.rules = RuleDecoding.rules(node, versioning: policy.versioning, messages: policy.messages, &support)
        } else {
            support.require(.rules, in: byKey, of: root, "a policy file")
        }
        if let node = byKey[.tests] {
            policy.tests = TestCaseDecoding.testCases(node, rules: policy.rules, &support)
        }
        return (policy, support.diagnostics)
    }
}

/// `messages:` — id → locale → text, with `default` required.
enum MessageDecoding {
    static func messages(_ node: YAMLNode, _ support: inout DecodingSupport) -> [Message] {
        guard let entries = support.mapping(node, "messages") else { return [] }
        var messages: [Message] = []
        messages.reserveCapacity(entries.count)
        for entry in entries {
            guard let id = support.text(entry.key, "a message id") else { continue }
            if let text = entry.value.scalar, entry.value.tag == nil {
                support.error(.policyWrongType,
                    "the message \"\(id.value)\" must map locales to texts, with a default",
                    at: entry.value.range,
                    fixIt: .replacing(entry.value, with: "{\(YAMLWriting.scalar("default", inPlaceOf: text.style)): "
                        + "\(YAMLWriting.quoted(text.text))}", message: "make it the default text"))
                continue
            }
            guard let locales = support.mapping(entry.value, "the message \"\(id.value)\"") else { continue }
            // Made with its capacity: reserved once empty, it went through the path that resizes a table, 430
            // instructions more for each message.
            var translations = [String: String](minimumCapacity: locales.count)
            // Whether a default text is written, noted on the way: looking it up afterwards hashed it once more for
            // every message.
            var hasDefault = false
            for locale in locales {
                guard let tag = support.text(locale.key, "a locale"), let text = support.text(locale.value, "a message text")
                else { continue }
                if tag.value == "default" {
                    hasDefault = true
                } else if !ValueSyntax.isLocaleTag(tag.value) {
                    support.error(.policyInvalidValue,
                        "\"\(tag.value)\" is not a language tag such as ja or pt-BR", at: tag.range)
                    continue
                }
                translations[tag.value] = text.value
            }
            if !hasDefault {
                support.error(.policyMissingDefaultMessage,
                    "the message \"\(id.value)\" has no default text, shown when no translation fits the user's language",
                    at: id.range)
            }
            messages.append(Message(id: id.value, translations: translations, range: entry.key.range))
        }
        return messages
    }
}
