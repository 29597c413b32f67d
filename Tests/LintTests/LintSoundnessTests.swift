import Foundation
import LaunchPolicy
import Testing
import TestSupport

/// What policy-lint's semantic warnings claim, held to what the interpreter does. A team deletes a rule lint calls
/// dead, or moves one it calls shadowed, so a claim that is wrong costs them a rule that mattered. Random policies
/// are linted, and every claim of three checks is tried against launches drawn from the values their ranges turn on:
///
/// - `lint.never-matches` on a part every match needs (the rule's condition, or a part of an `all` in it): the rule
///   matches at no launch; on a range, wherever it is written: its entry alone holds at no launch;
/// - `lint.shadowed-rule`: at every launch where the rule matches, the earlier rule its note names matches too;
/// - `lint.lockout`: on a platform it names, some launch of a version and build above every range still matches
///   the rule. The claim is that some users are locked out for good, not every user the rule matches (a rule whose
///   `any` has a branch with a version range an update leaves is reported for its other branch), so it is tried by
///   a search among launches after such an update.
@Suite struct LintSoundnessTests {
    /// One value or range of each condition key, most of them near the edges of the others, and a few that read
    /// the same text two ways (`2` and `2.0.0`, a prerelease, a missing field under `not`).
    static let entries: [(key: String, values: [String])] = [
        ("platform", ["ios", "android", "[ios, android]", "ipados"]),
        ("app-version", ["\"< 2\"", "\"< 2.4\"", "\">= 2\"", "\">= 2.4 < 3\"", "\"2.x\"", "\"<= 2.4\"", "\"> 2.4\"",
            "\"2.4.1\"", "\"!= 2.4.1\"", "\"*\"", "\"1.x || >= 3\"", "\">= 3 < 2\"", "\"2.4 - 2.6\"",
            "\">= 2.4.0-rc.1 < 2.5\"", "\"< 3.0.0-0\"", "\"^2.4\"", "\"~2.4.0\"", "\"< 2.4.0-rc.1\"", "\"2.4.x\"",
            "\"> 2.4.0-beta <= 2.4.0\"",
            // Ranges at the edge of empty: empty for one versioning and not the other, or only by a version's
            // successor.
            "\"> 2.4.1 < 2.4.2\"", "\">= 2.5 < 2.5.0\"", "\">= 2.4.1 <= 2.4.1\"", "\"< 0\"", "\"2.4.1 - 2.4.0\""]),
        ("previous-version", ["\"< 2\"", "\">= 2.4\"", "\"2.x\""]),
        ("install-version", ["\"< 2.4\"", "\">= 2\""]),
        ("build", ["\"< 100\"", "\">= 100\"", "\"50 - 150\"", "\"!= 100\"", "\"> 150\""]),
        ("os-version", ["\"< 15\"", "\">= 16.2\""]),
        ("original-app-version", ["\"< 140\"", "\">= 140\""]),
        ("launch", ["first", "upgrade", "[downgrade, normal]"]),
        ("launch-count", ["\"< 3\"", "\">= 3\"", "\"1\"", "\"> 10\""]),
        ("days-since-last-launch", ["\"< 7\"", "\">= 30\""]),
        ("days-since-install", ["\"< 7\"", "\">= 7\""]),
        ("launch-source", ["organic", "[url, shortcut]"]),
        ("locale", ["ja", "[pt-BR, de]", "pt", "[pt-br, ja_JP]"]),
        ("region", ["\"NO\"", "[SE, JP]", "[se]"]),
        ("date", ["{until: \"2026-11-01T00:00:00Z\"}",
            "{from: \"2026-12-01T00:00:00Z\", until: \"2026-12-20T00:00:00Z\"}", "{from: \"2026-12-01T00:00:00Z\"}",
            "{until: \"2026-12-01T06:00:00Z\"}"]),
        ("rollout", ["\"0%\"", "\"50%\"", "\"100%\""]),
        ("attributes", ["{plan: pro}", "{plan: [free, trial]}", "{plan: [pro, team], tier: gold}"]),
    ]

