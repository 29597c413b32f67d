/// Builds nodes from events with an explicit stack — never recursion, so no input can overflow the call stack.
///
/// The composer enforces the limits that concern the tree: the alias budget (every alias adds the expanded size of
/// its anchor, counted once when the anchor closes), the depth that aliases reach (an alias nests what it stands for
/// where it is written), aliases to unknown or still-open anchors, the number of documents, and duplicate keys.
///
/// It is used in place, never copied: its tables and stacks are ``PlainTable``s, objects that a copy would share.
struct YAMLComposer: YAMLEventSink {
    /// A sequence or mapping that has started and not yet ended. Its children so far are the top of `pending`,
    /// from `firstPending`; a mapping's keys so far are the top of `keys`, from its place's `firstKey`.
    ///
    /// Plain numbers only, so that opening and closing a collection copies and destroys no reference: its anchor is
    /// in its decoration, and its table of keys, when it has one, on `keyTables`.
    private struct OpenCollection {
        let start: SourceLocation
        let decoration: Int
        /// The expanded node count of the document before this collection began.
        let expandedBefore: Int
        /// The greatest height of its children so far (see ``YAMLComposer/Anchor/height``).
        var childHeight = 0
        let firstPending: Int
        /// The ``Place`` of the collection it is in, as it was when this one opened.
        let outerPlace: Place
    }

    /// Where the next node goes: what of the innermost open collection every node added to it reads or changes. Held
    /// apart from `open`, so that adding a node neither changes nor reads an element of that list: changing one
    /// checked the list's storage for sharing and reached the element through it for each node (13K instructions a
    /// read of 48 rules), and reading one cost each key a bounds check and a load.
    private struct Place {
        /// The collection is a mapping.
        var isMapping = false
        /// Whether the next node completes a key/value pair (mappings only).
        var expectsValue = false
        /// Set after a duplicate key: its value is read but left out of the tree.
        var dropsNextValue = false
        /// Whether the mapping's keys have moved to a table, the last of `keyTables`.
        var hasKeyTable = false
        /// Where the mapping's keys start on `keys`, while they are a list.
        var firstKey = 0
    }

    /// What makes two keys the same. Scalars compare by text, whatever their style (`no` and `"no"` are one key to a
    /// policy). Collections used as keys compare by their structure when it is small; a key too large to describe
    /// cheaply is taken to be unique, so that duplicate detection can never cost more than the input.
    private enum KeyIdentity: Equatable {
        case text(String)
        case structure(String)
        case unique(Int)
    }

    /// Where each key of a large mapping is, by identity. Two tables keyed by `String`, not one keyed by
    /// ``KeyIdentity``: a table keyed by a type of this module costs an app's first read a scan of every conformance
    /// the process holds (BENCHMARKS.md, The first operation in a process). A unique key is in neither: nothing is the
    /// same key as it.
    private struct KeyTable {
        private var texts: [String: SourceRange] = [:]
        private var structures: [String: SourceRange] = [:]

        subscript(identity: KeyIdentity) -> SourceRange? {
            get {
                switch identity {
                case .text(let text): texts[text]
                case .structure(let structure): structures[structure]
                case .unique: nil
                }
            }
            set {
                switch identity {
                case .text(let text): texts[text] = newValue
                case .structure(let structure): structures[structure] = newValue
                case .unique: break
                }
            }
        }
    }

    /// What an anchor names, as an alias repeats it.
    private struct Anchor {
        let node: Int
        /// How many nodes the anchored node stands for, aliases in it counted as theirs.
        let expandedCount: Int
        /// How many levels of sequences and mappings it holds, aliases in it counted as theirs: 0 for a scalar, one
        /// more than its deepest child for a collection. The event reader bounds the depth of what is written; an
        /// alias nests its node where it is written, so that a chain of anchors each holding an alias of the one
        /// before is written shallow but reaches any depth, and everything that walks the tree after the reader
        /// (the decoder, the evaluator, lint) recurses through that depth.
        let height: Int
    }

