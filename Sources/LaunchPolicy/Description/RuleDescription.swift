import Foundation

/// Rules in plain words, for people who review a policy without reading YAML:
///
/// > Blocks iOS users below 2.4 and asks them to update: "Please update Lantern to keep going."
///
/// The words follow the AST, so a description is exactly as precise as the rule: every condition entry becomes a
/// phrase, `any` becomes "either … or …", `not` becomes "except those …".
extension Policy {
    /// Each rule's description, in file order.
    public var ruleDescriptions: [(rule: String, description: String)] {
        Array(describing(rules))
    }

    /// The descriptions of `rules` (rules of this policy), each made when the sequence reaches it: a description
    /// quotes the rule's message, and the descriptions of a policy whose rules show one long message can be far
    /// larger than the policy, so that a tool printing them (`launch-policy explain`) holds one at a time. The
    /// messages are looked up as the interpreter looks them up, in a table once there are many.
    public func describing<Rules: Sequence<Rule>>(_ rules: Rules)
        -> some Sequence<(rule: String, description: String)>
    {
        var messages = IDLookup()
        return rules.lazy.map { rule in (rule.id.value, describe(rule, messages: &messages)) }
    }

    /// One rule in plain words.
    public func describe(_ rule: Rule) -> String {
        var messages = IDLookup()
        return describe(rule, messages: &messages)
    }

    private func describe(_ rule: Rule, messages lookup: inout IDLookup) -> String {
        let words = RuleWords(policy: self)
        let who = words.audience(rule.condition)
        // The message last, in single quotes and with its own punctuation, as a reviewer reads it aloud.
        let message = rule.message.flatMap { lookup.place(of: $0.value, in: messages, id: \.id) }.map { messages[$0] }
        let quoted = message.map { ": '\($0.text(for: nil))'" } ?? "."
        let frequency = words.frequency(rule)
        switch rule.action.value {
        case .block:
            return "Blocks \(who)" + quoted
        case .requireUpdate:
            return "Blocks \(who) and asks them to update" + quoted
        case .suggestUpdate:
            return "Asks \(who) to update, \(frequency)" + quoted
        case .notify:
            return "Tells \(who), \(frequency)" + quoted
        case .present:
            return "Presents the screen '\(rule.screen?.value ?? "?")' to \(who), \(frequency)."
        case .grant:
            let entitlements = rule.entitlements.map { "'\($0.value)'" }
            return "Grants \(RuleWords.list(entitlements, "and")) to \(who)."
        }
    }
}

/// The phrases a description is made of.
struct RuleWords {
    let policy: Policy

    private static let platformNames: [Platform: String] = [
        .ios: "iOS", .ipados: "iPadOS", .macos: "macOS", .tvos: "tvOS", .watchos: "watchOS", .visionos: "visionOS",
        .android: "Android",
    ]

    /// "iOS users below 2.4", "all users", "Android users on their first launch".
    func audience(_ condition: Condition?) -> String {
        guard let condition else { return "all users" }
        var platforms: [Platform]?
        var phrases: [String] = []
        // A top-level platform entry names the users; everything else qualifies them.
        if case .all(let parts, _) = condition {
            for part in parts {
                if case .entry(let entry) = part, case .platform(let named) = entry.test, platforms == nil {
                    platforms = named
                } else {
                    phrases.append(phrase(part))
                }
            }
        } else if case .entry(let entry) = condition, case .platform(let named) = entry.test {
            platforms = named
        } else {
            phrases.append(phrase(condition))
        }
        let users = platforms.map { Self.list($0.map { Self.platformNames[$0] ?? $0.rawValue }, "and") + " users" }
            ?? "users"
        let qualifiers = phrases.filter { !$0.isEmpty }
        return qualifiers.isEmpty ? (platforms == nil ? "all users" : users) : users + " " + Self.list(qualifiers, "and")
    }

    /// One condition as a phrase that follows "users".
    func phrase(_ condition: Condition) -> String {
        switch condition {
        case .all(let parts, _):
            return parts.isEmpty ? "" : Self.list(parts.map(phrase), "and")
        case .any(let parts, _):
            let alternatives = parts.map(phrase)
            return alternatives.count == 1 ? alternatives[0] : "either " + Self.list(alternatives, "or")
        case .not(let inner, _):
            return "except those " + phrase(inner)
        case .shared(let shared):
            return phrase(shared.condition)
        case .entry(let entry):
            return phrase(entry)
        }
    }

