import Foundation
@testable import LaunchPolicy
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

    /// An entry of `condition` that fails at `context` and must hold for it to: the first failing part of an `all`,
    /// and of an `any` the alternative `choose` picks (the walk's choice for this try, kept by the `any`'s place);
    /// nil when the condition holds, or when what fails is a `not`, which no single entry mends.
    static func failingEntry(
        of condition: Condition, at context: LaunchContext, choose: (SourceRange, Int) -> Int
    ) -> ConditionEntry? {
        var evaluator = ConditionEvaluator(context: context)
        guard !evaluator.holds(condition) else { return nil }
        switch condition {
        case .all(let parts, _):
            for part in parts where !evaluator.holds(part) { return failingEntry(of: part, at: context, choose: choose) }
            return nil
        case .any(let parts, let range):
            return parts.isEmpty ? nil : failingEntry(of: parts[choose(range, parts.count)], at: context, choose: choose)
        case .not: return nil
        case .entry(let entry): return entry
        case .shared(let shared): return failingEntry(of: shared.condition, at: context, choose: choose)
        }
    }

    /// Whether some launch on one of `platforms`, of a version and build above every range here, matches the rule.
    ///
    /// A walk from random launches: while the rule does not match, the key of an entry that fails takes another
    /// value, or leaves the launch. Each try picks one alternative of every `any` and mends the entries of those
    /// alternatives only, as a walk that changed keys at random broke what it had mended: a rule of six entries
    /// under two `any` was not reached in 6,000 steps. Where a `not` fails, a key drawn at random changes. A rule of
    /// many entries is reached this way, where drawing whole launches would take millions of them.
    static func lockedOutLaunch(
        of rule: Int, in policy: Policy, platforms: [String], using random: inout SeededGenerator
    ) -> Bool {
        let updated = ["app-version": "99.0.0", "build": "99999"]
        // The context keys that condition keys test.
        let tested = ["date": "now", "rollout": "install-id"]
        let keys = RandomPolicies.contextValues.map(\.key) + ["attributes"]
        guard let condition = policy.rules[rule].condition else { return true }
        for _ in 0..<100 {
            var fixed = updated
            fixed["platform"] = platforms.randomElement(using: &random)
            guard var launch = RandomPolicies.launch(using: &random, fixed: fixed) else { continue }
            var chosen: [Int: Int] = [:]
            for _ in 0..<60 {
                if policy.evaluate(launch.context).explanation[rule].matched { return true }
                let entry = failingEntry(of: condition, at: launch.context) { range, count in
                    if let index = chosen[range.start.offset] { return index }
                    let index = Int.random(in: 0..<count, using: &random)
                    chosen[range.start.offset] = index
                    return index
                }
                var key = entry.map { tested[$0.key] ?? $0.key } ?? ""
                if updated[key] != nil || !keys.contains(key) {
                    key = keys.filter { updated[$0] == nil }.randomElement(using: &random)!
                }
                var values = launch.values
                switch key {
                case "platform": values[key] = platforms.randomElement(using: &random).map(ContextValue.text)
                case "attributes": values[key] = RandomPolicies.attributes(using: &random)
                default:
                    let choices = RandomPolicies.contextValues.first { $0.key == key }!.values
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
            let yaml = RandomPolicies.policy(using: &random)
            guard let policy = YAMLPolicyParser().parse(Data(yaml.utf8)).usablePolicy else { continue }
            usable += 1
            let diagnostics = linter.lint(Array(yaml.utf8), path: "random.yaml").diagnostics
            var launches: [RandomPolicies.Launch] = []
            while launches.count < 200 {
                if let launch = RandomPolicies.launch(using: &random) { launches.append(launch) }
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
                            \(launch.map { RandomPolicies.described(launches[$0]) } ?? "")
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
                            iteration \(iteration): \(diagnostic) but it holds at \
                            \(launch.map(RandomPolicies.described) ?? "")
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
                            iteration \(iteration): \(diagnostic) but at \(RandomPolicies.described(launches[launch])) \
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

    /// `lint.missing-translation` names, for each message, exactly the locales other messages have for which the
    /// interpreter's fallback reaches none of its translations: users there see its default text. Tags are drawn
    /// in several spellings (case, `_` for `-`) and at several depths (`zh`, `zh-Hant`, `zh-Hant-TW`), and Chinese
    /// by script and by region (`zh-TW` reaches `zh-Hant`, and `zh-Hant-TW` reaches `zh-TW`), and Android's codes
    /// for Hebrew and Indonesian (`iw` reaches `he`).
    @Test func missingTranslationsAreTheLocalesTheFallbackMisses() {
        let tags = ["ja", "ja-JP", "ja_jp", "JA", "pt", "pt-BR", "pt_br", "pt-PT", "zh", "zh-Hant", "zh-Hant-TW",
            "zh-hant-tw", "de", "de-CH-1996", "sr-Latn", "zh-TW", "zh_HK", "zh-Hans", "zh-CN", "zh-Hans-TW",
            "iw", "he-IL", "in", "id"]
        var random = SeededGenerator(seed: 0x7A45_1A7E)
        let linter = PolicyLinter(now: lintNow)
        var claims = 0
        for iteration in 0..<300 {
            var yaml = "policy: 1\nmessages:\n"
            let count = Int.random(in: 2...4, using: &random)
            for message in 0..<count {
                let written = tags.filter { _ in Int.random(in: 0..<4, using: &random) == 0 }
                // Each text names its message and tag, so that a text tells which translation was reached.
                let texts = written.map { ", \($0): \"m\(message)/\($0)\"" }.joined()
                yaml += "  m\(message): {default: \"m\(message)\"\(texts)}\n"
            }
            yaml += "rules:\n" + (0..<count).map { "  - {id: r\($0), then: notify, message: m\($0)}\n" }.joined()
            guard let policy = YAMLPolicyParser().parse(Data(yaml.utf8)).usablePolicy else { continue }
            let diagnostics = linter.lint(Array(yaml.utf8), path: "messages.yaml").diagnostics
            let everyTag = Set(policy.messages.flatMap(\.translations.keys)).subtracting(["default"])
            for message in policy.messages {
                // The locales the check names, by the tags its notes quote.
                let claimed = diagnostics.filter {
                    $0.code == .lintMissingTranslation && $0.range == message.range
                }.flatMap(\.notes).compactMap { note in
                    note.message.range(of: " has ").map { note.message[$0.upperBound...] }
                }
                let expected = everyTag.filter { message.text(for: $0) == message.translations["default"] }
                claims += claimed.count
                // Tags compare case-insensitively, `_` as `-`, and `iw` as `he`, `in` as `id`
                // (docs/policy-language.md): the check names such a locale once, by one of its spellings.
                let locale = { (tag: Substring) in
                    let normalized = tag.lowercased().replacingOccurrences(of: "_", with: "-")
                    let current = ["iw": "he", "in": "id", "ji": "yi"]
                    let language = normalized.prefix { $0 != "-" }
                    return (current[String(language)] ?? String(language)) + normalized.dropFirst(language.count)
                }
                #expect(Set(claimed.map(locale)) == Set(expected.map { locale(Substring($0)) }),
                    "iteration \(iteration): \(message.id)\n\(yaml)")
            }
        }
        #expect(claims >= 100, "only \(claims) missing translations were named")
    }

    /// `lint.missing-update-url` silent means every update a launch is asked for carries a link: random policies
    /// with random `store` sections and a `url` on some update rules are linted, and at launches on every platform
    /// (and on none) each `require-update` gate and `suggest-update` prompt without a URL must come from a rule lint
    /// warned about, or from the exception the check documents: a rule for every platform, when `store` has a URL.
    @Test(arguments: 0..<2)
    func aSilentUpdateURLCheckMeansEveryUpdateHasALink(seed: UInt64) throws {
        var random = SeededGenerator(seed: 0x0071_1A7E &+ seed)
        let linter = PolicyLinter(now: lintNow)
        let platforms: [Platform?] = Platform.allCases + [nil]
        var linkless = 0
        for iteration in 0..<150 {
            var yaml = RandomPolicies.policy(using: &random)
            let store = ["ios", "ipados", "android", "macos"].filter { _ in Bool.random(using: &random) }
            let written = "store: {ios: \"https://a\", ipados: \"https://a\", android: \"https://b\"}"
            yaml = yaml.replacingOccurrences(of: written,
                with: "store: {" + store.map { "\($0): \"https://\($0)\"" }.joined(separator: ", ") + "}")
            for action in ["require-update", "suggest-update"] {
                yaml = yaml.components(separatedBy: "    then: \(action)\n").enumerated().map { index, part in
                    index == 0 || Bool.random(using: &random) ? part : "    url: \"https://rule\"\n" + part
                }.joined(separator: "    then: \(action)\n")
            }
            guard let policy = YAMLPolicyParser().parse(Data(yaml.utf8)).usablePolicy else { continue }
            let warned = Set(linter.lint(Array(yaml.utf8), path: "random.yaml").diagnostics
                .filter { $0.code == .lintMissingUpdateURL }
                .compactMap { warning in policy.rules.firstIndex { $0.action.range == warning.range } })
            var launches: [RandomPolicies.Launch] = []
            while launches.count < 150 {
                let platform = platforms.randomElement(using: &random)!
                let fixed = platform.map { ["platform": $0.rawValue] } ?? [:]
                var launch = RandomPolicies.launch(using: &random, fixed: fixed)
                if platform == nil, var values = launch?.values {
                    values["platform"] = nil
                    launch = (try? LaunchContext(values: values)).map { (values, $0) }
                }
                if let launch { launches.append(launch) }
            }
            for launch in launches {
                let decision = policy.evaluate(launch.context)
                let gates = decision.gate.map { [$0] } ?? []
                let updates = gates.filter { $0.action == .requireUpdate } + decision.prompts
                for update in updates where update.url == nil {
                    linkless += 1
                    let index = try #require(policy.rules.firstIndex { $0.id.value == update.rule })
                    guard !warned.contains(index) else { continue }
                    // The exception: a rule that matches whatever the platform, so at this launch without one too.
                    var values = launch.values
                    values["platform"] = nil
                    let forEveryPlatform = try !store.isEmpty
                        && policy.evaluate(LaunchContext(values: values)).explanation[index].matched
                    #expect(forEveryPlatform, """
                        iteration \(iteration): \(update.rule) has no link at \(RandomPolicies.described(launch)) \
                        and policy-lint said nothing
                        \(yaml)
                        """)
                }
            }
        }
        #expect(linkless >= 20, "updates without a link were seen \(linkless) times")
    }
}