    /// A key of an open mapping, as its node. A key is compared with the keys before it by the node's text, read in
    /// place; an identity that held the text was a retain and a release of the string for every key read.
    private struct WrittenKey {
        let node: Int
    }

    /// The tree being built (see ``YAMLTree``), and what compares the keys in it. Apart from the composer, so that
    /// comparing a key with the ones before it is handed these four tables: as the composer's own method, called
    /// while adding a node changes the composer, it was handed a copy of the whole composer, 169 bytes, for every
    /// key read. That copy gone and the comparison inlined, a read of 48 rules costs 41K instructions fewer.
    private struct TreeTables {
        var records: PlainTable<YAMLTree.Record>
        var texts: PlainTable<String>
        var children: PlainTable<Int>
        /// A list, not a ``PlainTable``: only a node with a tag or an anchor adds to it.
        var decorations: [YAMLTree.Decoration] = []

        /// Empty tables with room for `nodes` nodes; with none, they take no memory.
        init(nodes: Int) {
            records = PlainTable(capacity: nodes)
            texts = PlainTable(capacity: nodes)
            children = PlainTable(capacity: nodes)
        }

        /// Whether two key nodes are the same key: two scalars by their texts, compared in place; anything else by
        /// identity, which is rare.
        @inline(__always)
        func sameKey(_ one: Int, _ other: Int) -> Bool {
            if records[one].kind == .scalar, records[other].kind == .scalar { return texts[one] == texts[other] }
            return identity(of: one) == identity(of: other)
        }

        func identity(of key: Int) -> KeyIdentity {
            records[key].kind == .scalar ? .text(texts[key]) : structure(of: key)
        }

        /// The identity of a collection used as a key: rare, and apart so that ``identity(of:)`` stays small.
        @inline(never)
        func structure(of key: Int) -> KeyIdentity {
            var description = ""
            var pending: [Int] = [key]
            var budget = 64
            while let node = pending.popLast() {
                budget -= 1
                if budget < 0 || description.utf8.count > 4096 { return .unique(records[key].range.start.offset) }
                let record = records[node]
                switch record.kind {
                case .scalar:
                    description += "s\(texts[node].utf8.count):\(texts[node])"
                case .sequence:
                    description += "q\(record.childCount)"
                case .mapping:
                    description += "m\(record.childCount / 2)"
                }
                // Children in reverse, so that they are described in order.
                for slot in (record.firstChild..<record.firstChild + record.childCount).reversed() {
                    pending.append(children[slot])
                }
            }
            return .structure(description)
        }

        func describe(_ key: Int) -> String {
            guard records[key].kind == .scalar else {
                return "(a \(records[key].kind.name))"
            }
            return Diagnostic.quoted(texts[key])
        }
    }

    /// The most keys of one mapping compared as a list before they move to a table.
    static let keyListLimit = 16
    /// The most duplicate-key errors reported before the reader gives up on the input.
    static let maximumReportedDuplicates = 50

    let limits: YAMLLimits
    private(set) var diagnostics: [Diagnostic] = []
    private(set) var failed = false
    private var tree: TreeTables
    private var roots: [Int] = []
    // The open collections, innermost last, and the stacks their children and keys so far live on.
    private var open = Stack<OpenCollection>()
    private var place = Place()
    private var pending = Stack<Int>()
    private var keys = Stack<WrittenKey>()
    /// The keys by identity of each open mapping that has ``keyListLimit`` or more, innermost last: a mapping in a
    /// policy holds a handful of keys, which a list compares faster than a dictionary hashes, but a huge mapping must
    /// still cost linear time.
    private var keyTables: [KeyTable] = []
    private var anchors: [String: Anchor] = [:]
    private var openAnchors: Set<String> = []
    private var expandedNodes = 0
    private var sawDocument = false

