import Foundation
@testable import LaunchPolicy
import Testing

private let now = Date(timeIntervalSince1970: 1_795_219_200)  // 2026-11-21T00:00:00Z

private func policy(_ yaml: String) throws -> Policy {
    let result = YAMLPolicyParser().parse(Data(yaml.utf8))
    return try #require(result.usablePolicy, "\(result.diagnostics)")
}

private func population(_ csv: String) throws -> Population {
    let read = Population.read(csv: Data(csv.utf8))
    #expect(read.diagnostics.isEmpty, "\(read.diagnostics)")
    return read.population
}

@Suite struct SimulationTests {
    /// 100,000 users over 40 versions on two platforms, against a count made directly from the policy's thresholds
    /// and the documented rollout buckets.
    @Test func sharesMatchADirectCountOverAHundredThousandUsers() throws {
        let policy = try policy("""
            policy: 1
            messages: {m: {default: "m"}}
            rules:
              - {id: old-android, when: {platform: android, app-version: "< 1.5"}, then: block, message: m}
              - {id: minimum-ios, when: {platform: ios, app-version: "< 2.4"}, then: require-update, message: m}
              - {id: optional, when: {app-version: "< 3.5"}, then: suggest-update, message: m}
              - {id: try-new, when: {app-version: ">= 4.0", rollout: "30%"}, then: notify, message: m}
            """)
        // Versions 1.0 … 4.9; every third row Android; users vary by row and sum to 100,000.
        var csv = "platform,app-version,users\n"
        var rows: [(line: Int, platform: String, major: Int, minor: Int, users: Int)] = []
        var remaining = 100_000
        for index in 0..<40 {
            let users = index == 39 ? remaining : 1_000 + (index * 373) % 2_500
            remaining -= users
            let row = (line: index + 2, platform: index % 3 == 0 ? "android" : "ios", major: 1 + index / 10,
                minor: index % 10, users: users)
            rows.append(row)
            csv += "\(row.platform),\(row.major).\(row.minor),\(users)\n"
        }
        let simulation = Simulation(policy: policy, population: try population(csv), now: now)

        var expected: [Simulation.Outcome: Int] = [:]
        var matches = ["old-android": 0, "minimum-ios": 0, "optional": 0, "try-new": 0]
        for row in rows {
            let version = row.major * 10 + row.minor  // 2.4 → 24
            let blocked = row.platform == "android" && version < 15
            let required = row.platform == "ios" && version < 24
            let optional = version < 35
            if blocked { matches["old-android"]! += row.users }
            if required { matches["minimum-ios"]! += row.users }
            if optional { matches["optional"]! += row.users }
            var notified = 0
            if version >= 40 {
                for user in 0..<row.users
                where Rollout.bucket(installID: "simulated-\(row.line)-\(user)", ruleID: "try-new") < 3_000 {
                    notified += 1
                }
            }
            matches["try-new"]! += notified
            if blocked {
                expected[.blocked, default: 0] += row.users
            } else if required {
                expected[.updateRequired, default: 0] += row.users
            } else if optional {
                expected[.updateSuggested, default: 0] += row.users
            } else {
                expected[.notified, default: 0] += notified
                expected[.untouched, default: 0] += row.users - notified
            }
        }
        #expect(simulation.total.users == 100_000)
        for outcome in Simulation.Outcome.allCases {
            #expect(simulation.total[outcome] == expected[outcome] ?? 0, "\(outcome)")
            #expect(simulation.total.share(outcome) == Double(expected[outcome] ?? 0) / 100_000)
        }
        #expect(Dictionary(uniqueKeysWithValues: simulation.rules.map { ($0.rule, $0.users) }) == matches)
        // The rollout reached about 30 % of the users on 4.x: the draw is not degenerate.
        let onFour = rows.filter { $0.major == 4 }.reduce(0) { $0 + $1.users }
        #expect(abs(Double(matches["try-new"]!) / Double(onFour) - 0.3) < 0.02)
        // Per version: each row is its own version, in version order within each platform.
        #expect(simulation.versions.count == 40)
        #expect(simulation.platforms.map(\.platform) == ["android", "ios"])
        for group in simulation.versions {
            let row = try #require(rows.first { "\($0.major).\($0.minor)" == group.appVersion })
            #expect(group.tally.users == row.users)
        }
        let iosVersions = simulation.versions.filter { $0.platform == "ios" }.compactMap(\.appVersion)
        #expect(iosVersions == rows.filter { $0.platform == "ios" }.map { "\($0.major).\($0.minor)" })
    }

