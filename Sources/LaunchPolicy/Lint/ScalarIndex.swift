/// The scalars of a file, each once, in the order written: for checks that read how a value was written (its
/// quoting), and for pointing at a character inside a value (the `2.4` of `"<= 2.4"`).
///
/// The index holds positions in the reader's tree, not nodes: plain numbers, so that building it for every scalar
/// of a file copies and retains nothing.
struct ScalarIndex {
    /// A scalar, as its position in the tree, and the scalar key of the mapping entry it is the value of, if any.
    /// What the checks ask of every scalar is kept here, read once from the tree as the index is built: the tree of
    /// a large file no longer fits the processor's cache by the time lint asks, and going back to each scalar's
    /// record for its position and style missed the cache for nearly every scalar.
    struct Scalar {
        /// The scalar's record in the tree.
        let record: Int
        /// The record of its entry's key; -1 when it is not the value of an entry under a scalar key.
        let keyRecord: Int
        /// The byte offset it starts at: the index is in this order.
        let offset: Int
        /// Whether it is itself a mapping key.
        let isKey: Bool
        /// Whether it is written plain and without a tag: the scalars other YAML tools may read as another type.
        let isPlainUntagged: Bool
    }

    /// A node still to visit, with what its parents say of it.
    private struct Pending {
        let record: Int
        let keyRecord: Int
        let isKey: Bool
    }

    /// The tree the scalars are in; nil when there are none.
    private let tree: YAMLTree?
    /// Every scalar, keys included, in the order written.
    private(set) var scalars: [Scalar] = []

    /// No scalars: for files that were not read as YAML.
    init() {
        tree = nil
    }

    /// The scalars under `root`. A node reached again through an alias is visited once, at its anchor.
    init(root: YAMLNode) {
        let tree = root.tree
        self.tree = tree
        var visitedAnchors: Set<Int> = []
        // Sized for every node up front, as the reader's tables are: grown by doubling, the list of scalars was
        // copied about ten times for each file.
        var found: [Scalar] = []
        found.reserveCapacity(tree.records.count)
        var pending = [Pending(record: root.index, keyRecord: -1, isKey: false)]
        while let next = pending.popLast() {
            let record = tree.records[next.record]
            let decoration = record.decoration >= 0 ? tree.decorations[record.decoration] : nil
            if decoration?.anchor != nil, !visitedAnchors.insert(record.range.start.offset).inserted {
                continue
            }
            let first = record.firstChild
            let count = record.childCount
            switch record.kind {
            case .scalar:
                found.append(Scalar(
                    record: next.record, keyRecord: next.keyRecord, offset: record.range.start.offset,
                    isKey: next.isKey, isPlainUntagged: record.style == .plain && decoration?.tag == nil))
            case .sequence:
                for slot in (first..<first + count).reversed() {
                    pending.append(Pending(record: tree.children[slot], keyRecord: next.keyRecord, isKey: false))
                }
            case .mapping:
                // Keys and values alternate; pushed last first, so that they come off in the order written.
                for slot in stride(from: first + count - 2, through: first, by: -2) {
                    let key = tree.children[slot]
                    let keyRecord = tree.records[key].kind == .scalar ? key : -1
                    pending.append(Pending(record: tree.children[slot + 1], keyRecord: keyRecord, isKey: false))
                    pending.append(Pending(record: key, keyRecord: -1, isKey: true))
                }
            }
        }
        // Visited in the order written, each once, so already in order of offset; sorted for certainty (a sorted
        // array sorts in linear time), so that a lookup is a binary search.
        if !found.indices.dropFirst().allSatisfy({ found[$0 - 1].offset <= found[$0].offset }) {
            found.sort { $0.offset < $1.offset }
        }
        scalars = found
    }

    /// The scalar's node.
    func node(_ scalar: Scalar) -> YAMLNode {
        YAMLNode(tree: tree!, index: scalar.record)
    }

    /// Calls `body` with each plain, untagged scalar whose text passes `include`, and its text, in the order written:
    /// `lint.retyped-scalar` asks this of every scalar of the file. The tree is bound once for the walk: asking for
    /// each scalar's text through the optional tree retained and released the tree every time. `include` is asked
    /// where the text lies, so that a text it turns down is not retained and released to be handed to `body`.
    @inline(__always)
    func forEachPlainScalar(where include: (String) -> Bool, _ body: (Scalar, String) -> Void) {
        guard let tree else { return }
        for scalar in scalars where scalar.isPlainUntagged && include(tree.texts[scalar.record]) {
            body(scalar, tree.texts[scalar.record])
        }
    }

    /// The text of the scalar key the scalar is the value of, if it is one.
    func key(of scalar: Scalar) -> String? {
        scalar.keyRecord < 0 ? nil : tree!.texts[scalar.keyRecord]
    }

    /// The index of the first scalar written after byte `offset`: a binary search, the scalars being in order.
    private func firstIndex(after offset: Int) -> Int {
        scalars.partitionPoint { $0.offset > offset }
    }

    /// The scalar written at this offset; the last one there when an empty scalar shares it with the next.
    private func scalar(at offset: Int) -> YAMLNode? {
        let after = firstIndex(after: offset)
        return after > 0 && scalars[after - 1].offset == offset ? node(scalars[after - 1]) : nil
    }

    /// Where the mapping key written `text` is among the `within` scalars after byte `offset`: a translation's tag
    /// after its message's id, which its message's mapping follows. Nil when it is not there (the message is an alias).
    func key(_ text: String, after offset: Int, within: Int) -> SourceRange? {
        guard let tree else { return nil }
        let low = firstIndex(after: offset)
        for scalar in scalars[low..<min(scalars.count, low + within)]
        where scalar.isKey && tree.texts[scalar.record] == text {
            return tree.records[scalar.record].range
        }
        return nil
    }

    /// Where each scalar is written.
    var ranges: [SourceRange] { scalars.map { node($0).range } }

    /// The characters `position ..< position + length` of the value written at `range`; the whole value when they
    /// cannot be located exactly.
    func range(inside range: SourceRange, position: Int, length: Int) -> SourceRange {
        guard let node = scalar(at: range.start.offset) else { return range }
        return DecodingSupport.range(inside: node, position: position, length: length)
    }
}
