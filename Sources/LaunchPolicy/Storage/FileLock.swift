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
/// the holder exits, even when it is killed, so a crash never leaves it held.
enum FileLock {
    /// Runs `body` holding the lock on the file at `path`, creating the file, and its folder, if needed.
    ///
    /// The folder is made only when the file cannot be opened for want of it, on an app's first launch: making sure
    /// of it through `FileManager` and `URL` at every launch cost more than the rest of the lock.
    static func withLock<Result>(atPath path: String, _ body: () throws -> Result) throws -> Result {
        let descriptor = try AtomicFile.makingFolder(of: URL(fileURLWithPath: path)) {
            let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw AtomicFile.systemError() }
            return descriptor
        }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw AtomicFile.systemError() }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }
}