    @Test func theSameInputsGiveTheSameAnswer() throws {
        let policy = try policy("""
            policy: 1
            messages: {m: {default: "m"}}
            rules: [{id: half, when: {rollout: "50%"}, then: notify, message: m}]
            """)
        let people = try population("platform,app-version,users\nios,1.0,5000\nandroid,1.0,5000\n")
        let first = Simulation(policy: policy, population: people, now: now)
        let second = Simulation(policy: policy, population: people, now: now)
        #expect(first.total == second.total)
        #expect(first.rules == second.rules)
        #expect((4_800...5_200).contains(first.total[.notified]))
    }

    @Test func aHugeRowIsSplitAsItsFirstUsersAreAndSaysSo() throws {
        let policy = try policy("""
            policy: 1
            messages: {m: {default: "m"}}
            rules: [{id: tenth, when: {rollout: "10%"}, then: notify, message: m}]
            """)
        let groups: [[Bool]: (installID: String, users: Int)] = [[true]: ("a", 1), [false]: ("b", 2)]
        let scaled = Simulation.scaled(groups, to: 1_000_000_000)
        #expect(scaled[[true]]?.users == 333_333_333)
        #expect(scaled[[false]]?.users == 666_666_667)
        // A billion users in one row finishes (drawing the first 20,000) and is marked as estimated.
        let simulation = Simulation(policy: policy,
            population: try population("platform,users\nios,1000000000\nandroid,10\n"), now: now, rolloutDrawLimit: 20_000)
        #expect(simulation.total.users == 1_000_000_010)
        #expect(simulation.estimatedRows == [2])
        #expect(abs(simulation.total.share(.notified) - 0.1) < 0.01)
        #expect(simulation.report.contains(
            "(rollouts estimated from the first users of the rows on lines 2: at most 20,000 a row and "
                + "10,000,000 in all)"))
    }

    @Test func rowsThatWantMoreDrawsThanTheBudgetShareIt() throws {
        let policy = try policy("""
            policy: 1
            messages: {m: {default: "m"}}
            rules: [{id: half, when: {rollout: "50%"}, then: notify, message: m}]
            """)
        // 400 of the 4,002 wanted: each row about a tenth, and at least one.
        #expect(Simulation.drawCounts(wanted: [3_000, 1_000, 0, 2], budget: 400) == [299, 99, 0, 1])
        #expect(Simulation.drawCounts(wanted: [300, 100], budget: 400) == [300, 100], "within the budget")
        // 40 rows of 1,000 users want 40,000 draws; a budget of 4,000 draws 100 of each row's users.
        let rows = (0..<40).map { "ios,\($0 % 2 == 0 ? "2.4" : "2.5"),1000\n" }.joined()
        let people = try population("platform,app-version,users\n" + rows)
        let simulation = Simulation(policy: policy, population: people, now: now, rolloutDrawBudget: 4_000)
        #expect(simulation.estimatedRows == Array(2...41))
        #expect(simulation.total.users == 40_000)
        #expect(simulation.versions.map(\.tally.users) == [20_000, 20_000], "scaled rows keep their users")
        #expect(abs(simulation.total.share(.notified) - 0.5) < 0.05, "\(simulation.total.share(.notified))")
        #expect(simulation.report.contains(
            "rows on lines 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 and 30 more: at most 1,000,000 a row and 4,000 in all)"))
        // The same rows within the budget are drawn whole, and not estimated.
        let whole = Simulation(policy: policy, population: people, now: now)
        #expect(whole.estimatedRows.isEmpty)
        #expect(abs(whole.total.share(.notified) - 0.5) < 0.01)
    }

    @Test func splittingAHugeRowCannotOverflow() {
        // The product of a group and the row's users passes `Int.max` here, as a billion users and a million drawn
        // do where `Int` has 32 bits.
        let groups: [[Bool]: (installID: String, users: Int)] = [
            [true]: ("a", 3_000_000_000), [false]: ("b", 1_000_000_000),
        ]
        let scaled = Simulation.scaled(groups, to: 4_000_000_001)
        #expect(scaled[[true]]?.users == 3_000_000_001)
        #expect(scaled[[false]]?.users == 1_000_000_000)
    }

    @Test func aPopulationChangedPastItsBoundsIsCountedWithinThem() throws {
        let policy = try policy("""
            policy: 1
            messages: {m: {default: "m"}}
            rules: [{id: everyone, then: notify, message: m}]
            """)
        var people = try population("platform,users\n" + String(repeating: "ios,1\n", count: 1_002))
        // Rows are public to change; one of `Int.max` users, added to another, stopped the simulation.
        for index in people.rows.indices { people.rows[index].users = .max }
        people.rows[0].users = -5
        #expect(people.users == Population.maximumTotalUsers)
        let simulation = Simulation(policy: policy, population: people, now: now)
        #expect(simulation.total.users == Population.maximumTotalUsers)
        #expect(simulation.total[.notified] == Population.maximumTotalUsers)
        #expect(simulation.rules.map(\.users) == [Population.maximumTotalUsers])
        #expect(simulation.platforms.map(\.tally.users) == [Population.maximumTotalUsers])
        // A negative count counts as no users.
        var few = try population("platform,users\nios,1\nandroid,3\n")
        few.rows[0].users = -5
        #expect(few.users == 3)
        #expect(Simulation(policy: policy, population: few, now: now).platforms.map(\.platform) == ["android"])
    }

    @Test func aRowThatTakesThePopulationPastItsTotalIsReportedAndLeftOut() {
        let full = String(repeating: "ios,1000000000\n", count: 1_000)
        let read = Population.read(csv: Data(("platform,users\n" + full + "ios,0\nandroid,1\nios,0\n").utf8))
        #expect(read.diagnostics.map { "\($0.range.start.line):\($0.range.start.column) \($0.code)" }
            == ["1003:9 population.too-many-users"])
        #expect(read.diagnostics.first?.message
            == "the rows' users add up to more than 1000000000000, the most a population may have")
        #expect(read.population.rows.count == 1_002, "the rows within the total, those of no users too")
        #expect(read.population.users == 1_000_000_000_000)
    }

    @Test func aRowsInstallIDIsSharedByAllItsUsers() throws {
        let policy = try policy("""
            policy: 1
            messages: {m: {default: "m"}}
            rules: [{id: half, when: {rollout: "50%"}, then: notify, message: m}]
            """)
        let people = try population("platform,install-id,users\nios,install-0001,700\n")
        let simulation = Simulation(policy: policy, population: people, now: now)
        let inside = Rollout.bucket(installID: "install-0001", ruleID: "half") < 5_000
        #expect(simulation.total[.notified] == (inside ? 700 : 0))
        #expect(simulation.total[.untouched] == (inside ? 0 : 700))
    }

    @Test func dateWindowsFollowNowAndAttributesComeFromTheirColumns() throws {
        let policy = try policy("""
            policy: 1
            messages: {m: {default: "m"}}
            rules:
              - {id: window, when: {date: {from: "2026-11-20T00:00:00Z", until: "2026-11-22T00:00:00Z"}}, then: block, message: m}
              - {id: pro, when: {attributes: {plan: pro}}, then: grant, entitlements: [premium]}
            """)
        let people = try population("platform,attributes.plan,users\nios,pro,3\nios,,7\n")
        let inside = Simulation(policy: policy, population: people, now: now)
        #expect(inside.total[.blocked] == 10)
        #expect(inside.total[.granted] == 3)
        let later = Simulation(policy: policy, population: people, now: now + 7 * 86_400)
        #expect(later.total[.blocked] == 0)
        #expect(later.total[.untouched] == 7)
        // A row's own time wins over the simulation's.
        let ownTime = try population("platform,now,users\nios,2026-11-21T12:00:00Z,4\nios,,6\n")
        #expect(Simulation(policy: policy, population: ownTime, now: now + 7 * 86_400).total[.blocked] == 4)
    }

    @Test func reportsCarryTheSameNumbers() throws {
        let policy = try policy("""
            policy: 1
            messages: {m: {default: "m"}}
            rules: [{id: minimum, when: {platform: ios, app-version: "< 2.4"}, then: require-update, message: m}]
            """)
        let simulation = Simulation(policy: policy,
            population: try population("platform,app-version,users\nios,2.3,250\nios,2.10,750\n"), now: now)
        #expect(simulation.report.contains("update required     250  25.0%"))
        #expect(simulation.report.contains("ios 2.3: 250 users (25.0%): update required 100.0%"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(simulation.json.text.utf8)) as? [String: Any])
        #expect(Set(json.keys) == ["users", "now", "estimated-rows", "outcomes", "rules", "platforms", "versions"])
        let required = (json["outcomes"] as? [String: Any])?["update-required"] as? [String: Any]
        #expect(required?["users"] as? Int == 250)
        #expect(required?["share"] as? Double == 0.25)
        let lines = simulation.csv.split(separator: "\n")
        #expect(lines[0] == "scope,platform,app-version,rule,users,blocked,update-required,update-suggested,notified,presented,granted,untouched")
        #expect(lines[1] == "total,,,,1000,0,250,0,0,0,0,750")
        #expect(lines.contains("version,ios,2.3,,250,0,250,0,0,0,0,0"))
        #expect(lines.contains("rule,,,minimum,250,,,,,,,"))
    }

    @Test func csvFieldsAreQuotedOnlyWhenTheyMustBe() {
        #expect(Simulation.csvField("2.4") == "2.4")
        #expect(Simulation.csvField(#"a, "quoted" note"#) == #""a, ""quoted"" note""#)
        #expect(Simulation.csvField("two\nlines") == "\"two\nlines\"")
    }
}

