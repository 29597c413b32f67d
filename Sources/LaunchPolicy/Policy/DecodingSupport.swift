/// The shared machinery of policy decoding: typed reads of nodes that report a diagnostic, rather than fail, when a
/// node is not what the schema wants, so that one pass reports every problem.
struct DecodingSupport {
    private(set) var diagnostics: [Diagnostic] = []

    /// The most problems reported; past it, one error says the rest are not. A hostile file can have a problem at
    /// every node, 100,000 of them with aliases, and an app reads its policy at launch.
    static let maximumReported = 500

    /// The most problems this decoding reports: ``maximumReported``, or as many as there are for `policy-lint
    /// --fix`, whose passes apply the fix-its of every problem (they are at most a few for each node the reader
    /// allows).
    let problemLimit: Int

    init(problemLimit: Int = maximumReported) {
        self.problemLimit = problemLimit
    }

    mutating func report(_ diagnostic: Diagnostic) {
        diagnostics.append(diagnostic, keepingAtMost: problemLimit, overflow: .policyTooManyProblems)
    }

    /// Whether a problem reported now is kept with its message: past ``problemLimit``, only the error that says the
    /// rest are not reported is, so a message that costs work to make (a suggestion) need not be made.
    var keepsProblems: Bool { diagnostics.count < problemLimit }

    mutating func error(
        _ code: DiagnosticCode, _ message: String, at range: SourceRange, fixIt: FixIt? = nil,
        notes: [Diagnostic.Note] = []
    ) {
        report(.error(code, message, at: range, fixIt: fixIt, notes: notes))
    }

    // `what` names the value in a message, and is made only when a message is: most are interpolated, and nearly every
    // read succeeds. The messages are made apart (`@inline(never)`), so that the reads the decoder makes for every
    // node stay small enough to inline.

    /// The entries of a mapping, or nil with a diagnostic.
    mutating func mapping(_ node: YAMLNode, _ what: @autoclosure () -> String) -> YAMLNode.Entries? {
        guard rejectTag(node) else { return nil }
        if let entries = node.mapping { return entries }
        wrongType(node, "\(what()) must be a mapping of keys to values")
        return nil
    }

    /// The entries of a condition's mapping, or nil with a diagnostic. A list of conditions where one belongs is
    /// told how to say what it means: other tools write conditions as lists.
    mutating func conditionMapping(_ node: YAMLNode) -> YAMLNode.Entries? {
        if node.sequence != nil, node.tag == nil {
            conditionWrittenAsList(node)
            return nil
        }
        return mapping(node, "a condition")
    }

    @inline(never)
    private mutating func conditionWrittenAsList(_ node: YAMLNode) {
        error(.policyWrongType, "a condition must be a mapping of keys to values, not a sequence; to require every "
            + "item, write the list under all: (or under any:, for one of them)", at: node.range)
    }

    /// The items of a sequence, or nil with a diagnostic.
    mutating func sequence(_ node: YAMLNode, _ what: @autoclosure () -> String) -> YAMLNode.Items? {
        guard rejectTag(node) else { return nil }
        if let items = node.sequence { return items }
        notAList(node, what())
        return nil
    }

    /// Reports a node where a list belongs; a scalar's fix-it makes it a list of itself.
    @inline(never)
    private mutating func notAList(_ node: YAMLNode, _ what: String) {
        wrongType(node, "\(what) must be a list", fixIt: node.scalar.flatMap { scalar in
            let item = YAMLWriting.scalar(scalar.text, inPlaceOf: scalar.style)
            return .replacing(node, with: "[\(item)]", message: "make it a list")
        })
    }

    /// A scalar's text, or nil with a diagnostic.
    mutating func text(_ node: YAMLNode, _ what: @autoclosure () -> String) -> WrittenText? {
        guard rejectTag(node) else { return nil }
        if let text = node.text { return WrittenText(value: text, node: node) }
        wrongType(node, "\(what()) must be a single value")
        return nil
    }

    /// Reports a node of the wrong kind: `expectation`, then what the node is.
    @inline(never)
    private mutating func wrongType(_ node: YAMLNode, _ expectation: String, fixIt: FixIt? = nil) {
        error(.policyWrongType, "\(expectation), not a \(node.kindName)", at: node.range, fixIt: fixIt)
    }

