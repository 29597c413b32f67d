/// Builds nodes from events with an explicit stack — never recursion, so no input can overflow the call stack.
///
/// The composer enforces the limits that concern the tree: the alias budget (every alias adds the expanded size of
/// its anchor, counted once when the anchor closes), aliases to unknown or still-open anchors, the number of
/// documents, and duplicate keys.
struct YAMLComposer {
    /// A sequence or mapping that has started and not yet ended.
    private struct OpenCollection {
        let isMapping: Bool
        let start: SourceLocation
        let tag: String?
        let anchor: String?
        /// The expanded node count of the document before this collection began.
        let expandedBefore: Int
        /// Sequence items, or mapping keys and values alternating.
        var items: [YAMLNode] = []
        /// The keys of a mapping so far, by identity, with where each was written.
        var keys = KeysSoFar()
        /// Set after a duplicate key: its value is read but left out of the tree.
        var dropsNextValue = false
        /// Whether the next node completes a key/value pair (mappings only).
        var expectsValue = false
    }

    /// What makes two keys the same. Scalars compare by text, whatever their style (`no` and `"no"` are one key to a
    /// policy). Collections used as keys compare by their structure when it is small; a key too large to describe
    /// cheaply is taken to be unique, so that duplicate detection can never cost more than the input.
    private enum KeyIdentity: Hashable {
        case text(String)
        case structure(String)
        case unique(Int)
    }

    /// A mapping's keys so far. Mappings in policies hold a handful of keys, which a list compares faster than a
    /// dictionary hashes; past `listLimit` keys they move to a dictionary, so a huge mapping still costs linear time.
    private struct KeysSoFar {
        static let listLimit = 16
        private var list: [(identity: KeyIdentity, range: SourceRange)] = []
        private var table: [KeyIdentity: SourceRange] = [:]

        subscript(identity: KeyIdentity) -> SourceRange? {
            if list.count < Self.listLimit { return list.first { $0.identity == identity }?.range }
            return table[identity]
        }

        mutating func insert(_ identity: KeyIdentity, at range: SourceRange) {
            if list.count < Self.listLimit {
                list.append((identity, range))
                if list.count == Self.listLimit {
                    for (identity, range) in list { table[identity] = range }
                }
            } else {
                table[identity] = range
            }
        }
    }

    /// The most duplicate-key errors reported before the reader gives up on the input.
    static let maximumReportedDuplicates = 50

    let limits: YAMLLimits
    private(set) var documents: [YAMLNode] = []
    private(set) var diagnostics: [Diagnostic] = []
    private(set) var failed = false
    private var open: [OpenCollection] = []
    private var anchors: [String: (node: YAMLNode, expandedCount: Int)] = [:]
    private var openAnchors: Set<String> = []
    private var expandedNodes = 0
    private var sawDocument = false

    init(limits: YAMLLimits) {
        self.limits = limits
    }

    /// Takes one event; returns false when reading must stop.
    mutating func consume(_ event: YAMLEvent) -> Bool {
        switch event.kind {
        case .streamStart:
            return true
        case .streamEnd:
            if !sawDocument {
                return fail(.error(
                    .yamlEmptyInput, "the input holds no YAML document: it is empty or only comments",
                    at: .wholeInputStart))
            }
            return true
        case .documentStart:
            if documents.count >= limits.maximumDocuments {
                return fail(.error(
                    .yamlTooManyDocuments,
                    limits.maximumDocuments == 1
                        ? "a second document starts here; a policy file holds exactly one document"
                        : "the input holds more than \(limits.maximumDocuments) documents",
                    at: event.range))
            }
            sawDocument = true
            anchors = [:]
            expandedNodes = 0
            return true
        case .documentEnd:
            return true
        case .sequenceStart(let anchor, let tag, _), .mappingStart(let anchor, let tag, _):
            guard count(1, at: event.range) else { return false }
            var isMapping = false
            if case .mappingStart = event.kind { isMapping = true }
            if let anchor { openAnchors.insert(anchor) }
            open.append(OpenCollection(
                isMapping: isMapping, start: event.range.start, tag: tag, anchor: anchor,
                expandedBefore: expandedNodes - 1))
            return true
        case .sequenceEnd, .mappingEnd:
            let collection = open.removeLast()
            let range = SourceRange(start: collection.start, end: event.range.end)
            let content: YAMLNode.Content
            if collection.isMapping {
                var entries: [YAMLMappingEntry] = []
                entries.reserveCapacity(collection.items.count / 2)
                var index = 0
                while index + 1 < collection.items.count {
                    entries.append(YAMLMappingEntry(key: collection.items[index], value: collection.items[index + 1]))
                    index += 2
                }
                content = .mapping(entries)
            } else {
                content = .sequence(collection.items)
            }
            let node = YAMLNode(content, range: range, tag: collection.tag, anchor: collection.anchor)
            if let anchor = collection.anchor {
                openAnchors.remove(anchor)
                anchors[anchor] = (node, expandedNodes - collection.expandedBefore)
            }
            return add(node)
        case .scalar(let scalar, let anchor, let tag):
            guard count(1, at: event.range) else { return false }
            let node = YAMLNode(.scalar(scalar), range: event.range, tag: tag, anchor: anchor)
            if let anchor { anchors[anchor] = (node, 1) }
            return add(node)
        case .alias(let name):
            if openAnchors.contains(name) {
                return fail(.error(
                    .yamlRecursiveAlias,
                    "the alias *\(name) points into the node it is part of, which would contain itself",
                    at: event.range))
            }
            guard let target = anchors[name] else {
                return fail(.error(
                    .yamlUnknownAnchor, "the alias *\(name) names no anchor defined before it", at: event.range))
            }
            guard count(target.expandedCount, at: event.range) else { return false }
            return add(target.node)
        }
    }

