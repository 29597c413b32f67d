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
    func fileData() throws -> Data {
        try StateFile.encode(File(
            format: StateFile.currentFormat, count: count, installVersion: installVersion,
            firstLaunchDate: firstLaunchDate.map(Timestamp.text),
            latest: latest.map { record in
                File.Latest(
                    version: record.version, build: record.build, date: record.date.map(Timestamp.text),
                    kind: record.kind.rawValue, previousVersion: record.previousVersion, previousBuild: record.previousBuild,
                    previousLaunchDate: record.previousLaunchDate.map(Timestamp.text), process: record.process)
            }))
    }

    /// Reads what ``fileData()`` wrote; throws the reason when the data is not such a history.
    init(fileData data: Data) throws(StateFileProblem) {
        let file = try StateFile.decode(File.self, from: data)
        func date(_ text: String?, _ field: String) throws(StateFileProblem) -> Date? {
            try text.map { text throws(StateFileProblem) in try StateFile.date(text, field) }
        }
        guard file.count >= 0 else { throw StateFileProblem(reason: "count \(file.count) is negative") }
        self.init(count: file.count, installVersion: file.installVersion,
            firstLaunchDate: try date(file.firstLaunchDate, "firstLaunchDate"))
        if let record = file.latest {
            guard let kind = LaunchKind(rawValue: record.kind) else {
                throw StateFileProblem(reason: "latest.kind \"\(record.kind)\" is not first, upgrade, downgrade or normal")
            }
            latest = LaunchRecord(
                version: record.version, build: record.build, date: try date(record.date, "latest.date"), kind: kind,
                previousVersion: record.previousVersion, previousBuild: record.previousBuild,
                previousLaunchDate: try date(record.previousLaunchDate, "latest.previousLaunchDate"), process: record.process)
        }
    }

    private struct File: VersionedStateFile {
        struct Latest: Codable {
            var version: String
            var build: String?
            var date: String?
            var kind: String
            var previousVersion: String?
            var previousBuild: String?
            var previousLaunchDate: String?
            var process: String?
        }
        var format: Int
        var count: Int
        var installVersion: String?
        var firstLaunchDate: String?
        var latest: Latest?
    }
}