    /// One scalar or a list of scalars, each text made a value by `value`, which reports a text it turns down and
    /// returns nil. An item that is not a text, or is turned down, is reported and left out, and the rest are kept:
    /// dropped with it, a `grant` rule's list of entitlements with one bad item was reported as missing too. Nil when
    /// the node is neither a list nor a text, or is a text turned down.
    ///
    /// Each text is handed to `value` as it is read, and only the values are listed: a list of the texts, mapped
    /// afterwards, was a second list for every list a policy writes, and a reference to the tree for each item.
    mutating func oneOrList<Value>(
        _ node: YAMLNode, _ what: @autoclosure () -> String, _ value: (inout Self, WrittenText) -> Value?
    ) -> [Value]? {
        guard node.sequence != nil else { return text(node, what()).flatMap { value(&self, $0) }.map { [$0] } }
        guard let items = sequence(node, what()) else { return nil }
        var values: [Value] = []
        values.reserveCapacity(items.count)
        for item in items {
            if let text = text(item, "each item of \(what())"), let made = value(&self, text) { values.append(made) }
        }
        return values
    }

    /// A value from a closed set (actions, platforms, …), with a suggestion when it is close to one.
    mutating func choice<Value: WrittenNames>(_ text: WrittenText, _ what: String, as type: Value.Type) -> Value? {
        if let value = Value.known.named(text.value) { return value }
        notAChoice(text, what, names: Value.known.names)
        return nil
    }

    /// Reports a value that is none of `names`, with the nearest as the fix-it. Apart from ``choice(_:_:as:)``, which
    /// runs for every value of a closed set, so that its cold path keeps it small.
    @inline(never)
    private mutating func notAChoice(_ text: WrittenText, _ what: String, names: [String]) {
        let suggestion = DidYouMean.nearest(to: text.value, in: names)
        error(.policyInvalidValue,
            "\"\(text.value)\" is not a valid \(what); use one of \(names.joined(separator: ", "))"
                + (suggestion.map { ". Did you mean \"\($0)\"?" } ?? ""),
            at: text.range,
            fixIt: suggestion.flatMap { .naming(text.node, $0, message: "use \"\($0)\"") })
    }

    /// The entries of a mapping of one kind, by key. Reports each key the kind does not take, suggesting the nearest
    /// one it does (the reader has already reported a key written twice).
    mutating func entries<Key: WrittenNames>(
        _ entries: YAMLNode.Entries, as kind: Key.Type, in what: String
    ) -> KeyedEntries<Key> {
        var byKey = KeyedEntries<Key>(mapping: entries)
        byKey.written.reserveCapacity(entries.count)
        // By position: walked by an iterator while also handed to ``unknownKey(of:among:as:in:)``, the entries were
        // held twice, 3.4K instructions a read of 48 rules.
        for position in entries.indices {
            guard let key = Self.plainKey(at: position, of: entries, as: kind)
                ?? unknownKey(of: entries[position], among: entries, as: kind, in: what)
            else { continue }
            byKey.written.append(.init(key: key, position: position))
        }
        return byKey
    }

    /// The key of the entry at `position` when it is an untagged scalar that names one the kind takes, as nearly
    /// every key is; otherwise nil, and ``unknownKey(of:among:as:in:)`` says why. Named from the text where the tree
    /// keeps it (``YAMLNode/Entries/withUntaggedKeyText(at:_:)``).
    @inline(__always)
    static func plainKey<Key: WrittenNames>(at position: Int, of entries: YAMLNode.Entries, as kind: Key.Type) -> Key? {
        entries.withUntaggedKeyText(at: position) { Key.known.named($0) } ?? nil
    }

    /// The key of an entry of `mapping` that is not plainly a key the kind takes (``plainKey(of:as:)``): tagged,
    /// not a scalar, or unknown, each reported, an unknown one with the nearest key the kind takes that the mapping
    /// does not have already. Apart from ``plainKey(of:as:)``, which runs for every entry decoded. The mapping is
    /// handed here from the caller's loop: this used to look for it through the tree, which keeps no parents, so
    /// that 499 unknown keys before 8,000 rules took the read 135 ms, not 39 ms.
    @inline(never)
    mutating func unknownKey<Key: WrittenNames>(
        of entry: YAMLMappingEntry, among mapping: YAMLNode.Entries, as kind: Key.Type, in what: String
    ) -> Key? {
        guard let name = text(entry.key, "a key") else { return nil }
        if let key = Key.known.named(name.value) { return key }
        guard keepsProblems else {
            // Not kept, so no suggestion: a suggestion compares the key with its siblings, and a file of thousands
            // of unknown keys took 144 ms to read for suggestions it did not report.
            error(.policyUnknownKey, "\(what) has no key \"\(name.value)\"", at: name.range)
            return nil
        }
        let known = Key.known.names
        let suggestion = suggestedKey(for: name, among: mapping, known: known, of: kind)
        error(.policyUnknownKey,
            "\(what) has no key \"\(name.value)\""
                + (suggestion.map { "; did you mean \"\($0)\"?" } ?? "; known keys: \(known.joined(separator: ", "))"),
            at: name.range,
            fixIt: suggestion.flatMap { .naming(name.node, $0, message: "rename to \"\($0)\"") })
        return nil
    }

