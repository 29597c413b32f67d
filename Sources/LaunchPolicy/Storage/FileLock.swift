import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive lock shared by every process that opens the same lock file (`flock`). The kernel releases it when
/// the holder exits, even when it is killed, so a crash never leaves it held; a holder that hangs would, and so the
/// wait has a deadline.
enum FileLock {
    /// Runs `body` holding the lock of the state file at `file`: the lock file beside it, `file` with `.lock` added.
    ///
    /// A state file that cannot be one (a folder, a pipe, `/dev/null`) is refused before the lock file is made beside
    /// it, as reading would refuse it: that is where the user is told, and no stray file is left in its folder.
    static func withLock<Result>(
        besideFileAt file: String, waitingAtMost seconds: TimeInterval, _ body: () throws -> Result
    ) throws -> Result {
        switch FileStatus.of(file, followingLinks: true) {
        case .folder: throw AtomicFile.notRegularFile(isFolder: true)
        case .other: throw AtomicFile.notRegularFile(isFolder: false)
        case .file, .link, .missing, .unknown: break
        }
        return try withLock(atPath: file + ".lock", waitingAtMost: seconds, body)
    }

    /// Runs `body` holding the lock on the file at `path`, creating the file, and its folder, if needed; waits at
    /// most `seconds` for it (`.infinity`: as long as it takes), then throws ``StateFileLockTimeout``.
    ///
    /// The folder is made only when the file cannot be opened for want of it, on an app's first launch: making sure
    /// of it through `FileManager` and `URL` at every launch cost more than the rest of the lock.
    static func withLock<Result>(
        atPath path: String, waitingAtMost seconds: TimeInterval, _ body: () throws -> Result
    ) throws -> Result {
        let descriptor = try AtomicFile.makingFolder(of: URL(fileURLWithPath: path)) {
            let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw AtomicFile.systemError() }
            return descriptor
        }
        defer { close(descriptor) }
        guard try lock(descriptor, waitingAtMost: seconds) else {
            throw StateFileLockTimeout(lockFile: URL(fileURLWithPath: path), seconds: seconds)
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    /// Takes the lock: at once when it is free (nearly always, as a launch holds it for about a millisecond),
    /// otherwise asking again after a pause that doubles from 1 ms to 32 ms, until `seconds` have passed. Whether it
    /// was taken.
    private static func lock(_ descriptor: Int32, waitingAtMost seconds: TimeInterval) throws -> Bool {
        guard seconds != .infinity else {
            while flock(descriptor, LOCK_EX) != 0 {
                guard errno == EINTR else { throw AtomicFile.systemError() }
            }
            return true
        }
        var start: UInt64?  // when the lock was first found held: the clock is read only then
        let limit = UInt64(max(0, min(seconds, 1e9)) * 1e9)
        var pause: UInt32 = 1_000
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else { throw AtomicFile.systemError() }
            let now = DispatchTime.now().uptimeNanoseconds
            let waited = now &- (start ?? now)
            start = start ?? now
            guard waited < limit else { return false }
            usleep(UInt32(min(UInt64(pause), (limit - waited) / 1_000 + 1)))
            pause = min(pause * 2, 32_000)
        }
        return true
    }
}

/// Another writer (another process, or another store of the same file in this one) held a state file's lock for
/// longer than its store waits (the store's `lockTimeout`): nothing was written, and the file is as the writer
/// leaves it.
public struct StateFileLockTimeout: LocalizedError, Sendable, Hashable, CustomStringConvertible {
    /// The lock file.
    public var lockFile: URL
    /// How long the store waited, in seconds.
    public var seconds: TimeInterval

    public var description: String {
        "the lock \(lockFile.path) was held by another writer for longer than \(seconds.plainText) s; "
            + "nothing was written"
    }

    /// The description, which Foundation's `localizedDescription` gives.
    public var errorDescription: String? { description }
}
