/// The scalars of a file, each once, in the order written: for checks that read how a value was written (its
/// quoting), and for pointing at a character inside a value (the `2.4` of `"<= 2.4"`).
///
/// The index holds positions in the reader's tree, not nodes: plain numbers, so that building it for every scalar
/// of a file copies and retains nothing.
struct ScalarIndex {
    /// A scalar, as its position in the tree, and the scalar key of the mapping entry it is the value of, if any.
    struct Scalar {
        /// The scalar's record in the tree.
        let record: Int
        /// The record of its entry's key; -1 when it is not the value of an entry under a scalar key.
        let keyRecord: Int
        /// Whether it is itself a mapping key.
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
        var pending = [Scalar(record: root.index, keyRecord: -1, isKey: false)]
        while let next = pending.popLast() {
            let record = tree.records[next.record]
            if record.decoration >= 0, tree.decorations[record.decoration].anchor != nil,
                !visitedAnchors.insert(record.range.start.offset).inserted
            {
                continue
            }
            let first = record.firstChild
            let count = record.childCount
            switch record.kind {
            case .scalar:
                found.append(next)
            case .sequence:
                for slot in (first..<first + count).reversed() {
                    pending.append(Scalar(record: tree.children[slot], keyRecord: next.keyRecord, isKey: false))
                }
            case .mapping:
                // Keys and values alternate; pushed last first, so that they come off in the order written.
                for slot in stride(from: first + count - 2, through: first, by: -2) {
                    let key = tree.children[slot]
                    let keyRecord = tree.records[key].kind == .scalar ? key : -1
                    pending.append(Scalar(record: tree.children[slot + 1], keyRecord: keyRecord, isKey: false))
                    pending.append(Scalar(record: key, keyRecord: -1, isKey: true))
                }
            }
        }
        // Visited in the order written, each once, so already in order of offset; sorted for certainty (a sorted
        // array sorts in linear time), so that a lookup is a binary search.
        if !found.indices.dropFirst().allSatisfy({ offset(found[$0 - 1]) <= offset(found[$0]) }) {
            found.sort { offset($0) < offset($1) }
        }
        scalars = found
    }

    /// The scalar's node.
    func node(_ scalar: Scalar) -> YAMLNode {
        YAMLNode(tree: tree!, index: scalar.record)
    }

    /// Calls `body` with each plain, untagged scalar and its text, in the order written, read from the tree's tables
    /// without making a node: `lint.retyped-scalar` asks this of every scalar of the file. The tree is bound once for
    /// the walk: asking for each scalar's text through the optional tree retained and released the tree every time,
    /// 1,600 atomic reference-count operations a lint of 48 rules.
    func forEachPlainScalar(_ body: (Scalar, String) -> Void) {
        guard let tree else { return }
        for scalar in scalars {
            let record = scalar.record
            guard tree.records[record].style == .plain else { continue }
            let decoration = tree.records[record].decoration
            guard decoration < 0 || tree.decorations[decoration].tag == nil else { continue }
            body(scalar, tree.texts[record])
        }
    }

    /// The text of the scalar key the scalar is the value of, if it is one.
    func key(of scalar: Scalar) -> String? {
        scalar.keyRecord < 0 ? nil : tree!.texts[scalar.keyRecord]
    }

    private func offset(_ scalar: Scalar) -> Int { tree!.records[scalar.record].range.start.offset }

    /// The scalar written at this offset; the last one there when an empty scalar shares it with the next.
    private func scalar(at offset: Int) -> YAMLNode? {
        var low = 0
        var high = scalars.count
        while low < high {
            let middle = (low + high) / 2
            if self.offset(scalars[middle]) <= offset { low = middle + 1 } else { high = middle }
        }
        return low > 0 && self.offset(scalars[low - 1]) == offset ? node(scalars[low - 1]) : nil
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
