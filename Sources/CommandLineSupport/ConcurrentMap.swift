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
    /// the others. With one thread, or one element, it runs on the calling thread. The threads are threads of their
    /// own, each with 8 MiB of stack, what a process's main thread has on Linux: `DispatchQueue.concurrentPerform` ran
    /// no more at once than the processors the process may use, so that `--jobs 2` on one processor checked one file
    /// at a time.
    public func concurrentMap<Result: Sendable>(
        threads: Int, _ transform: @escaping @Sendable (Element) -> Result
    ) -> [Result] {
        var results: [Result] = []
        results.reserveCapacity(count)
        run(threads: threads, waiting: count, transform) { results.append($0) }
        return results
    }

    /// `transform` applied to every element as ``concurrentMap(threads:_:)`` applies it, each result handed to
    /// `deliver` on the calling thread, in the elements' order, as soon as it and every result before it are made.
    ///
    /// For output that is to come out in order and should not wait for the end (policy-lint's reports): no more than
    /// two results a thread wait at once for one before them to be made, so that what is held stays bounded however
    /// many elements there are; a thread that would make one more waits until the calling thread has taken some.
    /// (Four a thread held 465 MB over twelve files of 123,567 warnings each, two 405 MB, at the same speed over a
    /// thousand ordinary files.)
    public func concurrentMap<Result: Sendable>(
        threads: Int, _ transform: @escaping @Sendable (Element) -> Result, inOrder deliver: (Result) -> Void
    ) {
        run(threads: threads, waiting: 2 * threads, transform, deliver)
    }

    /// Runs `transform` on up to `threads` threads of their own while the calling thread hands each result to
    /// `deliver`; at most `waiting` results are held ahead of the next one to deliver.
    private func run<Result: Sendable>(
        threads: Int, waiting: Int, _ transform: @escaping @Sendable (Element) -> Result, _ deliver: (Result) -> Void
    ) {
        let threads = Swift.min(Swift.max(threads, 1), count, mostThreads)
        guard threads > 1 else {
            for element in self { deliver(transform(element)) }
            return
        }
        let work = ConcurrentWork<Element, Result>(self, ahead: Swift.max(waiting, 1))
        for _ in 0..<threads {
            let thread = Thread { work.run(transform) }
            thread.stackSize = 8 << 20
            thread.start()
        }
        for index in indices { deliver(work.result(index)) }
    }
}

/// The elements of one ``Swift/Array/concurrentMap(threads:_:)``, which is next, and the results made and not yet
/// taken. Its state is only read and written under its condition's lock.
private final class ConcurrentWork<Element: Sendable, Result: Sendable>: @unchecked Sendable {
    let elements: [Element]
    /// How far past the next result to take a thread may take an element.
    let ahead: Int
    /// The next element not yet taken by a thread.
    private var next = 0
    /// The next result to hand out: those before it are handed out, and no longer held.
    private var taken = 0
    private var finished: [Result?]
    /// Signalled when a result is made, and when one is taken.
    private let changed = NSCondition()

    init(_ elements: [Element], ahead: Int) {
        self.elements = elements
        self.ahead = ahead
        finished = Array(repeating: nil, count: elements.count)
    }

    /// Transforms the next element not yet taken until every one is.
    func run(_ transform: (Element) -> Result) {
        while let index = take() {
            let result = transform(elements[index])
            changed.withLock {
                finished[index] = result
                changed.broadcast()
            }
        }
    }

    /// The index of the next element to transform, once it is no more than `ahead` past the next result to take; nil
    /// when every one is taken.
    private func take() -> Int? {
        changed.withLock {
            while next < elements.count, next >= taken + ahead { changed.wait() }
            guard next < elements.count else { return nil }
            defer { next += 1 }
            return next
        }
    }

    /// The result for `index`, the next one not yet taken, once it is made; it is no longer held here.
    func result(_ index: Int) -> Result {
        changed.withLock {
            while finished[index] == nil { changed.wait() }
            let result = finished[index].take()!
            taken = index + 1
            changed.broadcast()
            return result
        }
    }
}
