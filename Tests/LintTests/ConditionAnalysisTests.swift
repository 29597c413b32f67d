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
        // The reader's alias budget would refuse this; lifted, the linter must still finish at once.
        let linter = PolicyLinter(limits: YAMLLimits(maximumExpandedNodes: .max), now: lintNow)
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
