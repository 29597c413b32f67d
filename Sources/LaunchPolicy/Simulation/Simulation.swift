import Foundation

/// What a policy does to an installed base: every user of a ``Population`` evaluated as at a launch with nothing
/// shown before, counted per rule, per outcome, per platform and per app version.
///
/// Staged rollouts draw install ids deterministically per row: the `k`-th user (from 0) of the row on line `L` has the
/// install id `simulated-L-k`, unless the row gives an `install-id`, which all its users share. The same population
/// and policy give the same answer every run. Users whose ids put them in the same rollouts get the same decision,
/// so a row is evaluated once per distinct combination, not once per user.
public struct Simulation: Sendable {
    /// What can happen to a user at a launch. A user may be notified, presented a screen and granted entitlements at
    /// once; `blocked` and `updateRequired` exclude the others but grants; `untouched` means nothing happened.
    public enum Outcome: String, CaseIterable, Sendable, Hashable {
        case blocked
        case updateRequired = "update-required"
        case updateSuggested = "update-suggested"
        case notified
        case presented
        case granted
        case untouched

        /// The outcome in words, for reports.
        public var label: String {
            switch self {
            case .blocked: "blocked"
            case .updateRequired: "update required"
            case .updateSuggested: "update suggested"
            case .notified: "notified"
            case .presented: "presented"
            case .granted: "granted"
            case .untouched: "untouched"
            }
        }
    }

    /// Users, and how many had each outcome.
    public struct Tally: Sendable, Equatable {
        /// The users counted.
        public var users = 0
        /// Users per outcome; an outcome no one had is absent.
        public var outcomes: [Outcome: Int] = [:]

        /// The users with an outcome.
        public subscript(outcome: Outcome) -> Int { outcomes[outcome] ?? 0 }

        /// The share of these users with an outcome, 0 to 1 (0 when there are none).
        public func share(_ outcome: Outcome) -> Double { users == 0 ? 0 : Double(self[outcome]) / Double(users) }

        mutating func add(_ outcomes: [Outcome], users count: Int) {
            users += count
            for outcome in outcomes { self.outcomes[outcome, default: 0] += count }
        }
    }

    /// A rule and the users whose launch it matched.
    public struct RuleCount: Sendable, Equatable {
        public var rule: String
        public var action: Action
        public var users: Int
    }

    /// A platform's or an app version's users.
    public struct Group: Sendable, Equatable {
        /// The platform, or `unknown`.
        public var platform: String
        /// The app version, or `unknown`; nil for a whole platform.
        public var appVersion: String?
        public var tally: Tally
    }

    /// Every user.
    public var total = Tally()
    /// Each rule, in file order.
    public var rules: [RuleCount]
    /// Each platform, in order of first appearance.
    public var platforms: [Group] = []
    /// Each app version per platform, platforms in order of first appearance, versions from oldest to newest.
    public var versions: [Group] = []
    /// The time of every launch whose row gives no `now` of its own.
    public var now: Date
    /// The lines of rows with more users than were drawn under a rollout: their split between rollouts is that of
    /// their first users, an estimate.
    public var estimatedRows: [Int] = []
    /// The most users of one row whose rollout buckets were drawn one by one.
    public var rolloutDrawLimit: Int
    /// The most users of all rows together whose rollout buckets were drawn one by one. When the rows want more,
    /// each draws its share: as many of its users as the limit allows, times the budget over what all rows want.
    public var rolloutDrawBudget: Int

    /// The default of ``rolloutDrawLimit``: a million users, about a second.
    public static let defaultRolloutDrawLimit = 1_000_000
    /// The default of ``rolloutDrawBudget``: ten million users, about ten seconds with one rollout. Without it, the
    /// time grew with the rows: a hundred rows of a million users each took a minute and a half.
    public static let defaultRolloutDrawBudget = 10_000_000

    /// The share of all users a rule matched, 0 to 1.
    public func share(of rule: RuleCount) -> Double { total.users == 0 ? 0 : Double(rule.users) / Double(total.users) }

    /// The install id of the `k`-th user of the row on `line`.
    public static func installID(line: Int, user: Int) -> String { "simulated-\(line)-\(user)" }

