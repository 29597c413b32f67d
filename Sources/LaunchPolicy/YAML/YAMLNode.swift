import Foundation

/// How a scalar was written. The reader keeps it because it matters to people: `"1.10"` and `1.10` read the same to
/// a YAML 1.2 tool but not to one that applies YAML 1.1 typing, and the linter warns about the unquoted one.
public enum YAMLScalarStyle: String, Hashable, Sendable, CaseIterable {
    /// `value`
    case plain
    /// `'value'`
    case singleQuoted = "single-quoted"
    /// `"value"`
    case doubleQuoted = "double-quoted"
    /// `|` block
    case literal
    /// `>` block
    case folded
}

/// A scalar exactly as libyaml reports it: its text, untyped, and the style it was written in.
///
/// No implicit typing happens here. `1.10`, `no`, `010` and `~` stay text; later stages type values from the policy
/// schema.
public struct YAMLScalar: Hashable, Sendable {
    /// The scalar's value after YAML's quoting, escaping and folding rules, with no typing applied.
    public var text: String
    /// How it was written.
    public var style: YAMLScalarStyle

    /// Creates a scalar.
    public init(text: String, style: YAMLScalarStyle) {
        self.text = text
        self.style = style
    }
}

/// One key/value pair of a mapping, in the order written.
public struct YAMLMappingEntry: Sendable {
    /// The key; in policy files always a scalar, though YAML allows any node.
    public var key: YAMLNode
    /// The value.
    public var value: YAMLNode

    /// Creates an entry.
    public init(key: YAMLNode, value: YAMLNode) {
        self.key = key
        self.value = value
    }
}

/// A node of the tree the reader builds: a scalar, a sequence or a mapping, with its source range.
///
/// A node is a position in a ``YAMLTree``, the storage every node of one read shares: copying a node, or walking
/// its children, copies no text and allocates nothing.
///
/// An alias is resolved to the node its anchor names: the anchored node appears again wherever an alias names it,
/// without being copied, and ``YAMLLimits/maximumExpandedNodes`` bounds how large the expanded document may be. The
/// range of a node reached through an alias is that of the anchored node, where its text is.
public struct YAMLNode: Sendable {
    /// The three kinds of node.
    public enum Kind: Sendable {
        /// A scalar.
        case scalar
        /// A sequence of nodes.
        case sequence
        /// A mapping of keys to values.
        case mapping

        /// A word for the kind, for messages: "scalar", "sequence" or "mapping".
        public var name: String {
            switch self {
            case .scalar: "scalar"
            case .sequence: "sequence"
            case .mapping: "mapping"
            }
        }
    }

    /// What the node holds.
    public enum Content: Sendable {
        /// A scalar.
        case scalar(YAMLScalar)
        /// A sequence of nodes.
        case sequence(Items)
        /// A mapping, its entries in the order written.
        case mapping(Entries)
    }

    /// The storage this node is part of.
    let tree: YAMLTree
    /// Its position in the tree's records.
    let index: Int

    init(tree: YAMLTree, index: Int) {
        self.tree = tree
        self.index = index
    }

    /// The kind of node.
    public var kind: Kind { tree.records[index].kind }

    /// Where the node is written.
    public var range: SourceRange { tree.records[index].range }

    /// Whether only spaces and tabs precede the node on its line (a UTF-8 byte-order mark aside).
    var startsItsLine: Bool {
        tree.source.withBytes { source in
            var before = range.start.offset
            while before > 0, source[before - 1] == 0x20 || source[before - 1] == 0x09 { before -= 1 }
            return before == 0 || source[before - 1] == 0x0A || source[before - 1] == 0x0D
                || (before == 3 && source.starts(with: [0xEF, 0xBB, 0xBF]))
        }
    }

