import Foundation

/// `rules:` — an ordered list of rules.
struct RuleDecoding {
    /// One condition decoder for every rule, so that a condition shared through YAML aliases is decoded once.
    private var conditions: ConditionDecoding

    private init(versioning: VersionKind, rules: Int) {
        conditions = ConditionDecoding(versioning: versioning, rules: rules)
    }

    /// The rules of `node`, in file order; those with errors are left out, and reported.
    static func rules(
        _ node: YAMLNode, versioning: VersionKind, messages: [Message], _ support: inout DecodingSupport
    ) -> [Rule] {
        guard let items = support.sequence(node, "rules") else { return [] }
        var decoding = RuleDecoding(versioning: versioning, rules: items.count)
        return decoding.rules(items, messages: messages, &support)
    }

    private mutating func rules(_ items: YAMLNode.Items, messages: [Message], _ support: inout DecodingSupport) -> [Rule] {
        var rules: [Rule] = []
        rules.reserveCapacity(items.count)
        // Tables made with their capacity: reserved once empty, each went through the path that resizes a table.
        var firstByID = [String: SourceRange](minimumCapacity: items.count)
        // A set, not the list: every rule naming a message looks it up, and a large policy has many of both.
        var messageIDs = Set<String>(minimumCapacity: messages.count)
        for message in messages { messageIDs.insert(message.id) }
        for item in items {
            rule(item, messages: messages, messageIDs: messageIDs, into: &rules, firstByID: &firstByID, &support)
        }
        return rules
    }

    /// Decodes the rule at `node` and appends it to `rules`, unless it has errors or its id is in `firstByID`, which
    /// it is then added to. Appended here, where it is made: returned as an optional, each rule, 300 bytes, was
    /// moved three times on its way to the list (9.5K instructions a read of 48 rules).
    private mutating func rule(
        _ node: YAMLNode, messages: [Message], messageIDs: Set<String>, into rules: inout [Rule],
        firstByID: inout [String: SourceRange], _ support: inout DecodingSupport
    ) {
        guard let entries = support.mapping(node, "a rule") else { return }
        let byKey = support.entries(entries, as: RuleKey.self, in: "a rule")
        support.require(.id, in: byKey, of: node, "a rule")
        support.require(.then, in: byKey, of: node, "a rule")
        let id = byKey[.id].flatMap { support.text($0, "id") }
        let actionText = byKey[.then].flatMap { support.text($0, "then") }
        let action = actionText.flatMap { support.choice($0, "action", as: Action.self) }
        let condition = byKey[.when].flatMap { conditions.condition($0, &support) }

        var message: WrittenText?
        if let node = byKey[.message], let text = support.text(node, "message") {
            message = text
            if !messageIDs.contains(text.value) {
                let suggestion = DidYouMean.nearest(to: text.value, in: messages.map(\.id))
                support.error(.policyUnknownMessage,
                    "no message has the id \"\(text.value)\"; define it under messages"
                        + (suggestion.map { ", or did you mean \"\($0)\"?" } ?? ""),
                    at: text.range,
                    fixIt: suggestion.flatMap { .naming(text.node, $0, message: "use \"\($0)\"") })
            }
        }
        var url = byKey[.url].flatMap { support.text($0, "url") }
        var screen = byKey[.screen].flatMap { support.text($0, "screen") }
        var entitlements = byKey[.entitlements].flatMap { support.oneOrList($0, "entitlements", { $1.located }) } ?? []
        var show: ShowFrequency?
        if let text = byKey[.show].flatMap({ support.text($0, "show") }) {
            show = support.choice(text, "show value", as: ShowFrequency.self)
            if let action, action.isGate, show != nil, show != .everyLaunch {
                support.error(.policyInvalidValue,
                    "a \(action.rawValue) rule is shown on every launch; remove show: \(text.value)", at: text.range)
            }
        }
        var every: Located<TimeInterval>?
        if let text = byKey[.every].flatMap({ support.text($0, "every") }) {
            if let seconds = ValueSyntax.duration(text.value) {
                every = Located(seconds, range: text.range)
            } else {
                support.error(.policyInvalidValue,
                    "every: \"\(text.value)\" is not a duration such as 12h, 3d or 1w", at: text.range)
            }
        }

        if let action {
            if action.requiresMessage, !byKey.has(.message) {
                support.error(.policyMissingKey, "a \(action.rawValue) rule needs a message", at: actionText!.range)
            }
            if action == .grant, entitlements.isEmpty {
                support.error(.policyMissingKey, "a grant rule needs entitlements, such as [premium]", at: actionText!.range)
            }
            if action == .present, screen == nil {
                support.error(.policyMissingKey, "a present rule needs a screen", at: actionText!.range)
            }
            // The keys written, each asked whether this action uses it: a rule writes a handful of keys. One it
            // does not use is left out of the rule, as the warning says: nothing that reads the rule (a decision,
            // its memory key, a description, a conversion) sees it.
            for keyed in byKey.written where !action.uses(keyed.key) {
                support.report(.warning(.policyIgnoredKey,
                    "a \(action.rawValue) rule does not use \(keyed.key.rawValue); it is ignored",
                    at: byKey.entry(keyed).key.range))
                switch keyed.key {
                case .message: message = nil
                case .url: url = nil
                case .entitlements: entitlements = []
                case .screen: screen = nil
                case .show: show = nil
                case .every: every = nil
                case .id, .when, .then: break
                }
            }
        }
        guard let id, let action, let actionText else { return }
        // One lookup for every rule, which hashes its id once; a second one puts the first back in the rare case of
        // a duplicate.
        if let first = firstByID.updateValue(id.range, forKey: id.value) {
            firstByID[id.value] = first
            support.error(.policyDuplicateRuleID,
                "the rule id \"\(id.value)\" is used twice; rule ids must be unique",
                at: id.range, notes: [.init(message: "first used here", range: first)])
            return
        }
        rules.append(Rule(
            id: id.located, condition: condition, action: Located(action, range: actionText.range),
            message: message?.located, url: url?.located, entitlements: entitlements,
            screen: screen?.located, show: show, every: every, range: node.range))
    }
}

extension Action {
    /// Whether a rule with this action uses the key: every rule uses `id`, `when` and `then`, and every rule that
    /// shows something `show` (a gate's must be `every-launch`); the others belong to some actions only, and are
    /// ignored, with a warning, on the rest.
    fileprivate func uses(_ key: RuleKey) -> Bool {
        switch key {
        case .id, .when, .then: true
        case .show: self != .grant
        case .message: requiresMessage
        case .url: self == .requireUpdate || self == .suggestUpdate
        case .entitlements: self == .grant
        case .screen: self == .present
        case .every: !isGate && self != .grant
        }
    }
}
