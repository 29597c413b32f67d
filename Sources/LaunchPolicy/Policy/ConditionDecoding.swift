import Foundation

/// `when:` — a mapping whose entries must all hold, with `all`, `any` and `not` to combine conditions.
///
/// A condition node under a YAML anchor is decoded once, however many aliases repeat it, and becomes a
/// ``SharedCondition``: an alias-heavy policy costs what it costs to write, not what it costs to expand.
///
/// Its tables are keyed by the standard library's types: a table keyed by a type of this module costs an app's first
/// read a scan of every conformance the process holds (BENCHMARKS.md, The first operation in a process).
struct ConditionDecoding {
    let versioning: VersionKind
    /// Anchored nodes already decoded, by position and anchor name (an anchor name may be defined again later).
    private var decodedAnchors: [Int: [String: Condition?]] = [:]
    /// Ranges already read, by text and kind: a policy writes the same bound in many rules (`app-version: "< 2.4"`
    /// for each platform's gate and prompt), and a range is immutable, so one reading serves every rule that writes
    /// it. Only ranges that read without an error are kept; an invalid one is reported where each is written.
    private var readRanges: [String: RangesByKind]

    /// A range text's readings, by the kind it was read as (nearly always one).
    private struct RangesByKind {
        private var marketing, build, versionCode, semver: VersionRange?

        subscript(kind: VersionKind) -> VersionRange? {
            get {
                switch kind {
                case .marketing: marketing
                case .build: build
                case .versionCode: versionCode
                case .semver: semver
                }
            }
            set {
                switch kind {
                case .marketing: marketing = newValue
                case .build: build = newValue
                case .versionCode: versionCode = newValue
                case .semver: semver = newValue
                }
            }
        }
    }

    /// A decoder for conditions read as `versioning` says, with room for `rules` rules' ranges: a policy writes
    /// about one range a rule, and the table is then sized once, not rehashed as it grows.
    init(versioning: VersionKind, rules: Int) {
        self.versioning = versioning
        readRanges = .init(minimumCapacity: rules)
    }

    mutating func condition(_ node: YAMLNode, _ support: inout DecodingSupport) -> Condition? {
        sharing(node) { decoding in decoding.conditionMapping(node, &support) }
    }

    /// Decodes an anchored node once and shares the result; decodes any other node as it is.
    private mutating func sharing(_ node: YAMLNode, _ decode: (inout ConditionDecoding) -> Condition?) -> Condition? {
        guard let anchor = node.anchor else { return decode(&self) }
        let offset = node.range.start.offset
        if let decoded = decodedAnchors[offset]?[anchor] { return decoded }
        let condition = decode(&self).map { Condition.shared(SharedCondition($0, anchor: anchor)) }
        decodedAnchors[offset, default: [:]][anchor] = .some(condition)
        return condition
    }

    private mutating func conditionMapping(_ node: YAMLNode, _ support: inout DecodingSupport) -> Condition? {
        guard let entries = support.conditionMapping(node) else { return nil }
        var parts: [Condition] = []
        parts.reserveCapacity(entries.count)
        // Entry by entry, in the order written: a condition looks up no key, so it needs no table of them. By
        // position, as ``DecodingSupport/entries(_:as:in:)`` walks them.
        for position in entries.indices {
            let entry = entries[position]
            guard let key = DecodingSupport.plainKey(at: position, of: entries, as: ConditionKey.self)
                ?? support.unknownKey(of: entry, among: entries, as: ConditionKey.self, in: "a condition")
            else { continue }
            let range = SourceRange(start: entry.key.range.start, end: entry.value.range.end)
            if let part = self.entry(key, entry.value, range: range, &support) { parts.append(part) }
        }
        return .all(parts, range: node.range)
    }

