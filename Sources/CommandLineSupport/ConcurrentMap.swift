import Dispatch
import Foundation

/// The most threads `concurrentMap(threads:_:)` runs at once, however many it is asked for: each thread reserves
/// 8 MiB of address space, and a thread the system refuses to start would be waited for in vain.
let mostThreads = 256

extension Array where Element: Sendable {
    /// `transform` applied to every element, on `threads` threads at once (no more than there are elements, nor than
    /// 256), the results in the elements' order.
    ///
    /// Each thread takes the next element not yet taken, so that a slow element holds up one thread and not a share of
    /// the others. With one thread, or one element, it runs on the calling thread. The threads are the calling one
    /// and threads of their own, each with 8 MiB of stack, what a process's main thread has on Linux:
    /// `DispatchQueue.concurrentPerform` ran no more at once than the processors the process may use, so that
    /// `--jobs 2` on one processor checked one file at a time.
    public func concurrentMap<Result: Sendable>(
        threads: Int, _ transform: @escaping @Sendable (Element) -> Result
    ) -> [Result] {
        let threads = Swift.min(Swift.max(threads, 1), count, mostThreads)
        guard threads > 1 else { return map(transform) }
        let work = ConcurrentWork<Element, Result>(self)
        let finished = DispatchSemaphore(value: 0)
        for _ in 1..<threads {
            let thread = Thread {
                work.run(transform)
                finished.signal()
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        work.run(transform)
        for _ in 1..<threads { finished.wait() }
        return work.results()
    }
}

/// The elements of one ``Swift/Array/concurrentMap(threads:_:)``, which is next, and the results so far. Its state is
/// only read and written under its lock.
private final class ConcurrentWork<Element: Sendable, Result: Sendable>: @unchecked Sendable {
    let elements: [Element]
    private var next = 0
    private var finished: [Result?]
    private let lock = NSLock()

    init(_ elements: [Element]) {
        self.elements = elements
        finished = Array(repeating: nil, count: elements.count)
    }

    /// Transforms the next element not yet taken until every one is.
    func run(_ transform: (Element) -> Result) {
        while let index = take() {
            finish(index, with: transform(elements[index]))
        }
    }

    /// The index of the next element to transform, or nil when every one is taken.
    func take() -> Int? {
        lock.withLock {
            guard next < elements.count else { return nil }
            defer { next += 1 }
            return next
        }
    }

    func finish(_ index: Int, with result: Result) {
        lock.withLock { finished[index] = result }
    }

    /// The results in the elements' order, once every element is finished.
    func results() -> [Result] {
        lock.withLock { finished.map { $0! } }
    }
}
