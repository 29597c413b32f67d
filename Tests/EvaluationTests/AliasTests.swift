import Foundation
@testable import LaunchPolicy
import Testing

/// A policy whose rule `first` lists, under `list`, the anchors `&level0` (`base`) to `&levelN`, each `step` of an
/// alias of the one before; rule `second`'s condition is `last` of an alias of `&levelN`. A few lines per level,
/// however large or deep the conditions are once their aliases are expanded.
private func anchoredLevels(
    _ count: Int, base: String, step: (String) -> String, list: String, last: (String) -> String = { $0 }
) -> String {
    let levels = ["      - &level0 \(base)"] + (1...count).map { "      - &level\($0) \(step("*level\($0 - 1)"))" }
    return """
        policy: 1
        messages: {m: {default: "m"}}
        rules:
          - id: first
            when:
              \(list):
        \(levels.joined(separator: "\n"))
            then: notify
            message: m
          - id: second
            when: \(last("*level\(count)"))
            then: notify
            message: m

        """
}

/// A policy whose condition doubles at each of `depth` levels through aliases: 2^depth entries when expanded.
private func doublingPolicy(depth: Int, holds: Bool) -> String {
    anchoredLevels(depth, base: "{platform: \(holds ? "ios" : "android")}", step: { "{all: [\($0), \($0)]}" },
        list: "any", last: { "{not: \($0)}" })
}

/// A policy whose rule `second` is `not` nested `length` times, through a chain of anchors in rule `first`'s list:
/// a condition as deep as the chain is long. (`first` never matches: `level0` and `level1` contradict.)
private func notChain(_ length: Int) -> String {
    anchoredLevels(length, base: "{platform: ios}", step: { "{not: \($0)}" }, list: "all")
}

@Suite struct AliasTests {
    /// The expanded policy would have 2^40 entries, 80 levels deep: only sharing lets it decode and evaluate at all.
    private let limits = YAMLLimits(maximumDepth: 100, maximumExpandedNodes: .max)

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

    @Test func aChainOfAliasesNestsNoDeeperThanTheReaderAllows() {
        // 2,000 levels of `not` in 72 KB: refused by the reader's depth, not decoded into a condition whose
        // evaluation recursed 2,000 levels (which overflowed a 1 MiB stack, an iOS app's main thread).
        let result = YAMLPolicyParser().parse(Data(notChain(2_000).utf8))
        #expect(result.diagnostics.map(\.code) == [.yamlTooDeep])
        #expect(result.usablePolicy == nil)
    }

    @Test func theDeepestConditionTheReaderAllowsRunsOnASmallStack() throws {
        // The longest chain the reader accepts, found by asking it.
        var length = 1
        while YAMLPolicyParser().parse(Data(notChain(length + 1).utf8)).usablePolicy != nil { length += 1 }
        #expect(length > 50, "the chain reaches nearly the depth limit of 64")
        let text = notChain(length)
        // Decoding, evaluating with every explanation, describing and linting it on a thread with 512 KiB of stack,
        // what Apple platforms give a secondary thread.
        let outcome = try onThread(stackSize: 512 << 10) {
            guard let policy = YAMLPolicyParser().parse(Data(text.utf8)).usablePolicy else { return [String]() }
            var lines: [String] = []
            for platform in [Platform.ios, .android] {
                let decision = policy.evaluate(try LaunchContext(platform: platform))
                lines.append(decision.notices.map(\.rule).joined(separator: ","))
                lines.append(decision.report)
            }
            lines += policy.ruleDescriptions.map(\.description)
            lines += PolicyLinter().lint(Array(text.utf8), path: "chain.yaml").diagnostics.map(\.message)
            return lines
        }
        // An odd number of `not`s turns rule `second` around.
        #expect(outcome[0] == (length % 2 == 0 ? "second" : ""), "on iOS")
        #expect(outcome[2] == (length % 2 == 1 ? "second" : ""), "on Android")
        #expect(outcome.count == 6, "two decisions and their reports, two descriptions, and nothing from lint")
        #expect(outcome[5].hasPrefix("Tells users except those"), "\(outcome[5].prefix(80))")
    }

    /// Runs `body` on a new thread with `stackSize` bytes of stack, and returns what it returned.
    private func onThread(stackSize: Int, _ body: @escaping @Sendable () throws -> [String]) throws -> [String] {
        let box = ThreadResult()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            box.result = Result(catching: body)
            done.signal()
        }
        thread.stackSize = stackSize
        thread.start()
        done.wait()
        return try #require(box.result).get()
    }
}

/// What a thread returned; written by the thread before it signals, read after the wait.
private final class ThreadResult: @unchecked Sendable {
    var result: Result<[String], any Error>?
}
