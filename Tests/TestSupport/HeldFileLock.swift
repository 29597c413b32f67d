import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive `flock` on a file, held as another process would hold it (a description of the file of its own,
/// which conflicts with any other, in this process too), until ``release()`` or `atMost` seconds, whichever is
/// first: so that code that waits without a deadline makes a test fail, not hang.
public final class HeldFileLock: @unchecked Sendable {
    private let lock = NSLock()
    private var descriptor: Int32

    /// Takes the lock on the file at `path`, creating it.
    public init(path: String, atMost seconds: TimeInterval = 20) throws {
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0, flock(descriptor, LOCK_EX) == 0 else { throw POSIXError(.EIO) }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in release() }
    }

    /// Releases the lock (once; later calls do nothing).
    public func release() {
        lock.withLock {
            guard descriptor >= 0 else { return }
            close(descriptor)
            descriptor = -1
        }
    }

    /// Releases the lock after `seconds`, from another thread.
    public func release(after seconds: TimeInterval) {
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in release() }
    }
}