    /// The key an unknown key was probably meant to be: the nearest one the kind takes, unless renaming it would make
    /// a key written twice, as its mapping has that key already, or another unknown key of the mapping is nearest to
    /// it too. A mapping of more than 64 keys, which no kind has, is not looked at: a file of thousands of unknown
    /// keys would have had them all gathered for each one reported.
    private func suggestedKey<Key: WrittenNames>(
        for name: WrittenText, among siblings: YAMLNode.Entries, known: [String], of kind: Key.Type
    ) -> String? {
        guard siblings.count <= 64 else {
            return DidYouMean.nearest(to: name.value, in: known)
        }
        let written = Set(siblings.compactMap(\.key.text))
        let candidates = known.filter { !written.contains($0) }
        guard let suggestion = DidYouMean.nearest(to: name.value, in: candidates) else { return nil }
        let offset = name.range.start.offset
        let contested = siblings.contains { other in
            guard other.key.range.start.offset != offset, let text = other.key.text, Key.known.named(text) == nil
            else { return false }
            return DidYouMean.nearest(to: text, in: candidates) == suggestion
        }
        return contested ? nil : suggestion
    }

    /// Reports a missing required key at the mapping it belongs in.
    mutating func require<Key: WrittenNames>(_ key: Key, in byKey: KeyedEntries<Key>, of node: YAMLNode, _ what: String) {
        if !byKey.has(key) {
            error(.policyMissingKey, "\(what) needs the key \"\(key.rawValue)\"", at: SourceRange(start: node.range.start))
        }
    }

    /// False, with a diagnostic, when the node carries a YAML tag: the language has no use for tags, and an
    /// unquoted `!= 1.0` is read by YAML as the tag `!=` on `1.0`.
    mutating func rejectTag(_ node: YAMLNode) -> Bool {
        node.tag == nil || rejected(node)
    }

    /// Reports the tag of a tagged node, and returns false.
    @inline(never)
    private mutating func rejected(_ node: YAMLNode) -> Bool {
        guard let tag = node.tag else { return true }
        let shown = tag.hasPrefix("tag:yaml.org,2002:") ? "!!" + tag.dropFirst("tag:yaml.org,2002:".count) : tag
        if let scalar = node.scalar, !shown.hasPrefix("!!") {
            let written = "\(shown) \(scalar.text)"
            error(.policyUnexpectedTag,
                "YAML reads \(written) as the tag \(shown) on \"\(scalar.text)\"; quote the whole value: \"\(written)\"",
                at: node.range,
                fixIt: .replacing(node, with: YAMLWriting.quoted(written), message: "quote the value"))
        } else {
            error(.policyUnexpectedTag,
                "the YAML tag \(shown) is not part of the policy language; remove it", at: node.range)
        }
        return false
    }

    /// The range of characters `position ..< position + length` inside a one-line scalar, for pointing into a
    /// string; the whole scalar when that cannot be done exactly.
    ///
    /// The text must be written as it reads, which its length in the source shows: no escape, no doubled quote, no
    /// folded line. It costs nothing for ASCII text and a walk to the position otherwise: a range of 7,000
    /// alternatives, each pointed into, once took seconds here (the whole text was split into scalars, each made a
    /// `String`, for every position).
    static func range(inside node: YAMLNode, position: Int?, length: Int = 1) -> SourceRange {
        guard let position, let scalar = node.scalar, node.range.start.line == node.range.end.line,
            scalar.style == .plain || scalar.style == .singleQuoted || scalar.style == .doubleQuoted
        else { return node.range }
        let quote = scalar.style == .plain ? 0 : 1
        let utf8 = scalar.text.utf8
        let writtenBytes = node.range.end.offset - node.range.start.offset
        guard writtenBytes == utf8.count + 2 * quote else { return node.range }
        let clamped: Int, end: Int, prefixBytes: Int, spanBytes: Int
        if node.range.end.column - node.range.start.column == writtenBytes {
            // As many columns as bytes: ASCII, one byte a scalar.
            (clamped, end) = (min(position, utf8.count), min(position + length, utf8.count))
            (prefixBytes, spanBytes) = (clamped, end - clamped)
        } else {
            // Count scalars by their first bytes, to the end of the span.
            var scalars = 0, bytes = 0, startBytes: Int?
            for byte in utf8 {
                if !byte.isUTF8Continuation {
                    if scalars == position { startBytes = bytes }
                    if scalars == position + length { break }
                    scalars += 1
                }
                bytes += 1
            }
            (clamped, end) = (min(position, scalars), min(position + length, scalars))
            prefixBytes = startBytes ?? bytes
            spanBytes = bytes - prefixBytes
        }
        let start = SourceLocation(
            line: node.range.start.line, column: node.range.start.column + quote + clamped,
            offset: node.range.start.offset + quote + prefixBytes)
        return SourceRange(start: start, end: SourceLocation(
            line: start.line, column: start.column + (end - clamped), offset: start.offset + spanBytes))
    }
}

