#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// A lock between the threads of this process, in one allocation: the platform's primitive (`os_unfair_lock` on
/// Apple platforms, a `pthread_mutex_t` elsewhere) lives in the object itself.
///
/// Every evaluation makes one (its deferred explanation is read from any thread), so making and freeing it is on the
/// launch path: an `NSLock` on Linux is an object of Foundation's class hierarchy holding a separately allocated
/// mutex, and freeing one alone cost about 540 instructions in the evaluation benchmark. `Mutex` from the
/// Synchronization module would do, but needs iOS 18 and macOS 15.
///
/// Not recursive: a thread that takes it twice deadlocks. Not `Sendable` (no `ManagedBuffer` may be): it is kept by
/// `@unchecked Sendable` classes whose state it guards.
final class Lock: ManagedBuffer<Void, Lock.Primitive> {
    #if canImport(Darwin)
    typealias Primitive = os_unfair_lock
    #else
    typealias Primitive = pthread_mutex_t
    #endif

    /// A new, unlocked lock.
    static func make() -> Lock {
        let lock = unsafeDowncast(create(minimumCapacity: 1) { _ in }, to: Lock.self)
        lock.withUnsafeMutablePointerToElements { primitive in
            #if canImport(Darwin)
            primitive.initialize(to: os_unfair_lock())
            #else
            primitive.initialize(to: pthread_mutex_t())
            let status = pthread_mutex_init(primitive, nil)
            precondition(status == 0, "pthread_mutex_init failed: \(status)")
            #endif
        }
        return lock
    }

    deinit {
        withUnsafeMutablePointerToElements { primitive in
            #if !canImport(Darwin)
            _ = pthread_mutex_destroy(primitive)
            #endif
            _ = primitive.deinitialize(count: 1)
        }
    }

    /// Runs `body` holding the lock.
    @inline(__always)
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        withUnsafeMutablePointerToElements { primitive in
            #if canImport(Darwin)
            os_unfair_lock_lock(primitive)
            #else
            _ = pthread_mutex_lock(primitive)
            #endif
        }
        defer {
            withUnsafeMutablePointerToElements { primitive in
                #if canImport(Darwin)
                os_unfair_lock_unlock(primitive)
                #else
                _ = pthread_mutex_unlock(primitive)
                #endif
            }
        }
        return try body()
    }
}