    /// How many spaces and tabs lie between the node's end and a `:` after them on its line, or nil when no `:`
    /// follows: a `:` there makes the node an implicit key, which YAML reads only within 1,024 characters of its
    /// start.
    var blanksBeforeColon: Int? {
        tree.source.withBytes { source in
            var next = range.end.offset
            while next < source.count, source[next] == 0x20 || source[next] == 0x09 { next += 1 }
            return next < source.count && source[next] == UInt8(ascii: ":") ? next - range.end.offset : nil
        }
    }

    /// The node's tag as libyaml resolves it (`!!str` becomes `tag:yaml.org,2002:str`), or nil when untagged.
    public var tag: String? {
        let decoration = tree.records[index].decoration
        return decoration < 0 ? nil : tree.decorations[decoration].tag
    }

    /// The anchor the node was defined with, if any.
    public var anchor: String? {
        let decoration = tree.records[index].decoration
        return decoration < 0 ? nil : tree.decorations[decoration].anchor
    }

    /// What the node holds.
    public var content: Content {
        switch kind {
        case .scalar: .scalar(YAMLScalar(text: tree.texts[index], style: tree.records[index].style))
        case .sequence: .sequence(Items(of: self))
        case .mapping: .mapping(Entries(of: self))
        }
    }

    /// The scalar, if the node is one.
    public var scalar: YAMLScalar? {
        guard kind == .scalar else { return nil }
        return YAMLScalar(text: tree.texts[index], style: tree.records[index].style)
    }

    /// The scalar's text, if the node is a scalar: ``scalar``'s text without building the scalar.
    public var text: String? {
        kind == .scalar ? tree.texts[index] : nil
    }

    /// The items, if the node is a sequence.
    public var sequence: Items? {
        kind == .sequence ? Items(of: self) : nil
    }

    /// The entries, if the node is a mapping.
    public var mapping: Entries? {
        kind == .mapping ? Entries(of: self) : nil
    }

    /// The value of the first entry whose key is a scalar with this text, if the node is a mapping.
    public subscript(key: String) -> YAMLNode? {
        mapping?.first { $0.key.text == key }?.value
    }

    /// A word for the kind of node, for messages: "scalar", "sequence" or "mapping".
    public var kindName: String { kind.name }

    /// The node's child at `offset` of its slots (a sequence's items; a mapping's keys and values alternating).
    fileprivate func child(_ offset: Int) -> YAMLNode {
        YAMLNode(tree: tree, index: childIndex(offset))
    }

    /// The index in the tree of the node's child at `offset` of its slots.
    fileprivate func childIndex(_ offset: Int) -> Int {
        tree.children[tree.records[index].firstChild + offset]
    }

    /// A sequence's items, in the order written: a view of the tree, not a copy.
    public struct Items: RandomAccessCollection, Sendable {
        private let node: YAMLNode
        /// The number of items.
        public let count: Int

        fileprivate init(of node: YAMLNode) {
            self.node = node
            count = node.tree.records[node.index].childCount
        }

        /// 0.
        public var startIndex: Int { 0 }
        /// The number of items.
        public var endIndex: Int { count }

        /// The item at `position`.
        public subscript(position: Int) -> YAMLNode {
            precondition(position >= 0 && position < count, "index out of range")
            return node.child(position)
        }
    }

    /// A mapping's entries, in the order written: a view of the tree, not a copy.
    public struct Entries: RandomAccessCollection, Sendable {
        private let node: YAMLNode
        /// The number of entries.
        public let count: Int

        fileprivate init(of node: YAMLNode) {
            self.node = node
            count = node.tree.records[node.index].childCount / 2
        }

        /// 0.
        public var startIndex: Int { 0 }
        /// The number of entries.
        public var endIndex: Int { count }

        /// The entry at `position`.
        public subscript(position: Int) -> YAMLMappingEntry {
            precondition(position >= 0 && position < count, "index out of range")
            return YAMLMappingEntry(key: node.child(2 * position), value: node.child(2 * position + 1))
        }

        /// The value of the entry at `position`, without its key.
        func value(at position: Int) -> YAMLNode {
            precondition(position >= 0 && position < count, "index out of range")
            return node.child(2 * position + 1)
        }

