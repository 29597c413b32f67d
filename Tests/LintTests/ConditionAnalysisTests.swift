import Foundation
import LaunchPolicy
import Testing

/// The analysis behind the reachability checks stays sound and small on large or hostile conditions.
@Suite struct ConditionAnalysisTests {
    @Test func aConditionDoublingThroughAliasesIsAnalysedQuickly() {
        // 30 levels of `all: [*prev, *prev]`: 2^30 entries once expanded; the analysis must see each anchor once.
        var yaml = "policy: 1\nmessages: {hi: {default: \"Hi.\"}}\nrules:\n  - id: deep\n    when:\n      all:\n"
        var anchors = "        - &l0 {platform: ios, not: {region: [\"NO\"]}}\n"
        for level in 1...30 { anchors += "        - &l\(level) {all: [*l\(level - 1), *l\(level - 1)]}\n" }
        yaml += anchors + "    then: notify\n    message: hi\n"
        // The reader's alias budget and depth (60 levels expanded) would refuse this; lifted, the linter must still
        // finish at once.
        let linter = PolicyLinter(limits: YAMLLimits(maximumDepth: 100, maximumExpandedNodes: .max), now: lintNow)
        let diagnostics = linter.lint(Array(yaml.utf8), path: "deep.yaml").diagnostics
        #expect(!diagnostics.containsErrors, "\(diagnostics.prefix(3).map(\.description))")
        #expect(findings(.lintNeverMatches, diagnostics).isEmpty)
        #expect(findings(.lintUnusedMessage, diagnostics).isEmpty)
    }

    @Test func tooManyAlternativesAreLeftUnanalysedRatherThanGuessed() {
        // 20 `any` lists of 2 under one `all`: 2^20 alternatives, more than the analysis expands.
        var yaml = "policy: 1\nstore: {ios: \"https://a\"}\nmessages: {hi: {default: \"Hi.\"}}\nrules:\n"
        yaml += "  - id: wide\n    when:\n      all:\n"
        for index in 0..<20 { yaml += "        - any: [{launch-count: \"> \(index)\"}, {region: [NO]}]\n" }
        yaml += "    then: block\n    message: hi\n"
        yaml += "  - id: later\n    when: {launch-count: \"> 100\", region: [\"NO\"]}\n    then: block\n    message: hi\n"
        let diagnostics = lint(yaml.replacingOccurrences(of: "[NO]", with: "[\"NO\"]"))
        #expect(!diagnostics.containsErrors, "\(diagnostics.prefix(3).map(\.description))")
        #expect(findings(.lintShadowedRule, diagnostics).isEmpty, "not analysed, so not claimed")
        #expect(findings(.lintLockout, diagnostics).map(\.range.start.line) == [32], "the simple later rule still is")
    }
}

/// Shadowing, requirement kind by requirement kind: an earlier gate shadows a later one exactly when every context the
/// later one matches, the earlier one matches too. Each row is one pair of `when` conditions (an empty one is a rule
/// without `when`) and whether the later rule is reported; the quick test on what each branch requires must never
/// turn down a pair that contains the other.
@Suite struct ShadowingTableTests {
    struct Row: CustomTestStringConvertible, Sendable {
        let earlier: String
        let later: String
        let shadowed: Bool
        var testDescription: String { "\(earlier) \(shadowed ? "shadows" : "does not shadow") \(later)" }
    }