    /// - Parameter inputBytes: the size of the input, from which the tree's tables are sized up front: grown by
    ///   doubling instead, they were copied about ten times in a read, a tenth of what the reader adds to libyaml.
    init(limits: YAMLLimits, inputBytes: Int) {
        self.limits = limits
        // A policy has a node for every 12 to 13 bytes; one for every 8 leaves room for denser YAML, and a file
        // denser still only grows its tables a time or two. Never more than the expanded-node budget allows.
        let nodes = min(inputBytes / 8, limits.maximumExpandedNodes, 1 << 20) + 16
        tree = TreeTables(nodes: nodes)
    }

    /// The documents composed so far, sharing one tree, which keeps `source`, the input they were read from. The
    /// tree takes the composer's tables: the composer keeps none of them, and the tree only reads them.
    mutating func documents(source: @autoclosure () -> YAMLTree.Source) -> [YAMLNode] {
        guard !roots.isEmpty else { return [] }
        let built = tree
        tree = TreeTables(nodes: 0)
        let tree = YAMLTree(
            records: built.records, texts: built.texts, children: built.children, decorations: built.decorations,
            source: source())
        return roots.map { YAMLNode(tree: tree, index: $0) }
    }

    // The events, each taken as ``YAMLEventReader`` reads it (``YAMLEventSink``); each returns false when reading
    // must stop.

    func streamStart(at range: SourceRange) -> Bool { true }

    mutating func streamEnd(at range: SourceRange) -> Bool {
        if !sawDocument {
            return fail(.error(
                .yamlEmptyInput, "the input holds no YAML document: it is empty or only comments",
                at: .wholeInputStart))
        }
        return true
    }

    mutating func documentStart(explicit: Bool, at range: SourceRange) -> Bool {
        if roots.count >= limits.maximumDocuments {
            return fail(.error(
                .yamlTooManyDocuments,
                limits.maximumDocuments == 1
                    ? "a second document starts here; a policy file holds exactly one document"
                    : "the input holds more than \(limits.maximumDocuments) documents",
                at: range))
        }
        sawDocument = true
        anchors = [:]
        expandedNodes = 0
        return true
    }

    func documentEnd(explicit: Bool, at range: SourceRange) -> Bool { true }

    /// Opens a sequence or a mapping.
    mutating func collectionStart(
        isMapping: Bool, anchor: UnsafePointer<UInt8>?, tag: UnsafePointer<UInt8>?, flow: Bool, at range: SourceRange
    ) -> Bool {
        guard count(1, at: range) else { return false }
        let anchor = anchor.map { String(cString: $0) }
        if let anchor { openAnchors.insert(anchor) }
        open.push(OpenCollection(
            start: range.start, decoration: decoration(tag: tag.map { String(cString: $0) }, anchor: anchor),
            expandedBefore: expandedNodes - 1, firstPending: pending.count, outerPlace: place))
        place = Place(isMapping: isMapping, firstKey: keys.count)
        return true
    }

    /// Closes the innermost open collection, which becomes a node.
    mutating func collectionEnd(isMapping: Bool, at range: SourceRange) -> Bool {
        let collection = open.popLast()
        let kind: YAMLNode.Kind = place.isMapping ? .mapping : .sequence
        keys.truncate(to: place.firstKey)
        if place.hasKeyTable { keyTables.removeLast() }
        place = collection.outerPlace
        let firstChild = tree.children.count
        pending.append(from: collection.firstPending, to: tree.children)
        pending.truncate(to: collection.firstPending)
        let node = tree.records.count
        tree.texts.append("")
        tree.records.append(YAMLTree.Record(
            range: SourceRange(start: collection.start, end: range.end), firstChild: firstChild,
            childCount: tree.children.count - firstChild, decoration: collection.decoration, kind: kind, style: .plain))
        let height = collection.childHeight + 1
        if collection.decoration >= 0, let anchor = tree.decorations[collection.decoration].anchor {
            openAnchors.remove(anchor)
            anchors[anchor] = Anchor(node: node, expandedCount: expandedNodes - collection.expandedBefore,
                height: height)
        }
        raiseChildHeight(to: height)
        return add(node)
    }

