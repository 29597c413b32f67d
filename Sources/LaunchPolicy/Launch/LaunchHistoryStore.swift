import Foundation

/// Where the launch history is kept: small enough to fake in one line —
/// `ClosureLaunchHistoryStore(read: { nil }, write: { _ in })`.
public protocol LaunchHistoryStore: Sendable {
    /// The stored history, or nil when nothing is stored yet.
    ///
    /// - Throws: ``LaunchHistoryStoreError/corrupt(reason:keptAt:diagnostic:)`` when what is stored cannot be read;
    ///   the store has kept it aside, and the tracker starts a fresh history.
    func read() throws -> LaunchHistory?
    /// Replaces the stored history.
    func write(_ history: LaunchHistory) throws
    /// Runs `body` — a read and a write — with every other writer kept out: other threads, and for stores shared
    /// between processes, other processes. The default runs `body` as it is.
    func exclusively<Result>(_ body: () throws -> Result) throws -> Result
}

extension LaunchHistoryStore {
    public func exclusively<Result>(_ body: () throws -> Result) throws -> Result { try body() }
}

/// Why a store could not be used.
public enum LaunchHistoryStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was stored could not be read; it was kept at `keptAt` (nil when the store keeps it another way, as
    /// UserDefaults does under `corrupt.` keys). `diagnostic` places the problem in the file kept at `keptAt`, with a
    /// stable `state.` code (nil for a store that is not a file).
    case corrupt(reason: String, keptAt: URL?, diagnostic: Diagnostic? = nil)

    public var description: String {
        switch self {
        case .corrupt(let reason, let keptAt, _):
            "the launch history could not be read (\(reason))" + (keptAt.map { "; it was kept as \($0.path)" } ?? "")
        }
    }
}

/// A store that keeps the history in this process only: for tests, previews and simulations.
public final class InMemoryLaunchHistoryStore: LaunchHistoryStore, @unchecked Sendable {
    // `Mutex` needs iOS 18; a lock guarding one value works everywhere the library runs.
    private let lock = NSRecursiveLock()
    private var history: LaunchHistory?

    /// Creates a store holding `history` (nothing by default).
    public init(_ history: LaunchHistory? = nil) {
        self.history = history
    }

    public func read() -> LaunchHistory? { lock.withLock { history } }

    public func write(_ history: LaunchHistory) {
        lock.withLock { self.history = history }
    }

    public func exclusively<Result>(_ body: () throws -> Result) throws -> Result {
        try lock.withLock(body)
    }
}

/// A store made of two closures, for tests and for apps that keep the history somewhere of their own.
public struct ClosureLaunchHistoryStore: LaunchHistoryStore {
    private let readHistory: @Sendable () throws -> LaunchHistory?
    private let writeHistory: @Sendable (LaunchHistory) throws -> Void

    /// Creates a store that reads and writes with these closures.
    public init(
        read: @escaping @Sendable () throws -> LaunchHistory?, write: @escaping @Sendable (LaunchHistory) throws -> Void
    ) {
        readHistory = read
        writeHistory = write
    }

    public func read() throws -> LaunchHistory? { try readHistory() }
    public func write(_ history: LaunchHistory) throws { try writeHistory(history) }
}

extension LaunchHistoryStoreError: LocalizedError {
    /// The description, which Foundation's `localizedDescription` gives.
    public var errorDescription: String? { description }
}