    static let rows: [Row] = [
        Row(earlier: "", later: "{platform: ios, region: [SE]}", shadowed: true),
        Row(earlier: "{platform: ios}", later: "", shadowed: false),
        Row(earlier: "{platform: [ios, android]}", later: "{platform: ios}", shadowed: true),
        Row(earlier: "{platform: ios}", later: "{platform: [ios, android]}", shadowed: false),
        Row(earlier: "{platform: android}", later: "{platform: ios}", shadowed: false),
        Row(earlier: "{region: [SE, DK]}", later: "{region: [se], launch: first}", shadowed: true),
        Row(earlier: "{region: [SE], launch: first}", later: "{region: [SE]}", shadowed: false),
        Row(earlier: "{launch: [first, upgrade]}", later: "{launch: upgrade}", shadowed: true),
        Row(earlier: "{launch-source: url}", later: "{launch-source: [url, shortcut]}", shadowed: false),
        Row(earlier: "{launch-source: [url, shortcut]}", later: "{launch-source: url, platform: ios}", shadowed: true),
        Row(earlier: "{launch-count: \">= 3\"}", later: "{launch-count: \">= 5\", platform: ios}", shadowed: true),
        Row(earlier: "{launch-count: \">= 5\"}", later: "{launch-count: \">= 3\"}", shadowed: false),
        Row(earlier: "{launch-count: \">= 3\"}", later: "{days-since-install: \">= 3\"}", shadowed: false),
        Row(earlier: "{app-version: \"< 3\"}", later: "{app-version: \"< 2\", build: \"< 10\"}", shadowed: true),
        Row(earlier: "{build: \"< 10\"}", later: "{app-version: \"< 2\"}", shadowed: false),
        Row(earlier: "{os-version: \"< 17\"}", later: "{os-version: \"< 16\"}", shadowed: true),
        Row(earlier: "{previous-version: \"< 2\"}", later: "{install-version: \"< 2\"}", shadowed: false),
        Row(earlier: "{original-app-version: \"< 100\"}", later: "{original-app-version: \"< 50\"}", shadowed: true),
        Row(earlier: "{days-since-last-launch: \">= 7\"}", later: "{days-since-last-launch: \">= 30\"}", shadowed: true),
        Row(earlier: "{locale: [pt]}", later: "{locale: [pt-BR]}", shadowed: true),
        Row(earlier: "{locale: [pt-BR]}", later: "{locale: [pt]}", shadowed: false),
        // A locale with a script holds the tag without it (`zh-Hans-CN` holds `zh-CN`), and Chinese without a script
        // holds its region's (`zh-TW` holds `zh-Hant`); but `zh-Hans-TW` holds `zh-TW` and not `zh-Hant`.
        Row(earlier: "{locale: [zh-CN]}", later: "{locale: [zh-Hans-CN]}", shadowed: true),
        Row(earlier: "{locale: [sr-RS]}", later: "{locale: [sr_Latn_RS, sr-Cyrl-RS-x-test]}", shadowed: true),
        Row(earlier: "{locale: [zh-Hans-CN]}", later: "{locale: [zh-CN]}", shadowed: false),
        Row(earlier: "{locale: [zh-Hant]}", later: "{locale: [zh-TW]}", shadowed: false),
        Row(earlier: "{locale: [zh-TW]}", later: "{locale: [zh-Hant]}", shadowed: false),
        Row(earlier: "{locale: [zh]}", later: "{locale: [zh-Hant-TW]}", shadowed: true),
        Row(earlier: "{locale: [zh-Hans]}", later: "{locale: [zh]}", shadowed: false),
        Row(earlier: "{date: {from: \"2026-12-01T00:00:00Z\"}}",
            later: "{date: {from: \"2026-12-02T00:00:00Z\", until: \"2026-12-03T00:00:00Z\"}}", shadowed: true),
        Row(earlier: "{date: {until: \"2026-12-03T00:00:00Z\"}}", later: "{date: {from: \"2026-12-01T00:00:00Z\"}}",
            shadowed: false),
        Row(earlier: "{attributes: {plan: [pro, team]}}", later: "{attributes: {plan: pro}, launch: upgrade}",
            shadowed: true),
        Row(earlier: "{attributes: {plan: pro}}", later: "{attributes: {tier: pro}}", shadowed: false),
        // Entries of one kind in a branch are met together: their values intersect, name by name.
        Row(earlier: "{attributes: {plan: [pro, team]}}",
            later: "{all: [{attributes: {plan: [pro, free]}}, {attributes: {plan: [team, pro]}}]}", shadowed: true),
        Row(earlier: "{attributes: {plan: team}}",
            later: "{all: [{attributes: {plan: [pro, team]}}, {attributes: {tier: gold}}]}", shadowed: false),
        Row(earlier: "{attributes: {plan: pro, tier: gold}}",
            later: "{all: [{attributes: {plan: [pro, team]}}, {attributes: {tier: gold, plan: pro}}]}", shadowed: true),
        Row(earlier: "{region: [DK]}", later: "{all: [{region: [SE, DK]}, {region: [dk, \"NO\"]}]}", shadowed: true),
        Row(earlier: "{region: [SE]}", later: "{all: [{region: [SE, DK]}, {region: [dk, se]}]}", shadowed: false),
        // Long lists are compared through a set: the same answers.
        Row(earlier: "{region: [AT, BE, CH, DE, DK, ES, FI, FR, IE, IT, NL, SE]}",
            later: "{region: [se, dk, fi, ie, nl, be, at, ch]}", shadowed: true),
        Row(earlier: "{region: [AT, BE, CH, DE, DK, ES, FI, FR, IE, IT, NL, SE]}",
            later: "{region: [se, dk, fi, ie, nl, be, at, GB]}", shadowed: false),
        // Two long lists of one attribute in a branch intersect through a set too.
        Row(earlier: "{attributes: {plan: [a, b, c, d, e, f, g, h, i, j]}}",
            later: "{all: [{attributes: {plan: [j, i, h, g, f, e, d, c, x]}},"
                + " {attributes: {plan: [c, d, e, f, g, h, i, j, x]}}]}",
            shadowed: false),
        Row(earlier: "{attributes: {plan: [a, b, c, d, e, f, g, h, i, j, z]}}",
            later: "{all: [{attributes: {plan: [j, i, h, g, f, e, d, c, x]}},"
                + " {attributes: {plan: [c, d, e, f, g, h, i, j, w]}}]}",
            shadowed: true),
        Row(earlier: "{rollout: 50%}", later: "{rollout: 50%}", shadowed: false),
        Row(earlier: "{platform: ios}", later: "{platform: ios, rollout: 10%}", shadowed: true),
        Row(earlier: "{not: {region: [SE]}}", later: "{platform: ios, not: {region: [SE]}}", shadowed: false),
        Row(earlier: "{platform: ios}", later: "{platform: ios, not: {region: [SE]}}", shadowed: true),
        Row(earlier: "{any: [{platform: ios}, {region: [SE]}]}", later: "{region: [SE], launch: first}", shadowed: true),
        Row(earlier: "{platform: ios}", later: "{any: [{platform: ios}, {region: [SE]}]}", shadowed: false),
        // Ranges of one kind in a branch are met together: by the interval they share when each is plain, and
        // range by range when one has alternatives or an exclusion.
        Row(earlier: "{all: [{app-version: \">= 2\"}, {app-version: \"< 5\"}]}", later: "{app-version: \">= 3 < 4\"}",
            shadowed: true),
        Row(earlier: "{all: [{app-version: \">= 2\"}, {app-version: \"< 5\"}]}", later: "{app-version: \">= 3 < 6\"}",
            shadowed: false),
        Row(earlier: "{app-version: \"< 5\"}", later: "{all: [{app-version: \">= 1\"}, {app-version: \"< 4\"}]}",
            shadowed: true),
        Row(earlier: "{app-version: \"< 3\"}", later: "{all: [{app-version: \">= 1\"}, {app-version: \"< 4\"}]}",
            shadowed: false),
        Row(earlier: "{app-version: \"< 2 || >= 4\"}", later: "{app-version: \">= 5\"}", shadowed: true),
        Row(earlier: "{app-version: \"< 2 || >= 4\"}", later: "{app-version: \">= 3\"}", shadowed: false),
        Row(earlier: "{all: [{app-version: \"!= 3\"}, {app-version: \"< 9\"}]}", later: "{app-version: \">= 4 < 5\"}",
            shadowed: true),
        Row(earlier: "{all: [{app-version: \"!= 3\"}, {app-version: \"< 9\"}]}", later: "{app-version: \"3.1 - 4\"}",
            shadowed: false),
    ]