    mutating func scalar(
        _ text: consuming String, style: YAMLScalarStyle, anchor: UnsafePointer<UInt8>?, tag: UnsafePointer<UInt8>?,
        at range: SourceRange
    ) -> Bool {
        guard count(1, at: range) else { return false }
        let node = tree.records.count
        let decoration = anchor == nil && tag == nil ? -1 : decorateScalar(node, anchor: anchor, tag: tag)
        tree.records.append(YAMLTree.Record(
            range: range, firstChild: 0, childCount: 0, decoration: decoration, kind: .scalar, style: style))
        // Handed over, the text moves into the tree instead of being copied.
        tree.texts.append(text)
        return add(node)
    }

    mutating func alias(_ name: String, at range: SourceRange) -> Bool {
        if openAnchors.contains(name) {
            return fail(.error(
                .yamlRecursiveAlias,
                "the alias *\(name) points into the node it is part of, which would contain itself",
                at: range))
        }
        guard let target = anchors[name] else {
            return fail(.error(
                .yamlUnknownAnchor, "the alias *\(name) names no anchor defined before it", at: range))
        }
        guard count(target.expandedCount, at: range) else { return false }
        if open.count + target.height > limits.maximumDepth {
            return tooDeep(alias: name, height: target.height, at: range)
        }
        raiseChildHeight(to: target.height)
        return add(target.node)
    }

    /// Records the tag and anchor of the scalar that is to be `node`, and returns where; names the scalar by its
    /// anchor. Apart from ``scalar(_:style:anchor:tag:at:)``, which then makes no text for a scalar without either.
    @inline(never)
    private mutating func decorateScalar(
        _ node: Int, anchor: UnsafePointer<UInt8>?, tag: UnsafePointer<UInt8>?
    ) -> Int {
        let anchor = anchor.map { String(cString: $0) }
        if let anchor { anchors[anchor] = Anchor(node: node, expandedCount: 1, height: 0) }
        return decoration(tag: tag.map { String(cString: $0) }, anchor: anchor)
    }

    /// Records a tag and anchor, when there is either, and returns where.
    private mutating func decoration(tag: String?, anchor: String?) -> Int {
        guard tag != nil || anchor != nil else { return -1 }
        tree.decorations.append(YAMLTree.Decoration(tag: tag, anchor: anchor))
        return tree.decorations.count - 1
    }

    /// Adds to the document's expanded node count; false, with a diagnostic, when that passes the budget.
    private mutating func count(_ nodes: Int, at range: SourceRange) -> Bool {
        expandedNodes += nodes
        return expandedNodes <= limits.maximumExpandedNodes || overBudget(at: range)
    }

    /// Fails for a document past the alias budget. Apart from ``count(_:at:)``, which runs for every node and is
    /// then small enough to inline (29K instructions a read of 48 rules).
    @inline(never)
    private mutating func overBudget(at range: SourceRange) -> Bool {
        fail(.error(
            .yamlAliasBudgetExceeded,
            "the document has more than \(limits.maximumExpandedNodes) nodes, counting each alias as the nodes it "
                + "stands for",
            at: range))
    }

    /// Fails for an alias that nests what it stands for past ``YAMLLimits/maximumDepth``.
    @inline(never)
    private mutating func tooDeep(alias name: String, height: Int, at range: SourceRange) -> Bool {
        fail(.error(
            .yamlTooDeep,
            "the alias *\(name) stands for sequences and mappings \(height) levels deep, which here nest more than "
                + "\(limits.maximumDepth) levels deep",
            at: range))
    }

    /// Records that the innermost open collection has a child `height` levels deep (see ``Anchor/height``). Only
    /// collections and aliases call it: a scalar's height is 0, where every collection starts.
    private mutating func raiseChildHeight(to height: Int) {
        guard open.count > 0, height > open[open.count - 1].childHeight else { return }
        open[open.count - 1].childHeight = height
    }