@Suite struct PopulationTests {
    @Test func quotedFieldsCRLFAndAByteOrderMarkAreRead() throws {
        let csv = "\u{FEFF}platform,app-version,attributes.note,users\r\nios,\"2.4\",\"a, \"\"quoted\"\" note\",3\r\n\r\n"
        let read = Population.read(csv: Data(csv.utf8))
        #expect(read.diagnostics.isEmpty)
        #expect(read.population.rows.count == 1)
        #expect(read.population.rows[0].values["attributes"] == .map(["note": "a, \"quoted\" note"]))
        #expect(read.population.rows[0].values["app-version"] == .text("2.4"))
        #expect(read.population.users == 3)
    }

    @Test func eachProblemIsReportedAtItsCell() {
        let csv = """
            platform,app-versoin,users
            ios,2.4,10
            ios,2.4
            ios,2.4,-3
            phone,2.4,1
            ios,"2.4,1

            """
        let read = Population.read(csv: Data(csv.utf8))
        let found = read.diagnostics.map { "\($0.range.start.line):\($0.range.start.column) \($0.code)" }
        #expect(found == [
            "1:10 population.unknown-column",
            "3:1 population.field-count",
            "4:9 population.invalid-users",
            "5:1 population.invalid-value",
            "6:1 population.field-count",
            "6:5 population.malformed",
        ])
        #expect(read.diagnostics[0].message.contains("did you mean app-version?"))
        #expect(read.diagnostics[3].message.contains("platform \"phone\""))
    }

    /// Columns count characters, not bytes, and a byte-order mark is counted by offsets and not by columns, as in
    /// every other position: the cell after "São Paulo" is where an editor shows it, and an offset points at its
    /// byte in the file as written. Before, columns counted bytes and offsets left the mark out.
    @Test func aCellAfterWideCharactersIsPlacedWhereAnEditorShowsIt() throws {
        let csv = "\u{FEFF}attributes.city,platform,users\nSão Paulo 🌆,phone,1\n"
        let read = Population.read(csv: Data(csv.utf8))
        let problem = try #require(read.diagnostics.first)
        #expect(problem.code == .populationInvalidValue)
        #expect(problem.range.start.line == 2 && problem.range.start.column == 13)
        let bytes = Array(csv.utf8)
        #expect(Array(bytes[problem.range.start.offset..<problem.range.end.offset]) == Array("phone".utf8))
        // Under it the caret line gives the emoji the two columns a terminal gives it.
        #expect(problem.rendered(file: "p.csv", source: bytes).split(separator: "\n")[2]
            == String(repeating: " ", count: 13) + "^~~~~")
    }

    /// Lines that end with CR alone (a spreadsheet on a Mac) are records, and positions count them as lines, in a
    /// quoted field too. Before, the file was one record holding every CR.
    @Test func linesEndedByACarriageReturnAreRecords() throws {
        let csv = "platform,app-version,attributes.note,users\rios,2.4,\"two\rlines\",3\randroid,x,,1\r"
        let read = Population.read(csv: Data(csv.utf8))
        #expect(read.population.rows.count == 1)
        #expect(read.population.rows.first?.values["attributes"] == .map(["note": "two\rlines"]))
        #expect(read.population.users == 3)
        let problem = try #require(read.diagnostics.first)
        #expect(problem.code == .populationInvalidValue)
        #expect(problem.range.start.line == 4 && problem.range.start.column == 9)
    }

    /// A problem on each of many rows: 500 are reported, then one error says the rest are not, where it was found;
    /// the rows that read are still read.
    @Test func pastFiveHundredProblemsTheRestAreNotReported() {
        let rows = (0..<2_000).map { $0 % 2 == 0 ? "ios,2.\($0 % 10)" : "ios,2.4,1" }
        let read = Population.read(csv: Data(("platform,app-version,users\n" + rows.joined(separator: "\n")).utf8))
        #expect(read.diagnostics.count == Population.maximumReported + 1)
        #expect(read.diagnostics.dropLast().allSatisfy { $0.code == .populationFieldCount })
        let last = read.diagnostics.last
        #expect(last?.code == .populationTooManyProblems)
        #expect(last?.message == "more than 500 problems; the rest are not reported")
        #expect(last?.range.start.line == 1_002, "the 501st problem's row")
        #expect(read.population.rows.count == 1_000)
    }

    @Test func aFileWithoutRowsOrPlatformSaysSo() {
        #expect(Population.read(csv: Data()).diagnostics.map(\.code) == [.populationEmpty])
        let noPlatform = Population.read(csv: Data("app-version,users\n2.4,1\n".utf8))
        #expect(noPlatform.diagnostics.map(\.code) == [.populationNoPlatform])
        #expect(noPlatform.population.users == 1)
    }
}

/// The text reports show a rule id or a history's version that spells an escape sequence visibly: a policy or a
/// history file cannot send a terminal one through `launch-policy simulate` or `launch-policy launch`.
@Suite struct TerminalSafeReportTests {
    @Test func aSimulationReportShowsARuleIDVisibly() throws {
        let policy = try policy("""
            policy: 1
            messages:
              down: {default: "Down."}
            rules:
              - {id: "old\\e[2J", when: {app-version: "< 2"}, then: block, message: down}
            """)
        let report = Simulation(policy: policy, population: try population("platform,app-version,users\nios,1.0,5\n"),
            now: now).report
        #expect(report.contains("old\u{241B}[2J"), "\(report)")
        #expect(!report.unicodeScalars.contains("\u{1B}"))
    }

    @Test func aLaunchReportShowsAVersionVisibly() {
        let report = LaunchInfo(kind: .upgrade, count: 2, previousVersion: "1.0\u{1B}]0;title\u{07}").report
        #expect(report.contains("1.0\u{241B}]0;title\u{2407}"), "\(report)")
        #expect(!report.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" })
        // Its lines stay lines.
        #expect(report.split(separator: "\n").count == 10)
    }
}