    /// Simulates `policy` over `population`, launches at `now` unless their row gives a time; rollout buckets are
    /// drawn for at most `rolloutDrawLimit` users of a row and `rolloutDrawBudget` users in all.
    public init(
        policy: Policy, population: Population, now: Date, rolloutDrawLimit: Int = defaultRolloutDrawLimit,
        rolloutDrawBudget: Int = defaultRolloutDrawBudget
    ) {
        self.now = now
        self.rolloutDrawLimit = max(1, rolloutDrawLimit)
        self.rolloutDrawBudget = max(1, rolloutDrawBudget)
        rules = policy.rules.map { RuleCount(rule: $0.id.value, action: $0.action.value, users: 0) }
        let draws = RolloutDraw.all(in: policy)
        var platformIndex: [String: Int] = [:]
        var versionIndex: [String: [String: Int]] = [:]
        var versionGroups: [String: [Group]] = [:]

        // Each row's users within the population's bounds, so that no count overflows (rows read from a file are).
        var counted = 0
        let usersOfRow = population.rows.map { row in
            let users = Population.adding(row.users, to: counted) - counted
            counted += users
            return users
        }
        // How many of each row's users are drawn one by one: none where the row's users share an install id.
        let drawn = draws.isEmpty ? [] : Self.drawCounts(
            wanted: zip(population.rows, usersOfRow).map { row, users in
                if case .text? = row.values["install-id"] { 0 } else { min(users, self.rolloutDrawLimit) }
            },
            budget: self.rolloutDrawBudget)
        for (index, row) in population.rows.enumerated() where usersOfRow[index] > 0 {
            let rowUsers = usersOfRow[index]
            var values = row.values
            // Users grouped by the rollouts their ids put them in; one evaluation per group.
            var groups: [[Bool]: (installID: String, users: Int)] = [:]
            if case .text(let shared)? = values["install-id"] {
                groups[draws.map { $0.includes(shared) }] = (shared, rowUsers)
            } else if draws.isEmpty {
                groups[[]] = (Self.installID(line: row.line, user: 0), rowUsers)
            } else {
                // The draws of the row's first users; a larger row is split as they are, so that a row of a billion
                // users, or a thousand rows of a million, take seconds, not a quarter of an hour.
                let drawn = drawn[index]
                for user in 0..<drawn {
                    let id = Self.installID(line: row.line, user: user)
                    groups[draws.map { $0.includes(id) }, default: (id, 0)].users += 1
                }
                if drawn < rowUsers {
                    estimatedRows.append(row.line)
                    groups = Self.scaled(groups, to: rowUsers)
                }
            }
            let platform = values["platform"].flatMap { if case .text(let text) = $0 { text } else { nil } } ?? "unknown"
            let version = values["app-version"].flatMap { if case .text(let text) = $0 { text } else { nil } } ?? "unknown"
            for (installID, users) in groups.values.sorted(by: { $0.installID < $1.installID }) {
                values["install-id"] = .text(installID)
                // Rows were checked when the population was read; a context that still fails counts as untouched.
                guard let context = try? LaunchContext(values: values, defaultNow: now) else { continue }
                // Every rule's match is counted, so it is decided at once rather than when each is read; nothing is
                // remembered, so no directive needs its memory key.
                let decision = policy.evaluateEveryRule(context, keyingDirectives: false)
                let outcomes = Self.outcomes(of: decision)
                total.add(outcomes, users: users)
                for (index, explanation) in decision.explanation.enumerated() where explanation.matched {
                    rules[index].users += users
                }
                if platformIndex[platform] == nil {
                    platformIndex[platform] = platforms.count
                    platforms.append(Group(platform: platform, appVersion: nil, tally: Tally()))
                }
                platforms[platformIndex[platform]!].tally.add(outcomes, users: users)
                if versionIndex[platform]?[version] == nil {
                    versionIndex[platform, default: [:]][version] = versionGroups[platform, default: []].count
                    versionGroups[platform, default: []].append(Group(platform: platform, appVersion: version, tally: Tally()))
                }
                versionGroups[platform]![versionIndex[platform]![version]!].tally.add(outcomes, users: users)
            }
        }
        versions = platforms.flatMap { group in
            (versionGroups[group.platform] ?? []).sorted { Self.versionOrder($0.appVersion ?? "", $1.appVersion ?? "") }
        }
    }

