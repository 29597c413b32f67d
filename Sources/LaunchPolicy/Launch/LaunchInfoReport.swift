import Foundation

extension LaunchInfo {
    /// The launch as one JSON object, the shape `launch-policy launch --format json` prints: `kind`, `count`,
    /// `previousVersion`, `previousBuild`, `installVersion`, `firstLaunchDate`, `previousLaunchDate` (ISO 8601,
    /// UTC), `daysSinceLastLaunch`, `daysSinceInstall`, `source` (default `organic`); absent values are null.
    public var json: JSONValue {
        .object(reportFields.map { ($0.key, $0.value) })
    }

    /// The same fields, a `key: value` line each, for people; every character a terminal would act on shown visibly
    /// (``TerminalText``), as the versions are what the app or a history file said.
    public var report: String {
        let width = reportFields.map(\.key.count).max() ?? 0
        let lines = reportFields.map { field in
            let value: String = switch field.value {
            case .string(let text): text
            case .int(let number): String(number)
            default: "-"
            }
            return field.key.padding(toLength: width + 2, withPad: " ", startingAt: 0) + value
        }
        return TerminalText.visible(lines.joined(separator: "\n"), keepingLineFeeds: true)
    }

    private var reportFields: [(key: String, value: JSONValue)] {
        func date(_ value: Date?) -> JSONValue { .string(value.map(Timestamp.text)) }
        func number(_ value: Int?) -> JSONValue { value.map(JSONValue.int) ?? .null }
        return [
            ("kind", .string(kind?.rawValue)), ("count", number(count)), ("previousVersion", .string(previousVersion)),
            ("previousBuild", .string(previousBuild)), ("installVersion", .string(installVersion)),
            ("firstLaunchDate", date(firstLaunchDate)), ("previousLaunchDate", date(previousLaunchDate)),
            ("daysSinceLastLaunch", number(daysSinceLastLaunch)), ("daysSinceInstall", number(daysSinceInstall)),
            ("source", .string((source ?? .organic).rawValue)),
        ]
    }
}