    private mutating func entry(
        _ conditionKey: ConditionKey, _ value: YAMLNode, range: SourceRange, _ support: inout DecodingSupport
    ) -> Condition? {
        let key = conditionKey.rawValue
        func make(_ test: ConditionEntry.Test) -> Condition {
            .entry(ConditionEntry(key: key, test: test, range: range, valueRange: value.range))
        }
        func versions(_ kind: VersionKind) -> VersionRange? { versionRange(key, value, kind: kind, &support) }
        func choices<Value: WrittenNames>(_ what: String, _ type: Value.Type) -> [Value]? {
            support.oneOrList(value, key) { support, text in support.choice(text, what, as: type) }
        }
        // A text that is not `form` is reported, and kept: the entry still matches the texts that are.
        func texts(checkedBy isValid: (String) -> Bool, as form: String) -> [String]? {
            support.oneOrList(value, key) { support, text in
                if !isValid(text.value) {
                    support.error(.policyInvalidValue, "\"\(text.value)\" is not \(form)", at: text.range)
                }
                return text.value
            }
        }
        switch conditionKey {
        case .platform: return choices("platform", Platform.self).map { make(.platform($0)) }
        case .appVersion: return versions(versioning).map { make(.appVersion($0)) }
        case .previousVersion: return versions(versioning).map { make(.previousVersion($0)) }
        case .installVersion: return versions(versioning).map { make(.installVersion($0)) }
        case .build: return versions(.build).map { make(.build($0)) }
        case .osVersion: return versions(.marketing).map { make(.osVersion($0)) }
        case .originalAppVersion: return versions(.build).map { make(.originalAppVersion($0)) }
        case .launch: return choices("launch kind", LaunchKind.self).map { make(.launch($0)) }
        case .launchCount: return versions(.versionCode).map { make(.launchCount($0)) }
        case .daysSinceLastLaunch: return versions(.versionCode).map { make(.daysSinceLastLaunch($0)) }
        case .daysSinceInstall: return versions(.versionCode).map { make(.daysSinceInstall($0)) }
        case .launchSource: return choices("launch source", LaunchSource.self).map { make(.launchSource($0)) }
        case .locale:
            return texts(checkedBy: ValueSyntax.isLocaleTag, as: "a language tag such as ja or pt-BR")
                .map { make(.locale($0)) }
        case .region:
            return texts(checkedBy: ValueSyntax.isRegionCode, as: ValueSyntax.regionCodeForm).map { make(.region($0)) }
        case .date: return dateWindow(value, &support).map { make(.date(from: $0.from, until: $0.until)) }
        case .rollout:
            guard let text = support.text(value, key) else { return nil }
            guard let percentage = ValueSyntax.percentage(text.value) else {
                support.error(.policyInvalidValue,
                    "rollout: \"\(text.value)\" is not a percentage from 0% to 100%, such as 25%", at: text.range)
                return nil
            }
            return make(.rollout(percentage))
        case .attributes:
            guard let entries = support.mapping(value, key) else { return nil }
            var attributes: [String: [String]] = [:]
            for entry in entries {
                guard let name = support.text(entry.key, "an attribute name"),
                    let values = support.oneOrList(entry.value, "the attribute \(name.value)", { $1.value })
                else { continue }
                attributes[name.value] = values
            }
            return make(.attributes(attributes))
        case .all, .any:
            return sharing(value) { decoding in
                guard let items = support.sequence(value, key) else { return nil }
                let conditions = items.compactMap { decoding.condition($0, &support) }
                let written = value.anchor == nil ? range : value.range
                return conditionKey == .all ? .all(conditions, range: written) : .any(conditions, range: written)
            }
        case .not:
            return condition(value, &support).map { .not($0, range: range) }
        }
    }

    private mutating func versionRange(
        _ key: String, _ node: YAMLNode, kind: VersionKind, _ support: inout DecodingSupport
    ) -> VersionRange? {
        guard let text = support.text(node, key) else { return nil }
        // One lookup of the text, which hashes it, whether the range was read before or not: a text that is not a
        // range leaves an entry with no range, and is read again, and reported again, where it is written again.
        return Self.range(
            of: text, kind: kind, key: key, node: node, in: &readRanges[text.value, default: RangesByKind()], &support)
    }

    /// The range `read` holds for `kind`, or `text` read as one and kept there; nil, reported, when it is not one.
    private static func range(
        of text: WrittenText, kind: VersionKind, key: String, node: YAMLNode, in read: inout RangesByKind,
        _ support: inout DecodingSupport
    ) -> VersionRange? {
        if let range = read[kind] { return range }
        do {
            let range = try VersionRange(text.value, kind: kind)
            read[kind] = range
            return range
        } catch {
            let what = kind == .versionCode ? "a range of whole numbers such as \">= 30\"" : "a \(kind) version range"
            support.error(.policyInvalidRange,
                "\(key) needs \(what): \(error.reason)",
                at: DecodingSupport.range(inside: node, position: error.position))
            return nil
        }
    }

    private func dateWindow(_ node: YAMLNode, _ support: inout DecodingSupport) -> (from: Date?, until: Date?)? {
        guard let entries = support.mapping(node, "date") else { return nil }
        let byKey = support.entries(entries, as: DateWindowKey.self, in: "a date window")
        func bound(_ key: DateWindowKey) -> Located<Date>? {
            guard let text = byKey[key].flatMap({ support.text($0, key.rawValue) }) else { return nil }
            switch ValueSyntax.date(text.value) {
            case .success(let date): return Located(date, range: text.range)
            case .failure(let problem):
                support.error(.policyInvalidDate, "\(key.rawValue): \"\(text.value)\" \(problem.reason)", at: text.range)
                return nil
            }
        }
        let from = bound(.from)
        let until = bound(.until)
        if byKey.isEmpty {
            support.error(.policyMissingKey, "a date window needs from, until, or both", at: node.range)
            return nil
        }
        if let from, let until, from.value >= until.value {
            support.error(.policyInvalidDate, "the date window ends before it starts: until must be after from",
                at: until.range, notes: [.init(message: "it starts here", range: from.range)])
            return nil
        }
        return (from?.value, until?.value)
    }
}
