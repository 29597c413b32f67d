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
/// An alias is resolved to the node its anchor names; the tree shares that node's storage rather than copying it,
/// and ``YAMLLimits/maximumExpandedNodes`` bounds how large the expanded document may be. The range of a node
/// reached through an alias is that of the anchored node, where its text is.
public struct YAMLNode: Sendable {
    /// What the node holds.
    public enum Content: Sendable {
        /// A scalar.
        case scalar(YAMLScalar)
        /// A sequence of nodes.
        case sequence([YAMLNode])
        /// A mapping, its entries in the order written.
        case mapping([YAMLMappingEntry])
    }

    /// What the node holds.
    public var content: Content
    /// The node's tag as libyaml resolves it (`!!str` becomes `tag:yaml.org,2002:str`), or nil when untagged.
    public var tag: String?
    /// The anchor the node was defined with, if any.
    public var anchor: String?
    /// Where the node is written.
    public var range: SourceRange

    /// Creates a node.
    public init(_ content: Content, range: SourceRange, tag: String? = nil, anchor: String? = nil) {
        self.content = content
        self.range = range
        self.tag = tag
        self.anchor = anchor
    }

    /// The scalar, if the node is one.
    public var scalar: YAMLScalar? {
        if case .scalar(let scalar) = content { return scalar }
        return nil
    }

    /// The items, if the node is a sequence.
    public var sequence: [YAMLNode]? {
        if case .sequence(let items) = content { return items }
        return nil
    }

    /// The entries, if the node is a mapping.
    public var mapping: [YAMLMappingEntry]? {
        if case .mapping(let entries) = content { return entries }
        return nil
    }

    /// The value of the first entry whose key is a scalar with this text, if the node is a mapping.
    public subscript(key: String) -> YAMLNode? {
        mapping?.first { $0.key.scalar?.text == key }?.value
    }

    /// A word for the kind of node, for messages: "scalar", "sequence" or "mapping".
    public var kindName: String {
        switch content {
        case .scalar: "scalar"
        case .sequence: "sequence"
        case .mapping: "mapping"
        }
    }
}
