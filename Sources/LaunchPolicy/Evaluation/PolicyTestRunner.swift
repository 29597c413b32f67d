import Foundation

/// The outcome of one of a policy's test cases.
public struct PolicyTestResult: Sendable {
    /// The case's name.
    public var name: String
    /// Where the case is written.
    public var range: SourceRange
    /// The decision the interpreter made; nil when the case's context is invalid.
    public var decision: Decision?
    /// Why the case failed; empty when it passed.
    public var diagnostics: [Diagnostic]

    /// Whether the case passed.
    public var passed: Bool { diagnostics.isEmpty }
}

/// Runs the test cases a policy carries (`tests:`) through the interpreter.
///
/// Each case's context is built as ``LaunchContext/init(values:defaultNow:)`` builds one; its `memory` lists rules
/// shown before, recorded as that rule would be in that context at its `now`. Every expectation the case states is
/// compared: `gate`, `prompts`, `notices` and `presentations` in order, `grants` in any order. A failure is a
/// `test.failed` diagnostic at the case, with a note on each rule involved saying what became of it (at most
/// ``maximumNotesPerFailure``).
public enum PolicyTestRunner {
    /// The most rules a failure notes. Each failure noted every rule that could have given what it expected, so that
    /// a policy of thousands of such rules, with thousands of failing cases, had policy-lint make and write a note
    /// for every rule at every case: 9,000 cases of 9,000 rules (1.4 MB) took 23 GB before the system stopped it.
    public static let maximumNotesPerFailure = 20

    /// Runs every case; `defaultNow` is the time for cases without `now`.
    public static func run(_ policy: Policy, defaultNow: Date = Date()) -> [PolicyTestResult] {
        policy.tests.map { run($0, of: policy, defaultNow: defaultNow) }
    }

    /// Runs every case and keeps only why those that failed failed: each decision is dropped once its case is
    /// checked. A decision holds every rule's outcome, so thousands of cases of a policy of thousands of rules,
    /// kept together by ``run(_:defaultNow:)``, took policy-lint 1.4 GB.
    public static func failures(_ policy: Policy, defaultNow: Date = Date()) -> [Diagnostic] {
        policy.tests.flatMap { run($0, of: policy, defaultNow: defaultNow).diagnostics }
    }

    /// Runs one case.
    public static func run(_ testCase: PolicyTestCase, of policy: Policy, defaultNow: Date = Date()) -> PolicyTestResult {
        var result = PolicyTestResult(name: testCase.name, range: testCase.range, decision: nil, diagnostics: [])
        let context: LaunchContext
        do {
            context = try LaunchContext(values: testCase.context.mapValues(\.value), defaultNow: defaultNow)
        } catch {
            result.diagnostics.append(.error(.testInvalidContext,
                "test \"\(testCase.name)\": \(error)", at: testCase.context[error.key]?.range ?? testCase.range))
            return result
        }
        var memory = DisplayMemory()
        var interpreter = Interpreter(context: context, memory: DisplayMemory())
        var rules = IDLookup()
        for ruleID in testCase.memory ?? [] {
            guard let rule = rules.place(of: ruleID, in: policy.rules, id: \.id.value) else { continue }
            memory.record(interpreter.directive(forRule: rule, of: policy), at: context.now)
        }
        let decision = policy.evaluate(context, memory: memory)
        result.decision = decision

        // Each mismatch notes what became of every rule that could have produced the expected part, and the gate.
        var mismatches: [String] = []
        var noteActions: Set<Action> = []
        if let gate = testCase.gate, !matches(gate, decision.gate) {
            let actual = decision.gate.map { "\($0.action.rawValue) (\($0.rule))" } ?? "none"
            mismatches.append("gate: expected \(describe(gate)), got \(actual)")
            noteActions.formUnion([.block, .requireUpdate])
        }
        func compare(_ what: String, _ expected: [String]?, _ actual: [String], _ action: Action, ordered: Bool = true) {
            guard let expected else { return }
            let same = ordered ? expected == actual : expected.sorted() == actual.sorted()
            guard !same else { return }
            mismatches.append("\(what): expected \(list(expected)), got \(list(actual))")
            noteActions.insert(action)
        }
        compare("prompts", testCase.prompts, decision.prompts.map(\.rule), .suggestUpdate)
        compare("notices", testCase.notices, decision.notices.map(\.rule), .notify)
        compare("presentations", testCase.presentations, decision.presentations.compactMap(\.screen), .present)
        compare("grants", testCase.grants, decision.grants, .grant, ordered: false)
        guard !mismatches.isEmpty else { return result }

        result.diagnostics.append(.error(.testFailed,
            "test \"\(testCase.name)\" failed: " + mismatches.joined(separator: "; "), at: testCase.range,
            notes: notes(on: decision, actions: noteActions)))
        return result
    }

    /// The notes of a failure: what became of each rule whose action is one of `actions`, and of the gate's rule, in
    /// file order, at most ``maximumNotesPerFailure`` of them with the gate's rule always among them; then, if rules
    /// are left out, a note at the first of them saying how many.
    private static func notes(on decision: Decision, actions: Set<Action>) -> [Diagnostic.Note] {
        let gateRule = decision.gate?.rule
        var notes: [Diagnostic.Note] = []
        var gateNoted = gateRule == nil
        var unlisted = 0
        var firstUnlisted: SourceRange?
        for rule in decision.explanation where actions.contains(rule.action) || rule.rule == gateRule {
            let isGate = rule.rule == gateRule
            // Room is kept for the gate's rule, which says what came instead of what was expected.
            guard isGate || notes.count < maximumNotesPerFailure - (gateNoted ? 0 : 1) else {
                unlisted += 1
                firstUnlisted = firstUnlisted ?? rule.range
                continue
            }
            gateNoted = gateNoted || isGate
            notes.append(Diagnostic.Note(message: "\(rule.rule) \(rule.summary)", range: rule.range))
        }
        if let firstUnlisted {
            notes.append(Diagnostic.Note(message: "\(unlisted) more \(unlisted == 1 ? "rule" : "rules") from here on "
                + "with these actions \(unlisted == 1 ? "is" : "are") not noted (a failure notes at most "
                + "\(maximumNotesPerFailure))", range: firstUnlisted))
        }
        return notes
    }

    private static func matches(_ expected: PolicyTestCase.ExpectedGate, _ gate: Directive?) -> Bool {
        switch expected {
        case .none: gate == nil
        case .action(let action): gate?.action == action
        case .rule(let action, let rule): gate?.action == action && gate?.rule == rule
        }
    }

    private static func describe(_ gate: PolicyTestCase.ExpectedGate) -> String {
        switch gate {
        case .none: "none"
        case .action(let action): action.rawValue
        case .rule(let action, let rule): "\(action.rawValue) (\(rule))"
        }
    }

    private static func list(_ items: [String]) -> String { "[" + items.joined(separator: ", ") + "]" }
}

extension DiagnosticCode {
    /// A policy's test case expected a different decision.
    public static let testFailed: DiagnosticCode = "test.failed"
    /// A policy's test case has a context value that is not valid, such as `app-version: "2.x"`.
    public static let testInvalidContext: DiagnosticCode = "test.invalid-context"
}
