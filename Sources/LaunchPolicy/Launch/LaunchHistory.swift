import Foundation

/// What a ``LaunchHistoryStore`` keeps between launches: the count, the install, and the most recent launch.
public struct LaunchHistory: Sendable, Hashable {
    /// How many launches have been recorded.
    public var count: Int
    /// The first app version recorded; nil when the history was imported from keys that did not say.
    public var installVersion: String?
    /// When the first launch was recorded; nil when imported without it.
    public var firstLaunchDate: Date?
    /// The most recent launch.
    public var latest: LaunchRecord?

    /// Creates a history.
    public init(count: Int = 0, installVersion: String? = nil, firstLaunchDate: Date? = nil, latest: LaunchRecord? = nil) {
        self.count = count
        self.installVersion = installVersion
        self.firstLaunchDate = firstLaunchDate
        self.latest = latest
    }
}

/// One recorded launch, with what it knew of the launch before it, so that asking again in the same process can
/// answer exactly as the first time.
public struct LaunchRecord: Sendable, Hashable {
    /// The app version, as the app reported it.
    public var version: String
    /// The build, as the app reported it.
    public var build: String?
    /// When it happened.
    public var date: Date?
    /// Its kind.
    public var kind: LaunchKind
    /// The version of the launch before it.
    public var previousVersion: String?
    /// The build of the launch before it.
    public var previousBuild: String?
    /// When the launch before it happened.
    public var previousLaunchDate: Date?
    /// The process that recorded it (``LaunchTracker/processIdentifier``); nil when imported.
    public var process: String?

    /// Creates a record.
    public init(
        version: String, build: String? = nil, date: Date? = nil, kind: LaunchKind = .normal,
        previousVersion: String? = nil, previousBuild: String? = nil, previousLaunchDate: Date? = nil,
        process: String? = nil
    ) {
        self.version = version
        self.build = build
        self.date = date
        self.kind = kind
        self.previousVersion = previousVersion
        self.previousBuild = previousBuild
        self.previousLaunchDate = previousLaunchDate
        self.process = process
    }
}

extension LaunchHistory {
    /// The history as the JSON file store writes it: `{"format": 1, "count": …, "installVersion": …,
    /// "firstLaunchDate": …, "latest": {"version", "build", "date", "kind", "previousVersion", "previousBuild",
    /// "previousLaunchDate", "process"}}`, dates in ISO 8601 UTC, unknown values left out.
    func fileData() -> Data {
        func date(_ date: Date?) -> JSONValue { .string(date.map(Timestamp.text)) }
        return StateFile.encode([
            "count": .int(count),
            "installVersion": .string(installVersion),
            "firstLaunchDate": date(firstLaunchDate),
            "latest": latest.map { record in
                StateFile.object([
                    "version": .string(record.version), "build": .string(record.build), "date": date(record.date),
                    "kind": .string(record.kind.rawValue), "previousVersion": .string(record.previousVersion),
                    "previousBuild": .string(record.previousBuild),
                    "previousLaunchDate": date(record.previousLaunchDate), "process": .string(record.process),
                ])
            } ?? .null,
        ])
    }

    /// Reads what ``fileData()`` wrote; throws what is wrong, and where, when the data is not such a history.
    init(fileData data: Data) throws(StateFileProblem) {
        self = try StateFile.decode(data) { file throws(StateFileProblem) in
            let count = try file.int("count")
            guard count >= 0 else { throw file.invalid("count", "count \(count) is negative") }
            var history = LaunchHistory(count: count, installVersion: try file.optionalString("installVersion"),
                firstLaunchDate: try file.optionalDate("firstLaunchDate"))
            if let record = try file.optionalObject("latest") {
                let kindName = try record.string("kind")
                guard let kind = LaunchKind(rawValue: kindName) else {
                    throw record.invalid("kind",
                        "latest.kind \"\(kindName)\" is not first, upgrade, downgrade or normal")
                }
                history.latest = LaunchRecord(
                    version: try record.string("version"), build: try record.optionalString("build"),
                    date: try record.optionalDate("date"), kind: kind,
                    previousVersion: try record.optionalString("previousVersion"),
                    previousBuild: try record.optionalString("previousBuild"),
                    previousLaunchDate: try record.optionalDate("previousLaunchDate"),
                    process: try record.optionalString("process"))
            }
            return history
        }
    }
}
