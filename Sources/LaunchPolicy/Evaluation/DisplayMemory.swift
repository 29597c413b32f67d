import Foundation

/// What the app has shown before, and when: the interpreter reads it to honour `show` and `every`, and the app
/// records into it what it actually showed. Evaluating never changes it.
///
/// Each record is keyed by the rule and by what `show` makes it remember:
/// - `once`: the message text shown (its SHA-256), so that an edited message is shown again; for `present`, the
///   screen;
/// - `once-per-version`: the message id (or screen) and the app version;
/// - `every-launch`: the rule alone, consulted only when the rule has `every`.
///
/// A rule with `every` may be shown again once that long has passed since it was last shown.
public struct DisplayMemory: Sendable, Hashable {
    /// One thing that was shown.
    public struct Key: Sendable, Hashable, Comparable {
        /// The rule's id.
        public var rule: String
        /// What the rule's `show` remembers, such as `version 2.5.0, message update-available`.
        public var scope: String

        /// Creates a key.
        public init(rule: String, scope: String) {
            self.rule = rule
            self.scope = scope
        }

        public static func < (lhs: Key, rhs: Key) -> Bool { (lhs.rule, lhs.scope) < (rhs.rule, rhs.scope) }
    }

    /// When each thing was last shown.
    public private(set) var shown: [Key: Date]

    /// Creates a memory; empty by default.
    public init(shown: [Key: Date] = [:]) {
        self.shown = shown
    }

    /// When this was last shown, or nil if never.
    public func lastShown(_ key: Key) -> Date? { shown[key] }

    /// Records that the app showed what a directive says, at `date`. Gates are not remembered: they show on every
    /// launch.
    public mutating func record(_ directive: Directive, at date: Date) {
        guard let key = directive.memoryKey else { return }
        record(key, at: date)
    }

    /// Records that something was shown at `date`.
    public mutating func record(_ key: Key, at date: Date) {
        shown[key] = date
    }

    /// Forgets everything a rule showed, so that it may show again.
    public mutating func forget(rule: String) {
        shown = shown.filter { $0.key.rule != rule }
    }
}

/// Where the memory of what was shown is kept between launches.
public protocol DisplayMemoryStore: Sendable {
    /// The memory as last saved; empty when nothing was saved yet.
    func load() throws -> DisplayMemory
    /// Replaces the saved memory.
    func save(_ memory: DisplayMemory) throws
    /// Loads the memory, changes it and saves it, with every other writer kept out meanwhile: other threads, and for
    /// stores shared between processes (an app and its extensions), other processes, so that what each records is
    /// kept. The default loads, changes and saves, and keeps no one out.
    func update<Result>(_ change: (inout DisplayMemory) throws -> Result) throws -> Result
}

extension DisplayMemoryStore {
    public func update<Result>(_ change: (inout DisplayMemory) throws -> Result) throws -> Result {
        var memory = try load()
        let result = try change(&memory)
        try save(memory)
        return result
    }
}

/// A store that keeps the memory in this process only: for tests, previews and simulations.
public final class InMemoryDisplayMemoryStore: DisplayMemoryStore, @unchecked Sendable {
    // `Mutex` needs iOS 18; a lock guarding one value works everywhere the library runs.
    private let lock = Lock.make()
    private var memory: DisplayMemory

    /// Creates a store holding `memory`.
    public init(_ memory: DisplayMemory = DisplayMemory()) {
        self.memory = memory
    }

    public func load() -> DisplayMemory { lock.withLock { memory } }

    public func save(_ memory: DisplayMemory) {
        lock.withLock { self.memory = memory }
    }

    public func update<Result>(_ change: (inout DisplayMemory) throws -> Result) rethrows -> Result {
        try lock.withLock { try change(&memory) }
    }
}

/// A store that keeps the memory in a JSON file, written atomically: a crash while saving leaves the previous file
/// whole.
///
/// The file reads `{"format": 1, "shown": [{"rule": …, "scope": …, "at": "2026-11-20T09:30:00.000Z"}]}`, records
/// sorted by rule and scope. A file that exists but cannot be read as one throws ``DisplayMemoryError`` and is never
/// overwritten by this store's `load`.
///
/// ``update(_:)`` holds an exclusive lock on a lock file beside it (`NAME.lock`, `flock`), so that an app and its
/// extensions recording at once both keep what they recorded; it waits for another holder at most ``lockTimeout``
/// seconds, then throws ``StateFileLockTimeout`` with nothing written.
public struct JSONFileDisplayMemoryStore: DisplayMemoryStore {
    /// The file.
    public var url: URL

    /// How long ``update(_:)`` waits for another process to release the lock, in seconds; `.infinity` waits as long
    /// as it takes.
    public var lockTimeout: TimeInterval

    /// Creates a store for the file at `url`, which need not exist yet, waiting at most `lockTimeout` seconds for
    /// the lock.
    public init(url: URL, lockTimeout: TimeInterval = 5) {
        self.url = url
        self.lockTimeout = lockTimeout
    }

    /// The lock file beside the memory: its name with `.lock` added.
    public var lockURL: URL { URL(fileURLWithPath: url.path + ".lock") }

    public func update<Result>(_ change: (inout DisplayMemory) throws -> Result) throws -> Result {
        try FileLock.withLock(besideFileAt: url.path, waitingAtMost: lockTimeout) {
            var memory = try load()
            let result = try change(&memory)
            try save(memory)
            return result
        }
    }

    public func load() throws -> DisplayMemory {
        guard let data = try StateFile.read(url) else { return DisplayMemory() }
        do {
            return try StateFile.decode(data) { file throws(StateFileProblem) in
                var memory = DisplayMemory()
                for record in try file.objects("shown") {
                    memory.record(.init(rule: try record.string("rule"), scope: try record.string("scope")),
                        at: try record.date("at"))
                }
                return memory
            }
        } catch {
            throw DisplayMemoryError(url: url, reason: "it is not a memory file: \(error.reason)",
                diagnostic: error.diagnostic("the memory file could not be read: \(error.message)"))
        }
    }

    public func save(_ memory: DisplayMemory) throws {
        let records = memory.shown.sorted { $0.key < $1.key }.map { shown in
            JSONValue.object([
                ("rule", .string(shown.key.rule)), ("scope", .string(shown.key.scope)),
                ("at", .string(Timestamp.text(shown.value))),
            ])
        }
        try AtomicFile.write(StateFile.encode(["shown": .array(records)]), to: url)
    }
}

/// A memory file that exists but cannot be read.
public struct DisplayMemoryError: Error, Sendable, CustomStringConvertible {
    /// The file.
    public var url: URL
    /// What is wrong with it, in words that say where.
    public var reason: String
    /// What is wrong with it as a diagnostic in the file — a stable `state.` code, the line and column of the value
    /// at fault or of the byte where the text stops being JSON — for tools that show it as they show a policy's.
    /// Nil when the error was made without one.
    public var diagnostic: Diagnostic?

    /// Creates an error.
    public init(url: URL, reason: String, diagnostic: Diagnostic? = nil) {
        self.url = url
        self.reason = reason
        self.diagnostic = diagnostic
    }

    public var description: String { "the memory file \(url.path) could not be read: \(reason)" }
}

extension DisplayMemoryError: LocalizedError {
    /// The description, which Foundation's `localizedDescription` gives.
    public var errorDescription: String? { description }
}
