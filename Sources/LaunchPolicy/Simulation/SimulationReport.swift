import Foundation

/// A simulation for people (`text`), scripts (`json`) and spreadsheets (`csv`).
extension Simulation {
    /// `18.3%`: a share with one decimal.
    static func percent(_ share: Double) -> String { String(format: "%.1f%%", share * 100) }

    /// `100,000`: a count with thousands separators, the same in every locale.
    static func count(_ value: Int) -> String {
        let digits = String(value)
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { grouped += "," }
            grouped.append(digit)
        }
        return grouped
    }

    /// The outcomes that occurred, in ``Outcome`` order.
    private func outcomes(of tally: Tally) -> [Outcome] { Outcome.allCases.filter { tally[$0] > 0 } }

    // MARK: text

    /// The report for people: outcomes, rules, then platforms and app versions, each with users and shares; every
    /// character a terminal would act on shown visibly (``TerminalText``).
    public var report: String {
        var lines = ["\(Self.count(total.users)) users at \(Timestamp.text(now))"]
        if !estimatedRows.isEmpty {
            // The first lines only: a population of many large rows has thousands (the JSON lists them all).
            let shown = estimatedRows.prefix(10).map(String.init).joined(separator: ", ")
                + (estimatedRows.count > 10 ? " and \(Self.count(estimatedRows.count - 10)) more" : "")
            lines.append("(rollouts estimated from the first users of the rows on lines \(shown): at most "
                + "\(Self.count(rolloutDrawLimit)) a row and \(Self.count(rolloutDrawBudget)) in all)")
        }
        lines += ["", "Outcomes"]
        let labelWidth = Outcome.allCases.map(\.label.count).max() ?? 0
        let countWidth = Self.count(total.users).count
        for outcome in Outcome.allCases {
            lines.append("  " + outcome.label.padding(toLength: labelWidth + 2, withPad: " ", startingAt: 0)
                + String(repeating: " ", count: max(0, countWidth - Self.count(total[outcome]).count))
                + Self.count(total[outcome]) + "  " + Self.percent(total.share(outcome)))
        }
        lines += ["", "Rules (users each rule matches)"]
        let ruleWidth = rules.map(\.rule.count).max() ?? 0
        for rule in rules {
            lines.append("  " + rule.rule.padding(toLength: ruleWidth + 2, withPad: " ", startingAt: 0)
                + String(repeating: " ", count: max(0, countWidth - Self.count(rule.users).count)) + Self.count(rule.users)
                + "  " + Self.percent(share(of: rule)).padding(toLength: 7, withPad: " ", startingAt: 0) + rule.action.rawValue)
        }
        lines += ["", "By platform"]
        lines += platforms.map { "  " + groupLine($0, name: $0.platform) }
        lines += ["", "By app version"]
        lines += versions.map { "  " + groupLine($0, name: "\($0.platform) \($0.appVersion ?? "")") }
        return TerminalText.visible(lines.joined(separator: "\n"), keepingLineFeeds: true)
    }

    /// `ios 2.3.9: 5,000 users (5.0%): update required 100.0%`.
    private func groupLine(_ group: Group, name: String) -> String {
        let share = total.users == 0 ? 0 : Double(group.tally.users) / Double(total.users)
        let parts = outcomes(of: group.tally).map { "\($0.label) \(Self.percent(group.tally.share($0)))" }
        return "\(name): \(Self.count(group.tally.users)) users (\(Self.percent(share))): " + parts.joined(separator: ", ")
    }

    // MARK: json

    /// `{"users", "now", "estimated-rows", "outcomes": {OUTCOME: {"users", "share"}}, "rules": [{"rule", "action", "users", "share"}],
    /// "platforms": [{"platform", "users", "outcomes"}], "versions": [{"platform", "app-version", "users",
    /// "outcomes"}]}`. Shares are fractions from 0 to 1: of all users for `outcomes` and `rules`, of the group's
    /// users inside a group.
    public var json: JSONValue {
        func outcomes(_ tally: Tally) -> JSONValue {
            .object(Outcome.allCases.map { outcome in
                (outcome.rawValue, .object([("users", .int(tally[outcome])), ("share", .double(tally.share(outcome)))]))
            })
        }
        return .object([
            ("users", .int(total.users)), ("now", .string(Timestamp.text(now))),
            ("estimated-rows", .array(estimatedRows.map(JSONValue.int))), ("outcomes", outcomes(total)),
            ("rules", .array(rules.map { rule in
                .object([("rule", .string(rule.rule)), ("action", .string(rule.action.rawValue)), ("users", .int(rule.users)),
                    ("share", .double(share(of: rule)))])
            })),
            ("platforms", .array(platforms.map { group in
                .object([("platform", .string(group.platform)), ("users", .int(group.tally.users)),
                    ("outcomes", outcomes(group.tally))])
            })),
            ("versions", .array(versions.map { group in
                .object([("platform", .string(group.platform)), ("app-version", .string(group.appVersion)),
                    ("users", .int(group.tally.users)), ("outcomes", outcomes(group.tally))])
            })),
        ])
    }

    // MARK: csv

    /// One row per scope — `total`, each `platform`, each `version`, each `rule` — with the users in it and, for
    /// the first three, the users of each outcome: `scope,platform,app-version,rule,users,blocked,…,untouched`.
    public var csv: String {
        let header = ["scope", "platform", "app-version", "rule", "users"] + Outcome.allCases.map(\.rawValue)
        func row(_ scope: String, _ platform: String, _ version: String, _ rule: String, _ tally: Tally) -> [String] {
            [scope, platform, version, rule, String(tally.users)] + Outcome.allCases.map { String(tally[$0]) }
        }
        var rows = [header, row("total", "", "", "", total)]
        rows += platforms.map { row("platform", $0.platform, "", "", $0.tally) }
        rows += versions.map { row("version", $0.platform, $0.appVersion ?? "", "", $0.tally) }
        rows += rules.map { ["rule", "", "", $0.rule, String($0.users)] + Outcome.allCases.map { _ in "" } }
        return rows.map { $0.map(Self.csvField).joined(separator: ",") }.joined(separator: "\n") + "\n"
    }

    /// A field quoted when it must be.
    static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        var field = "\""
        field.append(text) { $0 == "\"" ? "\"\"" : nil }
        field += "\""
        return field
    }
}