    /// How many users each row draws: what it wants, or when the rows want more than `budget` in all, its share of
    /// the budget, at least one. In `Double`, as the sum passes `Int.max` where `Int` has 32 bits.
    static func drawCounts(wanted: [Int], budget: Int) -> [Int] {
        let total = wanted.reduce(0.0) { $0 + Double($1) }
        guard total > Double(budget) else { return wanted }
        let share = Double(budget) / total
        return wanted.map { $0 == 0 ? 0 : max(1, Int(Double($0) * share)) }
    }

    /// Groups scaled to `total` users in proportion, the remainder to the largest fractions, so that they sum to it.
    static func scaled(_ groups: [[Bool]: (installID: String, users: Int)], to total: Int)
        -> [[Bool]: (installID: String, users: Int)]
    {
        let drawn = groups.values.reduce(0) { $0 + $1.users }
        guard drawn > 0 else { return groups }
        var result = groups
        var shares: [(key: [Bool], remainder: Int)] = []
        var assigned = 0
        for (key, group) in groups {
            // In double width: the product passes `Int.max` where `Int` has 32 bits (a billion users, a million
            // drawn), and the quotient is at most `total`, as a group is at most what was drawn.
            let (whole, remainder) = drawn.dividingFullWidth(group.users.multipliedFullWidth(by: total))
            result[key]!.users = whole
            assigned += whole
            shares.append((key, remainder))
        }
        // Largest remainders first; ties by install id, so the answer is the same every run.
        shares.sort { $0.remainder != $1.remainder ? $0.remainder > $1.remainder : groups[$0.key]!.installID < groups[$1.key]!.installID }
        for share in shares.prefix(total - assigned) { result[share.key]!.users += 1 }
        return result
    }

    /// What a decision did to its user.
    static func outcomes(of decision: Decision) -> [Outcome] {
        var outcomes: [Outcome] = []
        if let gate = decision.gate { outcomes.append(gate.action == .block ? .blocked : .updateRequired) }
        if !decision.prompts.isEmpty { outcomes.append(.updateSuggested) }
        if !decision.notices.isEmpty { outcomes.append(.notified) }
        if !decision.presentations.isEmpty { outcomes.append(.presented) }
        if !decision.grants.isEmpty { outcomes.append(.granted) }
        return outcomes.isEmpty ? [.untouched] : outcomes
    }

    /// Oldest first: versions compare as versions; text that is not one sorts after, as text.
    static func versionOrder(_ left: String, _ right: String) -> Bool {
        switch (try? Version(left, kind: .marketing), try? Version(right, kind: .marketing)) {
        case (let l?, let r?): return l < r || (!(r < l) && left < right)
        case (.some, nil): return true
        case (nil, .some): return false
        case (nil, nil): return left < right
        }
    }
}

/// One rollout entry of a rule: whether an install id falls inside it.
struct RolloutDraw {
    let ruleID: String
    let percentage: Double

    func includes(_ installID: String) -> Bool {
        Rollout.includes(bucket: Rollout.bucket(installID: installID, ruleID: ruleID), percentage: percentage)
    }

    /// Every rollout entry of every rule, anywhere in its condition.
    static func all(in policy: Policy) -> [RolloutDraw] {
        var draws: [RolloutDraw] = []
        func walk(_ condition: Condition, _ rule: String) {
            switch condition {
            case .all(let parts, _), .any(let parts, _): parts.forEach { walk($0, rule) }
            case .not(let inner, _): walk(inner, rule)
            case .shared(let shared): walk(shared.condition, rule)
            case .entry(let entry):
                if case .rollout(let percentage) = entry.test { draws.append(RolloutDraw(ruleID: rule, percentage: percentage)) }
            }
        }
        for rule in policy.rules { rule.condition.map { walk($0, rule.id.value) } }
        return draws
    }
}