    /// The values a launch may have, key by key: those each range above turns on and those beside them.
    static let contextValues: [(key: String, values: [String])] = [
        ("platform", ["ios", "android", "ipados"]),
        ("app-version", ["1.0", "1.9.9", "2", "2.0.0", "2.3.9", "2.4", "2.4.0-beta", "2.4.0-rc.1", "2.4.0", "2.4.1",
            "2.5", "2.6.0", "2.6.1", "2.9.9", "3.0.0-alpha", "3", "3.1", "10.0", "2.4.0-beta.2", "2.4.9",
            "2.4.2-0", "2.4.2-alpha", "0", "0.0.0", "2.5.0-rc.1"]),
        // Versions as both versionings read them: a SemVer policy's ranges hold only versions of three parts.
        ("previous-version", ["1.0", "1.0.0", "1.9.9", "2", "2.0.0", "2.3.9", "2.4", "2.4.0", "2.4.1", "3.0.0"]),
        ("install-version", ["1.0", "1.0.0", "2.0.0", "2.4", "2.4.0", "2.5", "2.5.0"]),
        ("build", ["49", "50", "99", "100", "101", "150", "151"]),
        ("os-version", ["14.9", "15", "16.2", "17"]),
        ("original-app-version", ["139", "140", "141"]),
        ("launch", ["first", "upgrade", "downgrade", "normal"]),
        ("launch-count", ["0", "1", "2", "3", "10", "11"]),
        ("days-since-last-launch", ["0", "6", "7", "29", "30"]),
        ("days-since-install", ["0", "6", "7", "8"]),
        ("launch-source", ["organic", "url", "shortcut", "other"]),
        ("locale", ["ja", "ja-JP", "pt", "pt-BR", "pt-PT", "de", "en"]),
        ("region", ["NO", "SE", "JP", "US"]),
        ("now", ["2026-10-31T23:59:59Z", "2026-11-01T00:00:00Z", "2026-11-20T12:00:00Z", "2026-12-01T00:00:00Z",
            "2026-12-01T05:59:59Z", "2026-12-01T06:00:00Z", "2026-12-19T23:59:59Z", "2026-12-20T00:00:00Z"]),
        ("install-id", ["a", "b", "c", "d", "e", "f", "g", "h"]),
    ]

