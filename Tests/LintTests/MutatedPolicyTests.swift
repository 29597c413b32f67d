import Foundation
import LaunchPolicy
import Testing
import TestSupport

/// The example policies with their values swapped for others of the language, rules repeated and lines dropped:
/// the checks must never trap, always point inside the file, and answer the same way twice.
@Suite struct MutatedPolicyTests {
    @Test func generatedAndMutatedPoliciesNeverTrapAndPointInsideTheFile() throws {
        let seeds = try PolicyMutations.seeds()
        #expect(seeds.count >= 5, "the example policies are the seeds")
        var random = SeededGenerator(seed: 0x11A7_0007)
        let linter = PolicyLinter(now: lintNow)
        var lintCodes: [String: Int] = [:]
        for iteration in 0..<400 {
            let input = iteration.isMultiple(of: 2)
                ? PolicyMutations.generatedPolicy(using: &random)
                : PolicyMutations.mutate(seeds.randomElement(using: &random)!, using: &random)
            let report = linter.lint(input, path: "mutated.yaml")
            for diagnostic in report.diagnostics {
                let ranges = [diagnostic.range] + diagnostic.notes.map(\.range) + (diagnostic.fixIt.map { [$0.range] } ?? [])
                for range in ranges {
                    #expect(range.start.offset >= 0 && range.start.offset <= range.end.offset && range.end.offset <= input.count,
                        "iteration \(iteration): \(diagnostic)")
                    #expect(range.start.line >= 1 && range.start.column >= 1)
                }
                #expect(["yaml.", "policy.", "lint.", "test."].contains { diagnostic.code.rawValue.hasPrefix($0) })
                if diagnostic.code.rawValue.hasPrefix("lint.") { lintCodes[diagnostic.code.rawValue, default: 0] += 1 }
            }
            #expect(linter.lint(input, path: "mutated.yaml").diagnostics == report.diagnostics,
                "iteration \(iteration): the same input, the same answer")
        }
        // The inputs must reach every semantic check, or this test proves little.
        let semantic = LintCheck.all.map(\.code.rawValue).filter {
            $0.hasPrefix("lint.") && !["lint.unreadable-file", "lint.tests-without-policy", "lint.invalid-configuration"].contains($0)
        }
        #expect(semantic.filter { (lintCodes[$0] ?? 0) == 0 }.isEmpty, "\(lintCodes.sorted { $0.key < $1.key })")
    }
}