    /// Adds to the document's expanded node count; false, with a diagnostic, when that passes the budget.
    private mutating func count(_ nodes: Int, at range: SourceRange) -> Bool {
        expandedNodes += nodes
        if expandedNodes > limits.maximumExpandedNodes {
            return fail(.error(
                .yamlAliasBudgetExceeded,
                "with its aliases expanded the document would have more than \(limits.maximumExpandedNodes) nodes",
                at: range))
        }
        return true
    }

    /// Adds a finished node to the collection it belongs to, or makes it the document's root.
    private mutating func add(_ node: YAMLNode) -> Bool {
        guard !open.isEmpty else {
            documents.append(node)
            return true
        }
        let top = open.count - 1
        if !open[top].isMapping {
            open[top].items.append(node)
            return true
        }
        if open[top].expectsValue {
            open[top].expectsValue = false
            if open[top].dropsNextValue {
                open[top].dropsNextValue = false
            } else {
                open[top].items.append(node)
            }
            return true
        }
        open[top].expectsValue = true
        let identity = Self.identity(of: node)
        if let first = open[top].keys[identity] {
            open[top].dropsNextValue = true
            return report(.error(
                .yamlDuplicateKey,
                "the key \(Self.describe(node)) appears twice in this mapping; it was first written at \(first.start)",
                at: node.range,
                notes: [.init(message: "first written here", range: first)]))
        }
        open[top].keys.insert(identity, at: node.range)
        open[top].items.append(node)
        return true
    }

    private static func identity(of key: YAMLNode) -> KeyIdentity {
        if let scalar = key.scalar { return .text(scalar.text) }
        var description = ""
        var pending: [YAMLNode] = [key]
        var budget = 64
        while let node = pending.popLast() {
            budget -= 1
            if budget < 0 || description.utf8.count > 4096 { return .unique(key.range.start.offset) }
            switch node.content {
            case .scalar(let scalar):
                description += "s\(scalar.text.utf8.count):\(scalar.text)"
            case .sequence(let items):
                description += "q\(items.count)"
                pending.append(contentsOf: items.reversed())
            case .mapping(let entries):
                description += "m\(entries.count)"
                for entry in entries.reversed() { pending.append(contentsOf: [entry.value, entry.key]) }
            }
        }
        return .structure(description)
    }

    private static func describe(_ key: YAMLNode) -> String {
        if let text = key.scalar?.text { return "\"\(text.count > 60 ? text.prefix(60) + "…" : text)\"" }
        return "(a \(key.kindName))"
    }

    /// Records a problem that does not stop reading, until there are too many.
    private mutating func report(_ diagnostic: Diagnostic) -> Bool {
        diagnostics.append(diagnostic)
        failed = true
        if diagnostics.count >= Self.maximumReportedDuplicates {
            diagnostics.append(.error(
                .yamlTooManyErrors, "too many problems; the rest of the input was not read", at: diagnostic.range))
            return false
        }
        return true
    }

    /// Records a problem that stops reading.
    private mutating func fail(_ diagnostic: Diagnostic) -> Bool {
        diagnostics.append(diagnostic)
        failed = true
        return false
    }
}
