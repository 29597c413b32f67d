import Foundation
import Testing

@testable import LaunchPolicy

/// The lock that guards what an evaluation works out later (its explanation and findings), read from any thread.
@Suite struct LockTests {
    /// A counter bumped by many threads at once under the lock loses no increment: without mutual exclusion the
    /// read-modify-write of two threads interleaves and the total comes up short.
    @Test func incrementsFromManyThreadsAreNeverLost() {
        final class Counter: @unchecked Sendable {
            let lock = Lock.make()
            var value = 0
        }
        let counter = Counter()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<20_000 {
                counter.lock.withLock {
                    let seen = counter.value
                    counter.value = seen + 1
                }
            }
        }
        #expect(counter.lock.withLock { counter.value } == 160_000)
    }

    /// What the body returns or throws comes out of `withLock`, and the lock is free again afterwards either way.
    @Test func withLockPassesResultsAndErrorsThroughAndReleases() {
        struct Refused: Error {}
        let lock = Lock.make()
        #expect(lock.withLock { 42 } == 42)
        #expect(throws: Refused.self) { try lock.withLock { throw Refused() } }
        #expect(lock.withLock { "free again" } == "free again")
    }
}
