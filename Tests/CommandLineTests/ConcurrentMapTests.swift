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

/// `concurrentMap(threads:_:inOrder:)`, which policy-lint prints its reports through.
@Suite struct InOrderConcurrentMapTests {
    @Test(arguments: [-1, 1, 3, 100])
    func eachResultIsHandedOnOnceInOrderOnTheCallingThread(threads: Int) {
        let caller = pthread_self()
        var handed: [Int] = []
        Array(0..<40).concurrentMap(threads: threads) { number in
            // The later an element, the sooner it finishes.
            usleep(UInt32(40 - number) * 200)
            return number * 2
        } inOrder: { result in
            #expect(pthread_equal(pthread_self(), caller) != 0)
            handed.append(result)
        }
        #expect(handed == (0..<40).map { $0 * 2 })
    }

    /// A slow element holds back the results after it, and no more than two a thread are made while it is slow:
    /// what waits to be handed on stays bounded however many elements there are.
    @Test func resultsWaitingBehindASlowOneAreBounded() {
        let made = Counter()
        var madeBeforeTheFirst = -1
        Array(0..<200).concurrentMap(threads: 2) { number in
            if number == 0 {
                // Long enough for the other thread to make every other result, were it free to.
                usleep(200_000)
            }
            return made.add()
        } inOrder: { made in
            if madeBeforeTheFirst < 0 { madeBeforeTheFirst = made - 1 }
        }
        #expect(made.value == 200)
        #expect((1...4).contains(madeBeforeTheFirst), "\(madeBeforeTheFirst) made while the first was")
    }

    @Test func nothingIsHandedOnForNoElements() {
        var handed = 0
        [Int]().concurrentMap(threads: 4) { $0 } inOrder: { _ in handed += 1 }
        #expect(handed == 0)
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