    @Test(arguments: rows) func aLaterGateIsShadowedExactlyWhenTheEarlierContainsIt(_ row: Row) {
        func when(_ condition: String) -> String { condition.isEmpty ? "" : "    when: \(condition)\n" }
        let yaml = "policy: 1\nstore: {ios: \"https://a\", android: \"https://b\"}\nmessages: {up: {default: \"Up.\"}}\n"
            + "rules:\n  - id: earlier\n" + when(row.earlier) + "    then: block\n    message: up\n"
            + "  - id: later\n" + when(row.later) + "    then: block\n    message: up\n"
        let diagnostics = lint(yaml)
        #expect(!diagnostics.containsErrors, "\(diagnostics.map(\.description))")
        let shadowed = findings(.lintShadowedRule, diagnostics)
        #expect(shadowed.count == (row.shadowed ? 1 : 0), "\(shadowed.map(\.description))")
    }
}

/// When several earlier gates contain a later one, the shadowing finding names the first of them in the file.
@Suite struct ShadowingCandidateTests {
    @Test func theFirstContainingRuleInFileOrderIsNamed() {
        // `app-early` contains nothing; `ios` and `app-late` both contain `narrow`, and they differ in what they
        // require, so a check that sorted or grouped earlier rules by that could name `app-late`.
        let yaml = """
            policy: 1
            store: {ios: "https://a", android: "https://b"}
            messages: {up: {default: "Up."}}
            rules:
              - {id: app-early, when: {app-version: "< 1"}, then: require-update, message: up}
              - {id: ios, when: {platform: ios}, then: require-update, message: up}
              - {id: app-late, when: {app-version: "< 5"}, then: require-update, message: up}
              - {id: narrow, when: {platform: ios, app-version: "< 2"}, then: require-update, message: up}
            """
        let diagnostics = lint(yaml)
        #expect(!diagnostics.containsErrors, "\(diagnostics.map(\.description))")
        let shadowed = findings(.lintShadowedRule, diagnostics)
        #expect(shadowed.count == 1, "\(shadowed.map(\.description))")
        #expect(shadowed.first?.message.hasPrefix("the earlier require-update rule \"ios\" matches whenever \"narrow\"") == true,
            "\(shadowed.map(\.message))")
    }
}