        /// `body` of the text of the key at `position` where the tree keeps it, when the key is a scalar without a
        /// tag; nil otherwise. The decoder names nearly every key so: building the entry to ask its key retained the
        /// tree for each of its two nodes, and the text, and released them again. Whether there is a tag is read in
        /// place, not through ``YAMLNode/tag``, whose `String?` is released after each use, nil or not (16K). The tree
        /// is read through the node each time: bound to a name, it was retained around `body` (11K a read of 48 rules).
        func withUntaggedKeyText<Result>(at position: Int, _ body: (String) -> Result) -> Result? {
            precondition(position >= 0 && position < count, "index out of range")
            let key = node.childIndex(2 * position)
            let record = node.tree.records[key]
            guard record.kind == .scalar, record.decoration < 0 || node.tree.decorations[record.decoration].tag == nil
            else { return nil }
            let text = node.tree.texts[key]
            return body(text)
        }
    }
}

/// The storage of one read: every node in one table, in the order each was completed, and every collection's
/// children as a run of indices into that table. Built by ``YAMLComposer``; never changed afterwards.
///
/// One table instead of a node object per value is what keeps reading near libyaml's own cost: a node costs an
/// append, not an allocation, and dropping the tree frees a handful of tables, not thousands of objects. The texts
/// are a table of their own, so that a record is plain numbers: reading a node's kind or range copies no reference.
/// The tables of what every node has are ``PlainTable``s, which the composer hands over whole and the tree only reads.
final class YAMLTree: Sendable {
    /// One node, apart from its text.
    struct Record: Sendable {
        var range: SourceRange
        /// Where a collection's children begin in ``YAMLTree/children``.
        var firstChild: Int
        /// A sequence's item count; twice a mapping's entry count (keys and values alternate).
        var childCount: Int
        /// The node's tag and anchor in ``YAMLTree/decorations``, or -1 when it has neither.
        var decoration: Int
        var kind: YAMLNode.Kind
        var style: YAMLScalarStyle
    }

    let records: PlainTable<Record>
    /// Each record's scalar text, at the record's position; empty for collections.
    let texts: PlainTable<String>
    let children: PlainTable<Int>
    let decorations: [Decoration]
    /// The input the tree was read from, which the nodes' offsets index: what is written around a node, which its
    /// range does not say, decides what text a fix-it may put in its place (``FixIt/replacing(_:with:message:)``).
    /// Looking at the input as each node was read cost the reader 1.5% more, for what only a fix-it asks.
    let source: Source

    /// The input as the caller gave it, a `Data` or `[UInt8]`, which keeping costs no copy; any other kind of bytes
    /// is copied once a read completes.
    enum Source: Sendable {
        case data(Data)
        case bytes([UInt8])

        /// A copy of `buffer`, made whole.
        static func copy(of buffer: UnsafeRawBufferPointer) -> Source {
            .bytes([UInt8](unsafeUninitializedCapacity: buffer.count) { copy, count in
                if let base = buffer.baseAddress, !buffer.isEmpty {
                    copy.baseAddress!.initialize(from: base.assumingMemoryBound(to: UInt8.self), count: buffer.count)
                }
                count = buffer.count
            })
        }

        func withBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
            switch self {
            case .data(let data): data.withUnsafeBytes(body)
            case .bytes(let bytes): bytes.withUnsafeBytes(body)
            }
        }
    }

    /// A node's tag and anchor. A struct, not a tuple: an array of tuples is destroyed element by element through
    /// the runtime's generic tuple witness.
    struct Decoration: Sendable {
        let tag: String?
        let anchor: String?
    }

    init(
        records: PlainTable<Record>, texts: PlainTable<String>, children: PlainTable<Int>, decorations: [Decoration],
        source: Source
    ) {
        self.records = records
        self.texts = texts
        self.children = children
        self.decorations = decorations
        self.source = source
    }
}
