import Foundation
@testable import LaunchPolicy
import Testing

/// A policy whose condition doubles at each of `depth` levels through aliases: written in a few lines per level,
/// 2^depth entries when expanded.
private func doublingPolicy(depth: Int, holds: Bool) -> String {
    var levels = ["      - &level0 {platform: \(holds ? "ios" : "android")}"]
    for level in 1...depth {
        levels.append("      - &level\(level) {all: [*level\(level - 1), *level\(level - 1)]}")
    }
    return """
        policy: 1
        messages: {m: {default: "m"}}
        rules:
          - id: first
            when:
              any:
        \(levels.joined(separator: "\n"))
            then: notify
            message: m
          - id: second
            when: {not: *level\(depth)}
            then: notify
            message: m
        """
}

@Suite struct AliasTests {
    /// The expanded policy would have 2^40 entries: only sharing lets it decode and evaluate at all.
    private let limits = YAMLLimits(maximumExpandedNodes: .max)

    @Test(arguments: [true, false])
    func anAliasHeavyPolicyDecodesAndEvaluatesInLinearTime(holds: Bool) throws {
        let depth = 40
        let result = YAMLPolicyParser(limits: limits).parse(Data(doublingPolicy(depth: depth, holds: holds).utf8))
        let policy = try #require(result.usablePolicy, "\(result.diagnostics.map { $0.rendered(file: "alias.yaml") })")
        let context = try LaunchContext(platform: .ios)
        var interpreter = Interpreter(context: context, memory: DisplayMemory())
        let decision = interpreter.decide(policy)
        #expect(decision.explanation(of: "first")?.matched == holds)
        #expect(decision.explanation(of: "second")?.matched == !holds)
        // Each written condition is evaluated at most once: per level a shared mapping and its all (three at level
        // 0, with the entry), plus the when, any and not around them. Without sharing it would be 2^40.
        #expect(interpreter.conditions.evaluatedConditions <= 3 * (depth + 1) + 6)
    }

    @Test func aSharedConditionWithARolloutIsDrawnPerRule() throws {
        let policy = try policy("""
            policy: 1
            messages: {m: {default: "m"}}
            rules:
              - {id: a, when: &half {rollout: "50%"}, then: notify, message: m}
              - {id: b, when: *half, then: notify, message: m}
            """)
        var differ = 0
        for index in 0..<200 {
            let decision = policy.evaluate(try LaunchContext(installID: "i\(index)"))
            let expected = ["a", "b"].filter { Rollout.bucket(installID: "i\(index)", ruleID: $0) < 5_000 }
            #expect(decision.notices.map(\.rule) == expected)
            if expected.count == 1 { differ += 1 }
        }
        #expect(differ > 50, "rules a and b draw independent buckets")
    }

    @Test func anErrorInsideAnAnchorIsReportedOnceWhereItIsWritten() {
        let result = YAMLPolicyParser().parse(Data("""
            policy: 1
            messages: {m: {default: "m"}}
            rules:
              - {id: a, when: &bad {app-version: "<< 2"}, then: notify, message: m}
              - {id: b, when: *bad, then: notify, message: m}
              - {id: c, when: {all: [*bad, *bad]}, then: notify, message: m}
            """.utf8))
        #expect(result.diagnostics.map(\.code) == [.policyInvalidRange])
        #expect(result.diagnostics.first?.range.start.line == 4)
    }
}
