import Foundation
import LaunchPolicy
import Testing
import TestSupport

/// A simulation counts what the launch path would decide for each user: random policies over random populations,
/// every user of every row evaluated one by one as an app would (with the install id the simulation documents), and
/// the counts compared with the simulation's, which evaluates a row once per group of users its rollouts treat alike.
@Suite struct SimulationAgreementTests {
    /// The columns a random population has: every context key a launch may carry, two attributes and the users.
    static let columns = RandomPolicies.contextValues.map(\.key) + ["attributes.plan", "attributes.tier", "users"]

    /// A population of up to eight rows, each key now and then left empty, some rows sharing one install id.
    static func population(using random: inout SeededGenerator) -> String {
        var csv = columns.joined(separator: ",") + "\n"
        for _ in 0..<Int.random(in: 1...8, using: &random) {
            var fields: [String] = []
            for (key, choices) in RandomPolicies.contextValues {
                // An install id in one row of four, so that most rows draw their users' ids.
                let present = key == "install-id"
                    ? Int.random(in: 0..<4, using: &random) == 0 : Int.random(in: 0..<5, using: &random) > 0
                fields.append(present ? choices.randomElement(using: &random)! : "")
            }
            fields.append(Bool.random(using: &random) ? ["pro", "free", "team"].randomElement(using: &random)! : "")
            fields.append(Bool.random(using: &random) ? ["gold", "silver"].randomElement(using: &random)! : "")
            fields.append(String(Int.random(in: 0...24, using: &random)))
            csv += fields.joined(separator: ",") + "\n"
        }
        return csv
    }

    /// What a decision did to its user, as ``Simulation/Outcome`` documents it.
    static func outcomes(of decision: Decision) -> [Simulation.Outcome] {
        var outcomes: [Simulation.Outcome] = []
        switch decision.gate?.action {
        case .block?: outcomes.append(.blocked)
        case .requireUpdate?: outcomes.append(.updateRequired)
        default: break
        }
        if !decision.prompts.isEmpty { outcomes.append(.updateSuggested) }
        if !decision.notices.isEmpty { outcomes.append(.notified) }
        if !decision.presentations.isEmpty { outcomes.append(.presented) }
        if !decision.grants.isEmpty { outcomes.append(.granted) }
        return outcomes.isEmpty ? [.untouched] : outcomes
    }

    static func text(_ value: ContextValue?) -> String? {
        if case .text(let text)? = value { text } else { nil }
    }

    @Test(arguments: [UInt64(11), 12, 13])
    func eachUserIsCountedAsTheLaunchPathDecides(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let now = Date(timeIntervalSince1970: 1_795_219_200)
        var simulated = 0
        for round in 0..<40 {
            let yaml = RandomPolicies.policy(using: &random)
            // Some random policies have errors (a prerelease in a marketing range); they are not simulated.
            guard let policy = YAMLPolicyParser().parse(Data(yaml.utf8)).usablePolicy else { continue }
            let csv = Self.population(using: &random)
            let read = Population.read(csv: Data(csv.utf8))
            #expect(read.diagnostics.isEmpty, "\(read.diagnostics)\n\(csv)")
            let simulation = Simulation(policy: policy, population: read.population, now: now)
            simulated += 1

            // The same count, user by user.
            var total: [Simulation.Outcome: Int] = [:]
            var users = 0
            var rules = Array(repeating: 0, count: policy.rules.count)
            var groups: [String: [Simulation.Outcome: Int]] = [:]
            var groupUsers: [String: Int] = [:]
            for row in read.population.rows {
                for user in 0..<row.users {
                    var values = row.values
                    if values["install-id"] == nil {
                        values["install-id"] = .text(Simulation.installID(line: row.line, user: user))
                    }
                    let decision = policy.evaluate(try LaunchContext(values: values, defaultNow: now))
                    let outcomes = Self.outcomes(of: decision)
                    users += 1
                    for outcome in outcomes { total[outcome, default: 0] += 1 }
                    for (rule, explanation) in decision.explanation.enumerated() where explanation.matched {
                        rules[rule] += 1
                    }
                    let platform = Self.text(row.values["platform"]) ?? "unknown"
                    let version = Self.text(row.values["app-version"]) ?? "unknown"
                    for group in [platform, platform + " " + version] {
                        groupUsers[group, default: 0] += 1
                        for outcome in outcomes { groups[group, default: [:]][outcome, default: 0] += 1 }
                    }
                }
            }

            let context = "seed \(seed) round \(round)\n\(yaml)\n\(csv)"
            #expect(simulation.estimatedRows.isEmpty, "\(context)")
            #expect(simulation.total.users == users, "\(context)")
            #expect(simulation.total.outcomes == total, "\(context)")
            #expect(simulation.rules.map(\.users) == rules, "\(context)")
            #expect(simulation.rules.map(\.rule) == policy.rules.map(\.id.value), "\(context)")
            var tallies: [String: Simulation.Tally] = [:]
            for group in simulation.platforms { tallies[group.platform] = group.tally }
            for group in simulation.versions { tallies[group.platform + " " + (group.appVersion ?? "-")] = group.tally }
            #expect(tallies.mapValues(\.users) == groupUsers, "\(context)")
            #expect(tallies.mapValues(\.outcomes) == groups, "\(context)")
        }
        #expect(simulated >= 20, "most random policies are valid")
    }
}