    private func phrase(_ entry: ConditionEntry) -> String {
        switch entry.test {
        case .platform(let platforms):
            return "on " + Self.list(platforms.map { Self.platformNames[$0] ?? $0.rawValue }, "or")
        case .appVersion(let range):
            // "below 2.4" reads on its own; "2.0 or later", "from 3.0 up to …" and "matching '4.x'" need a noun.
            let words = Self.range(range)
            if words.hasPrefix("below") || words.hasPrefix("above") { return words }
            return (words.hasPrefix("from") ? "on versions " : "on version ") + words
        case .previousVersion(let range): return "updating from a version " + Self.range(range)
        case .installVersion(let range): return "who installed a version " + Self.range(range)
        case .build(let range): return "on builds " + Self.range(range)
        case .osVersion(let range): return "with an operating system " + Self.range(range)
        case .originalAppVersion(let range): return "who first bought a build " + Self.range(range)
        case .launch(let kinds):
            return "on " + Self.list(kinds.map(Self.launchKind), "or")
        case .launchCount(let range): return "on launch number " + Self.range(range, counting: true)
        case .daysSinceLastLaunch(let range): return "back after " + Self.range(range, counting: true) + " days away"
        case .daysSinceInstall(let range): return "who installed " + Self.range(range, counting: true) + " days ago"
        case .launchSource(let sources): return "opening the app from " + Self.list(sources.map(\.rawValue), "or")
        case .locale(let tags): return "whose language is " + Self.list(tags, "or")
        case .region(let regions): return "in " + Self.list(regions, "or")
        case .date(let from, let until):
            switch (from, until) {
            case (let from?, let until?): return "from \(Self.date(from)) until \(Self.date(until))"
            case (let from?, nil): return "from \(Self.date(from)) on"
            case (nil, let until?): return "until \(Self.date(until))"
            case (nil, nil): return ""
            }
        case .rollout(let percentage):
            return "in a \(percentage.plainText)% rollout"
        case .attributes(let accepted):
            return accepted.keys.sorted().map { "with \($0) " + Self.list(accepted[$0] ?? [], "or") }
                .joined(separator: " and ")
        }
    }

    private static func launchKind(_ kind: LaunchKind) -> String {
        switch kind {
        case .first: "their first launch"
        case .upgrade: "the first launch after an upgrade"
        case .downgrade: "the first launch after a downgrade"
        case .normal: "a launch of the same version as before"
        }
    }

    /// `2026-12-01 02:00 UTC`.
    static func date(_ date: Date) -> String {
        let text = Timestamp.text(date)  // 2026-12-01T02:00:00.000Z
        let day = text.prefix(10)
        let time = text.dropFirst(11).prefix(8)
        return "\(day) \(time.hasSuffix(":00") ? String(time.prefix(5)) : String(time)) UTC"
    }

    /// "below 2.4", "from 2.0 up to but not including 3", "matching '2.4.x'": a range's comparators in words,
    /// alternatives joined by "or"; forms without a plain reading (`~`, `^`, wildcards) are quoted as written.
    /// Counts read as numbers: "30 or more", "fewer than 3".
    static func range(_ range: VersionRange, counting: Bool = false) -> String {
        let alternatives = range.text.components(separatedBy: "||").map { alternative -> String in
            let tokens = alternative.split(separator: " ").map(String.init)
            var words: [String] = []
            var index = 0
            while index < tokens.count {
                var token = tokens[index]
                // "< 2.4" may be written with a space after the operator.
                if ["<", "<=", ">", ">=", "="].contains(token), index + 1 < tokens.count {
                    token += tokens[index + 1]
                    index += 1
                }
                words.append(comparator(token, counting: counting))
                index += 1
            }
            return words.joined(separator: " and ")
        }
        let joined = alternatives.joined(separator: " or ")
        return joined.replacingOccurrences(of: #"^(\S+) or later and below (\S+)$"#,
            with: "from $1 up to but not including $2", options: .regularExpression)
    }

    private static func comparator(_ token: String, counting: Bool) -> String {
        let operators = counting
            ? [(">=", "or more"), ("<=", "or fewer"), (">", "more than"), ("<", "fewer than"), ("=", "")]
            : [(">=", "or later"), ("<=", "or earlier"), (">", "above"), ("<", "below"), ("=", "")]
        for (op, words) in operators {
            guard token.hasPrefix(op) else { continue }
            let operand = String(token.dropFirst(op.count))
            switch op {
            case ">=", "<=": return "\(operand) \(words)"
            case "=": return operand
            default: return "\(words) \(operand)"
            }
        }
        return token.contains(where: { "~^*xX".contains($0) }) ? "matching '\(token)'" : token
    }

    /// "once", "once per app version", "on every launch, at most every 7 days".
    func frequency(_ rule: Rule) -> String {
        let base: String
        switch rule.show {
        case .once: base = "once"
        case .oncePerVersion: base = "once per app version"
        case .everyLaunch: base = "on every launch"
        }
        guard let every = rule.every?.value else { return base }
        return base + ", at most every " + Self.duration(every)
    }

    /// The largest unit of which the duration is a whole number: `3 days`, `day`, `90 minutes`, `2.5 seconds`. A count
    /// no `Int` holds (`every: 100000000000000000000000d` is a valid policy) is written as the number it is,
    /// `1e+23 days`.
    static func duration(_ seconds: TimeInterval) -> String {
        for (unit, length) in [("day", 86_400.0), ("hour", 3_600.0), ("minute", 60.0)] where seconds >= length
            && (seconds / length).rounded() == seconds / length
        {
            return seconds == length ? unit : "\((seconds / length).plainText) \(unit)s"
        }
        return "\(seconds.plainText) seconds"
    }

    /// "a", "a and b", "a, b and c".
    static func list(_ items: [String], _ conjunction: String) -> String {
        switch items.count {
        case 0: return ""
        case 1: return items[0]
        default: return items.dropLast().joined(separator: ", ") + " \(conjunction) " + items[items.count - 1]
        }
    }
}
