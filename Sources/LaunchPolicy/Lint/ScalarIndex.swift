/// The scalars of a file, each once, in the order written: for checks that read how a value was written (its
/// quoting), and for pointing at a character inside a value (the `2.4` of `"<= 2.4"`).
struct ScalarIndex {
    /// A scalar node and the key of the mapping entry it is the value of, if it is one.
    struct Scalar {
        var node: YAMLNode
        var key: String?
        var isKey: Bool
    }

    /// Every scalar, keys included, in the order written.
    private(set) var scalars: [Scalar] = []
    private var byOffset: [Int: YAMLNode] = [:]

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
                byOffset[node.range.start.offset] = node
            case .sequence(let items):
                pending += items.reversed().map { ($0, key, false) }
            case .mapping(let entries):
                for entry in entries.reversed() {
                    pending.append((entry.value, entry.key.scalar?.text, false))
                    pending.append((entry.key, nil, true))
                }
            }
        }
    }

    /// Where each scalar is written.
    var ranges: [SourceRange] { scalars.map(\.node.range) }

    /// The characters `position ..< position + length` of the value written at `range`; the whole value when they
    /// cannot be located exactly.
    func range(inside range: SourceRange, position: Int, length: Int) -> SourceRange {
        guard let node = byOffset[range.start.offset] else { return range }
        return DecodingSupport.range(inside: node, position: position, length: length)
    }
}