    /// Adds a finished node to the collection it belongs to, or makes it the document's root. What only a key that
    /// repeats one, or a key of a large mapping, needs is apart, so that this, run for every node, is small.
    private mutating func add(_ node: Int) -> Bool {
        guard open.count > 0 else {
            roots.append(node)
            return true
        }
        if !place.isMapping {
            pending.push(node)
            return true
        }
        if place.expectsValue {
            place.expectsValue = false
            if place.dropsNextValue {
                place.dropsNextValue = false
            } else {
                pending.push(node)
            }
            return true
        }
        place.expectsValue = true
        if place.hasKeyTable { return addToKeyTable(node) }
        var index = place.firstKey
        while index < keys.count {
            if tree.sameKey(keys[index].node, node) { return duplicate(node, of: keys[index].node) }
            index += 1
        }
        keys.push(WrittenKey(node: node))
        if keys.count - place.firstKey == Self.keyListLimit { moveKeysToTable() }
        pending.push(node)
        return true
    }

    /// Adds a key to the innermost mapping's table of keys (``add(_:)``).
    @inline(never)
    private mutating func addToKeyTable(_ node: Int) -> Bool {
        let top = keyTables.count - 1
        let identity = tree.identity(of: node)
        if let first = keyTables[top][identity] { return duplicate(node, first: first) }
        keyTables[top][identity] = tree.records[node].range
        pending.push(node)
        return true
    }

    /// Moves the innermost mapping's keys from the list to a table, once there are ``keyListLimit`` of them: off
    /// `keys`, where they were left behind, unread, until the mapping ended.
    @inline(never)
    private mutating func moveKeysToTable() {
        var table = KeyTable()
        for index in place.firstKey..<keys.count {
            let key = keys[index].node
            table[tree.identity(of: key)] = tree.records[key].range
        }
        keys.truncate(to: place.firstKey)
        keyTables.append(table)
        place.hasKeyTable = true
    }

    /// Reports `node`, a key the same as the earlier key `first`, and leaves its value out of the tree.
    @inline(never)
    private mutating func duplicate(_ node: Int, of first: Int) -> Bool {
        duplicate(node, first: tree.records[first].range)
    }

    /// Reports `node`, a key the same as the one written at `first`, and leaves its value out of the tree.
    private mutating func duplicate(_ node: Int, first: SourceRange) -> Bool {
        place.dropsNextValue = true
        return report(.error(
            .yamlDuplicateKey,
            "the key \(tree.describe(node)) appears twice in this mapping; it was first written at \(first.start)",
            at: tree.records[node].range,
            notes: [.init(message: "first written here", range: first)]))
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

/// A stack of plain values (node numbers, open collections) that shrinks by moving its top, leaving what was above it
/// to be written over: values that hold no reference, which would otherwise be kept until written over. The
/// composer's stacks shrink by a collection's children at every collection's end: removing them one at a time cost
/// 27K instructions a read of 48 rules, and `removeLast(_:)`, through the general `replaceSubrange`, about 350 a
/// collection. Kept in a ``PlainTable``, which a push does not check for sharing.
private struct Stack<Element: Sendable> {
    private let storage = PlainTable<Element>()
    /// How many elements are on the stack.
    private(set) var count = 0

    @inline(__always)
    mutating func push(_ element: Element) {
        if count < storage.count {
            storage[count] = element
        } else {
            storage.append(element)
        }
        count += 1
    }

    /// Drops the elements above the first `count`, which is at most the stack's: raised, it would bring back
    /// elements dropped before, which are only waiting to be written over.
    mutating func truncate(to count: Int) {
        precondition(count >= 0 && count <= self.count, "a stack is truncated only to a count it has")
        self.count = count
    }

    subscript(index: Int) -> Element {
        get {
            precondition(index < count, "index out of range")
            return storage[index]
        }
        set {
            precondition(index < count, "index out of range")
            storage[index] = newValue
        }
    }

    /// Removes the top element and returns it.
    mutating func popLast() -> Element {
        precondition(count > 0, "the stack is empty")
        count -= 1
        return storage[count]
    }

    /// Appends the elements from `start` to the top to `table`, in one copy.
    func append(from start: Int, to table: PlainTable<Element>) {
        table.append(storage, from: start, to: count)
    }
}
