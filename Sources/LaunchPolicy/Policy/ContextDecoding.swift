import Foundation

/// A launch context written in YAML or JSON — a test case's `context`, a `--context` file: the condition keys with
/// text values, lists, and `attributes` as a mapping. Values stay text here; ``LaunchContext`` types and checks them.
enum ContextDecoding {
    static func values(_ node: YAMLNode, _ support: inout DecodingSupport) -> [String: Located<ContextValue>] {
        guard let entries = support.mapping(node, "context") else { return [:] }
        var values: [String: Located<ContextValue>] = [:]
        let byKey = support.entries(entries, as: ContextKey.self, in: "a context")
        for keyed in byKey.written {
            let key = keyed.key.rawValue, entry = byKey.entry(keyed)
            if let map = entry.value.mapping {
                var pairs: [String: String] = [:]
                for pair in map {
                    if let name = support.text(pair.key, "a name"), let value = support.text(pair.value, name.value) {
                        pairs[name.value] = value.value
                    }
                }
                values[key] = Located(.map(pairs), range: entry.value.range)
            } else if entry.value.sequence != nil {
                let items = support.oneOrList(entry.value, key, { $1.value }) ?? []
                values[key] = Located(.list(items), range: entry.value.range)
            } else if let text = support.text(entry.value, key) {
                values[key] = Located(.text(text.value), range: text.range)
            }
        }
        return values
    }
}

/// A launch context kept in a file, YAML or JSON, with the keys a test case's `context` has:
///
/// ```yaml
/// platform: ios
/// app-version: "2.3.9"
/// now: "2026-12-01T03:00:00Z"
/// attributes: {plan: pro}
/// ```
public enum LaunchContextFile {
    /// The values written in the file, and every problem with its shape, positioned.
    public static func values(_ data: Data, limits: YAMLLimits = .default)
        -> (values: [String: Located<ContextValue>], diagnostics: [Diagnostic])
    {
        let read = YAMLReader(limits: limits).read(data)
        guard let root = read.root else { return ([:], read.diagnostics) }
        var support = DecodingSupport()
        let values = ContextDecoding.values(root, &support)
        return (values, (read.diagnostics + support.diagnostics).sortedBySource())
    }
}
