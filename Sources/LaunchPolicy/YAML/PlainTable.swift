/// A list that only grows, for the tables of a read: the composer adds to them for every node (its record, its text,
/// its place among its parent's children, its entries on the composer's stacks).
///
/// An `Array` checks at every change that its storage is not shared with a copy, a call into the Swift runtime:
/// about 3,800 calls a read of 48 rules and 146,000 of 2,000, 1.5% of reading and decoding. A table is one object,
/// shared by reference, so there is nothing to check: the composer that makes a table is the only one that changes
/// it, and when it hands its tables to the ``YAMLTree`` it builds, it keeps none of them, and the tree only reads
/// them. That is what makes a table safe to share between threads once in a tree (`@unchecked Sendable`).
///
/// Every index is checked, as an array's are.
final class PlainTable<Element: Sendable>: @unchecked Sendable {
    /// The elements' storage; nil until the table has room for one.
    private var storage: UnsafeMutablePointer<Element>?
    private var capacity = 0
    /// How many elements the table holds.
    private(set) var count = 0

    /// An empty table with room for `capacity` elements before it grows; with none, it takes no memory until the
    /// first element.
    init(capacity: Int = 0) {
        if capacity > 0 { grow(toHold: capacity) }
    }

    deinit {
        storage?.deinitialize(count: count)
        storage?.deallocate()
    }

    /// The storage of a table that holds an element, or has room for one.
    private var base: UnsafeMutablePointer<Element> { storage.unsafelyUnwrapped }

    /// The element at `index`, which is below ``count``.
    subscript(index: Int) -> Element {
        get {
            precondition(index >= 0 && index < count, "index out of range")
            return base[index]
        }
        set {
            precondition(index >= 0 && index < count, "index out of range")
            base[index] = newValue
        }
    }

    /// Adds `element` at the end. Taken, not copied: a text handed over moves into the table.
    @inline(__always)
    func append(_ element: consuming Element) {
        if count == capacity { grow(toHold: count + 1) }
        (base + count).initialize(to: element)
        count += 1
    }

    /// Adds the elements of `other` at `start ..< end` at the end, in one copy.
    func append(_ other: PlainTable<Element>, from start: Int, to end: Int) {
        precondition(start >= 0 && start <= end && end <= other.count, "range out of bounds")
        let added = end - start
        guard added > 0 else { return }
        if count + added > capacity { grow(toHold: count + added) }
        (base + count).initialize(from: other.base + start, count: added)
        count += added
    }

    /// Moves the elements to storage of at least twice the capacity, at least 16 elements and at least `needed`.
    @inline(never)
    private func grow(toHold needed: Int) {
        let (doubled, overflow) = capacity.multipliedReportingOverflow(by: 2)
        let larger = max(overflow ? needed : doubled, needed, 16)
        let moved = UnsafeMutablePointer<Element>.allocate(capacity: larger)
        if let storage {
            moved.moveInitialize(from: storage, count: count)
            storage.deallocate()
        }
        storage = moved
        capacity = larger
    }
}
