/// The scalars of a file, each once, in the order written: for checks that read how a value was written (its
/// quoting), and for pointing at a character inside a value (the `2.4` of `"<= 2.4"`).
struct ScalarIndex {
    /// A scalar node and the key of the mapping entry it is the value of, if it is one.
    struct Scalar {
        var node: YAMLNode
        var key: String?
        var isKey: Bool
        var offset: Int { node.range.start.offset }
    }

    /// Every scalar, keys included, in the order written.
    private(set) var scalars: [Scalar] = []

    /// No scalars: for files that were not read as YAML.
    init() {}

    /// The scalars under `root`. A node reached again through an alias is visited once, at its anchor.
    init(root: YAMLNode) {
        var visitedAnchors: Set<Int> = []
        var pending: [(node: YAMLNode, key: String?, isKey: Bool)] = [(root, nil, false)]
        while let (node, key, isKey) = pending.popLast() {
            if node.anchor != nil, !visitedAnchors.insert(node.range.start.offset).inserted { continue }
            switch node.content {
            case .scalar:
                scalars.append(Scalar(node: node, key: key, isKey: isKey))
            case .sequence(let items):
                for item in items.reversed() { pending.append((item, key, false)) }
            case .mapping(let entries):
                for entry in entries.reversed() {
                    pending.append((entry.value, entry.key.text, false))
                    pending.append((entry.key, nil, true))
                }
            }
        }
        // Visited in the order written, each once, so already in order of offset; sorted for certainty (a sorted
        // array sorts in linear time), so that a lookup is a binary search.
        if !scalars.indices.dropFirst().allSatisfy({ scalars[$0 - 1].offset <= scalars[$0].offset }) {
            scalars.sort { $0.offset < $1.offset }
        }
    }

    /// The scalar written at this offset; the last one there when an empty scalar shares it with the next.
    private func scalar(at offset: Int) -> YAMLNode? {
        var low = 0
        var high = scalars.count
        while low < high {
            let middle = (low + high) / 2
            if scalars[middle].offset <= offset { low = middle + 1 } else { high = middle }
        }
        return low > 0 && scalars[low - 1].offset == offset ? scalars[low - 1].node : nil
    }

    /// Where each scalar is written.
    var ranges: [SourceRange] { scalars.map(\.node.range) }

    /// The characters `position ..< position + length` of the value written at `range`; the whole value when they
    /// cannot be located exactly.
    func range(inside range: SourceRange, position: Int, length: Int) -> SourceRange {
        guard let node = scalar(at: range.start.offset) else { return range }
        return DecodingSupport.range(inside: node, position: position, length: length)
    }
}