/// A scalar's text and its node, as the decoder reads it; ``located`` is the form a policy keeps.
///
/// The decoder reads and drops several texts for every rule. When a `Located<String>` was eight words, the compiler
/// released an optional one through the optional type's value witnesses, about a hundred instructions each, which
/// this four-word type was made to avoid. Source positions are 32-bit numbers now and a `Located<String>` is five
/// words, copied inline; reading texts as `Located<String>` again still measured 14K instructions more on the
/// 48-rule benchmark (reader + decoder 5.002M → 5.016M), so this stays.
struct WrittenText {
    /// The scalar's text.
    let value: String
    /// The scalar.
    let node: YAMLNode

    /// Where the scalar is written.
    var range: SourceRange { node.range }

    /// The text as a policy keeps it.
    var located: Located<String> { Located(value, range: range) }
}

/// Suggestions for misspelt names.
enum DidYouMean {
    /// The known name nearest to `word` by edit distance, when it is close enough to be a likely typo: at most one
    /// edit in three characters, and at most three. A name whose length differs from the word's by more than that
    /// is further than that, and is not compared: a long word (a misspelt key can be 64 KiB, a population's header
    /// field as long as its line) costs one pass over it, not a table of its length by each name's.
    static func nearest(to word: String, in names: [String]) -> String? {
        let written = Array(word.lowercased().unicodeScalars)
        let allowed = max(1, min(3, word.count / 3))
        var best: (name: String, distance: Int)?
        for name in names {
            let candidate = Array(name.lowercased().unicodeScalars)
            guard abs(candidate.count - written.count) <= allowed else { continue }
            let distance = editDistance(written, candidate)
            if distance < (best?.distance ?? Int.max) { best = (name, distance) }
        }
        guard let best, best.distance <= allowed else { return nil }
        return best.name
    }

    /// Edit distance counting a swap of two neighbours as one edit (`frist` is one edit from `first`). The table is
    /// filled a row at a time, three rows kept: the row being filled and the two before it, which a swap looks at.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var twoBack = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], twoBack[j - 2] + 1)
                }
            }
            (twoBack, previous, current) = (previous, current, twoBack)
        }
        return previous[b.count]
    }
}

/// A mapping's entries under the keys its kind takes, in the order written. A list: a mapping has a handful of
/// entries, and comparing two keys is comparing two small numbers.
struct KeyedEntries<Key: WrittenNames> {
    /// The mapping the entries are in.
    let mapping: YAMLNode.Entries
    /// Each key the kind takes, with its entry's place in ``mapping``, in the order written. Places, not entries:
    /// an entry holds two nodes, each retaining the tree, and a list of entries was destroyed entry by entry
    /// through their value witnesses, for every mapping decoded.
    fileprivate(set) var written: [KeyPlace<Key>] = []

    /// The value under `key` (the reader has already reported a key written twice; the last one counts).
    subscript(key: Key) -> YAMLNode? {
        for index in written.indices.reversed() where written[index].key == key {
            return mapping.value(at: written[index].position)
        }
        return nil
    }

    /// Whether `key` is written: asked without making its value's node, which retains the tree.
    func has(_ key: Key) -> Bool { written.contains { $0.key == key } }

    /// The entry a key is written in.
    func entry(_ key: KeyPlace<Key>) -> YAMLMappingEntry { mapping[key.position] }

    var isEmpty: Bool { written.isEmpty }
}

/// A key and the place of its entry in the mapping. A struct, not a tuple: an array of tuples is destroyed element
/// by element through the runtime's generic tuple witness. Not nested in ``KeyedEntries`` and free of its
/// `WrittenNames` requirement: with it, the first list of keys of each kind cost an app's first read a scan of
/// every conformance the process holds (BENCHMARKS.md, The first operation in a process).
struct KeyPlace<Key> {
    let key: Key
    let position: Int
}
