import CommandLineSupport
import Dispatch
import Foundation
import Testing

@Suite struct ConcurrentMapTests {
    @Test func resultsKeepTheElementsOrderWhenLaterOnesFinishFirst() {
        let numbers = Array(0..<16)
        // The later an element, the sooner it finishes.
        let doubled = numbers.concurrentMap(threads: 4) { number in
            usleep(UInt32(16 - number) * 2_000)
            return number * 2
        }
        #expect(doubled == numbers.map { $0 * 2 })
    }

    @Test func theThreadsRunAtOnce() {
        // Two elements that each wait for the other: taken one at a time, the first would wait in vain.
        let arrived = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]
        let met = [0, 1].concurrentMap(threads: 2) { index in
            arrived[index].signal()
            return arrived[1 - index].wait(timeout: .now() + 5) == .success
        }
        #expect(met == [true, true])
    }

    @Test func asManyThreadsRunAtOnceAsAskedWhateverTheProcessors() {
        // Four elements that each wait for the other three: with fewer than four at once, one waits in vain. On a
        // machine of two processors (or under `taskset -c 0`), `concurrentPerform` ran two (or one) at once.
        let arrived = (0..<4).map { _ in DispatchSemaphore(value: 0) }
        let met = Array(0..<4).concurrentMap(threads: 4) { index in
            for _ in 0..<3 { arrived[index].signal() }
            return arrived.indices.filter { $0 != index }.allSatisfy {
                arrived[$0].wait(timeout: .now() + 5) == .success
            }
        }
        #expect(met == [true, true, true, true])
    }

    @Test(arguments: [-1, 0, 1, 3, 100])
    func anyNumberOfThreadsTransformsEveryElementOnce(threads: Int) {
        let counted = Counter()
        let texts = (0..<50).map(String.init).concurrentMap(threads: threads) { text in
            counted.add()
            return "#" + text
        }
        #expect(texts == (0..<50).map { "#\($0)" })
        #expect(counted.value == 50)
        #expect([Int]().concurrentMap(threads: threads) { $0 }.isEmpty)
    }

    @Test func noMoreThan256ThreadsRunAtOnceHoweverManyAreAsked() {
        let running = Counter()
        let peak = Counter()
        let doubled = Array(0..<400).concurrentMap(threads: 100_000) { number in
            peak.raise(to: running.add())
            usleep(20_000)
            running.subtract()
            return number * 2
        }
        #expect(doubled == (0..<400).map { $0 * 2 })
        #expect(peak.value <= 256, "\(peak.value) at once")
        #expect(peak.value > 1, "at once, not one after another")
    }
}

/// A count that threads add to.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    /// Adds one, and returns the count.
    @discardableResult func add() -> Int { lock.withLock { count += 1; return count } }
    func subtract() { lock.withLock { count -= 1 } }
    /// Keeps the greater of the count and `value`.
    func raise(to value: Int) { lock.withLock { count = max(count, value) } }
}
