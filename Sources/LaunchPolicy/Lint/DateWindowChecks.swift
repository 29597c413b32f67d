import Foundation

/// Date windows: one that has ended (`lint.ended-window`), and a `block` window longer than the configured maximum
/// (`lint.long-block-window`), a maintenance window typed with the wrong day being the usual cause.
extension PolicyChecks {
    func dateWindows() -> [Diagnostic] {
        var found: [Diagnostic] = []
        for index in policy.rules.indices {
            for entry in entries(of: index, throughNot: false) {
                guard case .date(let from, let until) = entry.test, let until else { continue }
                if until <= now {
                    let id = policy.rules[index].id.value
                    found.append(finding(.lintEndedWindow,
                        "the date window ended at \(Timestamp.text(until)), so the rule \"\(id)\" no "
                            + "longer applies; remove the rule or move the window",
                        at: entry.valueRange))
                    continue
                }
                let start = max(from ?? now, now)
                guard policy.rules[index].action.value == .block, until.timeIntervalSince(start) > maximumBlockWindow
                else { continue }
                let id = policy.rules[index].id.value
                let span = from.map { $0 > now ? "from \(Timestamp.text($0))" : "from now" } ?? "from now"
                found.append(finding(.lintLongBlockWindow,
                    "the block rule \"\(id)\" locks users out for \(Self.duration(until.timeIntervalSince(start))) "
                        + "(\(span) until \(Timestamp.text(until))), longer than the \(Self.duration(maximumBlockWindow)) "
                        + "maximum; check the dates, or raise max-block-window in .policy-lint.yaml",
                    at: entry.valueRange))
            }
        }
        return found
    }

    /// `36 hours`, `3 days`, `90 minutes`: the unit people think in for that length.
    static func duration(_ seconds: TimeInterval) -> String {
        func counted(_ value: Double, _ unit: String) -> String {
            let rounded = (value * 10).rounded() / 10
            let number = rounded.plainText
            return "\(number) \(unit)\(rounded == 1 ? "" : "s")"
        }
        if seconds >= 2 * 86_400 { return counted(seconds / 86_400, "day") }
        if seconds >= 2 * 3_600 { return counted(seconds / 3_600, "hour") }
        return counted(seconds / 60, "minute")
    }
}
