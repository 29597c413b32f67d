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
    /// "previousLaunchDate", "process"}}`, dates in ISO 8601 UTC.
    func fileJSON() -> JSONValue {
        func date(_ value: Date?) -> JSONValue { .string(value.map(Timestamp.text)) }
        let latest: JSONValue = self.latest.map { record in
            .object([
                ("version", .string(record.version)), ("build", .string(record.build)), ("date", date(record.date)),
                ("kind", .string(record.kind.rawValue)), ("previousVersion", .string(record.previousVersion)),
                ("previousBuild", .string(record.previousBuild)), ("previousLaunchDate", date(record.previousLaunchDate)),
                ("process", .string(record.process)),
            ])
        } ?? .null
        return .object([
            ("format", .int(1)), ("count", .int(count)), ("installVersion", .string(installVersion)),
            ("firstLaunchDate", date(firstLaunchDate)), ("latest", latest),
        ])
    }

    /// Reads what ``fileJSON()`` wrote; throws the reason when the data is not such a history.
    init(fileData data: Data) throws(LaunchHistoryStoreError) {
        func fail(_ reason: String) -> LaunchHistoryStoreError { .unreadable(reason: reason) }
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw fail(data.isEmpty ? "it is empty" : "it is not valid JSON (truncated?)")
        }
        guard let format = object["format"] as? Int, format == 1 else {
            throw fail("it has no format 1; this version of LaunchPolicy reads format 1")
        }
        func string(_ object: [String: Any], _ key: String) throws(LaunchHistoryStoreError) -> String? {
            switch object[key] {
            case nil, is NSNull: return nil
            case let text as String: return text
            default: throw fail("\(key) is not a string")
            }
        }
        func date(_ object: [String: Any], _ key: String) throws(LaunchHistoryStoreError) -> Date? {
            guard let text = try string(object, key) else { return nil }
            guard case .success(let date) = ValueSyntax.date(text) else { throw fail("\(key) \"\(text)\" is not a date") }
            return date
        }
        guard let count = object["count"] as? Int, count >= 0 else { throw fail("count is not a whole number") }
        self.init(count: count, installVersion: try string(object, "installVersion"),
            firstLaunchDate: try date(object, "firstLaunchDate"))
        switch object["latest"] {
        case nil, is NSNull: break
        case let record as [String: Any]:
            guard let version = try string(record, "version") else { throw fail("latest.version is missing") }
            guard let kindText = try string(record, "kind"), let kind = LaunchKind(rawValue: kindText) else {
                throw fail("latest.kind is not first, upgrade, downgrade or normal")
            }
            latest = LaunchRecord(
                version: version, build: try string(record, "build"), date: try date(record, "date"), kind: kind,
                previousVersion: try string(record, "previousVersion"), previousBuild: try string(record, "previousBuild"),
                previousLaunchDate: try date(record, "previousLaunchDate"), process: try string(record, "process"))
        default: throw fail("latest is not an object")
        }
    }
}