    /// A condition as a flow mapping: entries with different keys, and now and then `all`, `any` or `not` around
    /// smaller conditions, so that claims are made about parts at every depth.
    static func condition(depth: Int, using random: inout SeededGenerator) -> String {
        var parts: [String] = []
        var keys = Set<String>()
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let entry = entries.randomElement(using: &random)!
            guard keys.insert(entry.key).inserted else { continue }
            parts.append("\(entry.key): \(entry.values.randomElement(using: &random)!)")
        }
        if depth < 2, Int.random(in: 0..<3, using: &random) == 0 {
            let combinator = ["all", "any", "not"].randomElement(using: &random)!
            let inner = { (random: inout SeededGenerator) in condition(depth: depth + 1, using: &random) }
            switch combinator {
            case "not": parts.append("not: \(inner(&random))")
            default: parts.append("\(combinator): [\(inner(&random)), \(inner(&random))]")
            }
        }
        return "{" + parts.joined(separator: ", ") + "}"
    }

    /// A policy of rules whose conditions share keys and values, so that they contain and contradict each other; on
    /// either versioning, and with conditions written once under an anchor and used again through aliases.
    static func policy(using random: inout SeededGenerator) -> String {
        var yaml = "policy: 1\nstore: {ios: \"https://a\", ipados: \"https://a\", android: \"https://b\"}\n"
        if Bool.random(using: &random) { yaml += "versioning: semver\n" }
        yaml += "messages:\n  m: {default: \"x\"}\nrules:\n"
        var anchors = 0
        for index in 0..<Int.random(in: 2...7, using: &random) {
            let action = ["block", "require-update", "suggest-update", "notify", "grant"].randomElement(using: &random)!
            yaml += "  - id: r\(index)\n"
            switch Int.random(in: 0..<10, using: &random) {
            case 0: break
            case 1 where anchors > 0: yaml += "    when: *c\(Int.random(in: 0..<anchors, using: &random))\n"
            case 2 where anchors > 0:
                let alias = "*c\(Int.random(in: 0..<anchors, using: &random))"
                yaml += "    when: {all: [\(alias), \(condition(depth: 1, using: &random))]}\n"
            case 3:
                yaml += "    when: &c\(anchors) \(condition(depth: 0, using: &random))\n"
                anchors += 1
            default: yaml += "    when: \(condition(depth: 0, using: &random))\n"
            }
            yaml += "    then: \(action)\n" + (action == "grant" ? "    entitlements: [e]\n" : "    message: m\n")
        }
        return yaml
    }

    /// A launch: each key present or not, so that missing fields, which make their entries false, are tried too.
    /// `fixed` holds values every such launch has.
    static func launch(using random: inout SeededGenerator, fixed: [String: String] = [:]) -> Launch? {
        var values: [String: ContextValue] = fixed.mapValues { .text($0) }
        for (key, choices) in contextValues where fixed[key] == nil
            && (Int.random(in: 0..<6, using: &random) > 0 || key == "now")
        {
            values[key] = .text(choices.randomElement(using: &random)!)
        }
        values["attributes"] = randomAttributes(using: &random)
        return (try? LaunchContext(values: values)).map { (values, $0) }
    }

    /// An app's attributes: a plan, a tier, both or none.
    static func randomAttributes(using random: inout SeededGenerator) -> ContextValue? {
        var attributes: [String: String] = [:]
        if Bool.random(using: &random) { attributes["plan"] = ["pro", "free", "team"].randomElement(using: &random)! }
        if Bool.random(using: &random) { attributes["tier"] = ["gold", "silver"].randomElement(using: &random)! }
        return attributes.isEmpty ? nil : .map(attributes)
    }

    /// Every entry of `condition`, under `any` and `not` too.
    static func entries(of condition: Condition) -> [ConditionEntry] {
        switch condition {
        case .all(let parts, _), .any(let parts, _): parts.flatMap(entries(of:))
        case .not(let part, _): entries(of: part)
        case .entry(let entry): [entry]
        case .shared(let shared): entries(of: shared.condition)
        }
    }

    /// The policy with one rule, which holds when `entry` does.
    static func alone(_ entry: ConditionEntry, in policy: Policy) -> Policy {
        var alone = policy
        let range = entry.range
        alone.rules = [Rule(id: Located("alone", range: range), condition: .entry(entry),
            action: Located(.grant, range: range), entitlements: [Located("e", range: range)], range: range)]
        return alone
    }

    /// A launch's values as written, and the context made of them.
    typealias Launch = (values: [String: ContextValue], context: LaunchContext)

    /// A launch's values as a failure names them: `app-version=2.4.1 platform=ios`.
    static func described(_ launch: Launch) -> String {
        launch.values.sorted { $0.key < $1.key }.map { key, value in
            switch value {
            case .text(let text): "\(key)=\(text)"
            case .list(let items): "\(key)=\(items)"
            case .map(let map): "\(key)=\(map.sorted { $0.key < $1.key })"
            }
        }.joined(separator: " ")
    }

    /// The ranges of the parts of `condition` that every match needs: itself, and down through `all` (a `when`
    /// mapping is one) and shared conditions, each part and each entry's value.
    static func neededParts(of condition: Condition, into ranges: inout Set<SourceRange>) {
        ranges.insert(condition.range)
        switch condition {
        case .all(let parts, _): for part in parts { neededParts(of: part, into: &ranges) }
        case .entry(let entry): ranges.insert(entry.valueRange)
        case .shared(let shared): neededParts(of: shared.condition, into: &ranges)
        case .any, .not: break
        }
    }

    /// The platforms a lockout warning names: `on ios and android`, or every platform.
    static func platforms(in diagnostic: Diagnostic) -> [String] {
        let message = diagnostic.message
        guard let start = message.range(of: " on "),
            let end = message.range(of: " and no date window", range: start.upperBound..<message.endIndex)
        else { return [] }
        let names = message[start.upperBound..<end.lowerBound]
        if names == "every platform" { return Platform.allCases.map(\.rawValue) }
        return names.replacingOccurrences(of: " and ", with: ", ").components(separatedBy: ", ")
    }

    /// Whether some launch on one of `platforms`, of a version and build above every range here, matches the rule.
    ///
    /// A walk from random launches: while the rule does not match, the key its finding names (the entry that
    /// failed) takes another value, or leaves the launch; for `any`, `all` and `not`, a key drawn at random does. A
    /// rule of many entries is reached this way, where drawing whole launches would take millions of them.
    static func lockedOutLaunch(
        of rule: Int, in policy: Policy, platforms: [String], using random: inout SeededGenerator
    ) -> Bool {
        let updated = ["app-version": "99.0.0", "build": "99999"]
        // The context keys that condition keys test.
        let tested = ["date": "now", "rollout": "install-id"]
        for _ in 0..<100 {
            var fixed = updated
            fixed["platform"] = platforms.randomElement(using: &random)
            guard var launch = launch(using: &random, fixed: fixed) else { continue }
            for _ in 0..<60 {
                guard case .notMatched(let finding) = policy.evaluate(launch.context).explanation[rule].outcome else {
                    return true
                }
                var key = tested[finding.key] ?? finding.key
                if updated[key] != nil || !(contextValues.contains { $0.key == key } || key == "attributes") {
                    key = (contextValues.map(\.key) + ["attributes"]).filter { updated[$0] == nil }
                        .randomElement(using: &random)!
                }
                var values = launch.values
                switch key {
                case "platform": values[key] = platforms.randomElement(using: &random).map(ContextValue.text)
                case "attributes": values[key] = randomAttributes(using: &random)
                default:
                    let choices = contextValues.first { $0.key == key }!.values
                    values[key] = Int.random(in: 0..<8, using: &random) == 0
                        ? nil : .text(choices.randomElement(using: &random)!)
                }
                if let context = try? LaunchContext(values: values) { launch = (values, context) }
            }
        }
        return false
    }

    /// Four seeds, so that the work is shared among processors.
    @Test(arguments: 0..<4)
    func neverMatchesShadowedAndLockoutClaimsHold(seed: UInt64) {
        var random = SeededGenerator(seed: 0x5011_D0C5 &+ seed)
        let linter = PolicyLinter(now: lintNow)
        // How often each claim was put to the test: a claim checked at no launch where it could fail proves nothing.
        var tried: [String: Int] = [:]
        var usable = 0
        for iteration in 0..<100 {
            let yaml = Self.policy(using: &random)
            guard let policy = YAMLPolicyParser().parse(Data(yaml.utf8)).usablePolicy else { continue }
            usable += 1
            let diagnostics = linter.lint(Array(yaml.utf8), path: "random.yaml").diagnostics
            var launches: [Launch] = []
            while launches.count < 200 {
                if let launch = Self.launch(using: &random) { launches.append(launch) }
            }
            let matches = launches.map { launch in policy.evaluate(launch.context).explanation.map(\.matched) }
            let rule = { (range: SourceRange) in policy.rules.firstIndex { $0.id.range == range } }
            for diagnostic in diagnostics {
                switch diagnostic.code.rawValue {
                case "lint.never-matches":
                    for (index, candidate) in policy.rules.enumerated() {
                        var needed = Set<SourceRange>()
                        if let condition = candidate.condition { Self.neededParts(of: condition, into: &needed) }
                        guard needed.contains(diagnostic.range) else { continue }
                        tried["never-matches", default: 0] += 1
                        let launch = matches.firstIndex { $0[index] }
                        #expect(launch == nil, """
                            iteration \(iteration): \(diagnostic) but \(candidate.id.value) matches at \
                            \(launch.map { Self.described(launches[$0]) } ?? "")
                            \(yaml)
                            """)
                    }
                    // A range that matches no version, wherever it is written: its entry alone holds at no launch.
                    let written = policy.rules.compactMap(\.condition).flatMap(Self.entries(of:))
                    for entry in written where entry.valueRange == diagnostic.range {
                        tried["never-matches (range)", default: 0] += 1
                        let alone = Self.alone(entry, in: policy)
                        let launch = launches.first { alone.evaluate($0.context).explanation[0].matched }
                        #expect(launch == nil, """
                            iteration \(iteration): \(diagnostic) but it holds at \(launch.map(Self.described) ?? "")
                            \(yaml)
                            """)
                    }
                case "lint.shadowed-rule":
                    guard let later = rule(diagnostic.range), let note = diagnostic.notes.first,
                        let earlier = rule(note.range)
                    else {
                        Issue.record("iteration \(iteration): \(diagnostic) names no rule")
                        continue
                    }
                    for (launch, matched) in matches.enumerated() where matched[later] {
                        tried["shadowed-rule", default: 0] += 1
                        #expect(matched[earlier], """
                            iteration \(iteration): \(diagnostic) but at \(Self.described(launches[launch])) \
                            r\(later) matches and r\(earlier) does not
                            \(yaml)
                            """)
                    }
                case "lint.lockout":
                    guard let locked = policy.rules.firstIndex(where: { $0.action.range == diagnostic.range }) else {
                        Issue.record("iteration \(iteration): \(diagnostic) is not at a rule's action")
                        continue
                    }
                    tried["lockout", default: 0] += 1
                    let found = Self.lockedOutLaunch(of: locked, in: policy, platforms: Self.platforms(in: diagnostic),
                        using: &random)
                    #expect(found, "iteration \(iteration): \(diagnostic) but an update lets everyone in\n\(yaml)")
                default: break
                }
            }
        }
        #expect(usable >= 70, "most random policies decode: \(usable)")
        for claim in ["never-matches", "never-matches (range)", "shadowed-rule", "lockout"] {
            #expect((tried[claim] ?? 0) >= 5, "\(claim) was tried \(tried[claim] ?? 0) times")
        }
    }
}
