import Foundation

/// A store that keeps the history in a JSON file, safe to share between processes (an app and its extensions, a
/// command-line tool run twice at once).
///
/// - Writes replace the file atomically (a new file renamed over the old): a process killed while writing leaves
///   the previous history whole.
/// - ``exclusively(_:)`` holds an exclusive lock on a lock file beside it (`NAME.lock`, `flock`), so that two
///   processes recording a launch at once both count. It waits for another holder at most ``lockTimeout`` seconds,
///   then throws ``StateFileLockTimeout`` with nothing recorded: a process that hangs holding the lock does not hang
///   the launch.
/// - A file that cannot be read — corrupt, truncated, another format — is renamed to
///   `NAME.corrupt-YYYYMMDDTHHMMSSZ` (never deleted), and ``read()`` throws
///   ``LaunchHistoryStoreError/corrupt(reason:keptAt:diagnostic:)`` saying where it went and where in it the problem
///   lies; the tracker then starts afresh.
public struct JSONFileLaunchHistoryStore: LaunchHistoryStore {
    /// The file.
    public var url: URL

    /// How long ``exclusively(_:)`` waits for another process to release the lock, in seconds; `.infinity` waits
    /// as long as it takes. A launch holds it for about a millisecond.
    public var lockTimeout: TimeInterval

    /// Creates a store for the file at `url`, which need not exist yet, waiting at most `lockTimeout` seconds for
    /// the lock.
    public init(url: URL, lockTimeout: TimeInterval = 5) {
        self.url = url
        self.lockTimeout = lockTimeout
    }

    /// The lock file beside the history: its name with `.lock` added.
    public var lockURL: URL { URL(fileURLWithPath: url.path + ".lock") }

    public func read() throws -> LaunchHistory? {
        guard let data = try StateFile.read(url) else { return nil }
        do {
            return try LaunchHistory(fileData: data)
        } catch {
            throw LaunchHistoryStoreError.corrupt(reason: error.reason, keptAt: try keepAside(),
                diagnostic: error.diagnostic("the launch history could not be read: \(error.message)"))
        }
    }

    public func write(_ history: LaunchHistory) throws {
        try AtomicFile.write(history.fileData(), to: url)
    }

    public func exclusively<Result>(_ body: () throws -> Result) throws -> Result {
        try FileLock.withLock(besideFileAt: url.path, waitingAtMost: lockTimeout, body)
    }

    /// Renames the unreadable file to a name of its own, beside it, and returns that name.
    private func keepAside() throws -> URL {
        let stamp = Timestamp.text(Date()).filter { $0 != "-" && $0 != ":" }.prefix(15) + "Z"
        var candidate = url.deletingLastPathComponent().appendingPathComponent("\(url.lastPathComponent).corrupt-\(stamp)")
        var suffix = 1
        while FileManager.default.fileExists(atPath: candidate.path) {
            suffix += 1
            candidate = url.deletingLastPathComponent().appendingPathComponent("\(url.lastPathComponent).corrupt-\(stamp)-\(suffix)")
        }
        try FileManager.default.moveItem(at: url, to: candidate)
        return candidate
    }
}
