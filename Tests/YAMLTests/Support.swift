import LaunchPolicy

/// Reads YAML text with the given limits.
func read(_ text: String, limits: YAMLLimits = .default) -> YAMLReadResult {
    YAMLReader(limits: limits).read(text)
}

/// Reads bytes with the given limits.
func read(bytes: [UInt8], limits: YAMLLimits = .default) -> YAMLReadResult {
    YAMLReader(limits: limits).read(bytes)
}

/// The codes of the diagnostics, in order.
func codes(_ result: YAMLReadResult) -> [String] {
    result.diagnostics.map(\.code.rawValue)
}

/// Every event of an input in the YAML test suite's notation, plus the error that stopped it, if any.
func suiteEvents(_ bytes: [UInt8], limits: YAMLLimits = YAMLLimits(maximumDocuments: .max)) -> (
    lines: [String], error: Diagnostic?, count: Int
) {
    var lines: [String] = []
    let error = bytes.withUnsafeBytes { buffer in
        YAMLEventReader(limits: limits).readEvents(buffer) { event in
            lines.append(SuiteNotation.line(for: event))
            return true
        }
    }
    return (lines, error, lines.count)
}

/// The YAML test suite's event notation (see shared/conformance/README.md).
enum SuiteNotation {
    static func line(for event: YAMLEvent) -> String {
        switch event.kind {
        case .streamStart: return "+STR"
        case .streamEnd: return "-STR"
        case .documentStart(let explicit): return explicit ? "+DOC ---" : "+DOC"
        case .documentEnd(let explicit): return explicit ? "-DOC ..." : "-DOC"
        case .sequenceStart(let anchor, let tag, let flow):
            return "+SEQ" + (flow ? " []" : "") + properties(anchor, tag)
        case .sequenceEnd: return "-SEQ"
        case .mappingStart(let anchor, let tag, let flow):
            return "+MAP" + (flow ? " {}" : "") + properties(anchor, tag)
        case .mappingEnd: return "-MAP"
        case .alias(let name): return "=ALI *\(name)"
        case .scalar(let scalar, let anchor, let tag):
            let marker: String
            switch scalar.style {
            case .plain: marker = ":"
            case .singleQuoted: marker = "'"
            case .doubleQuoted: marker = "\""
            case .literal: marker = "|"
            case .folded: marker = ">"
            }
            return "=VAL" + properties(anchor, tag) + " " + marker + escape(scalar.text)
        }
    }

    private static func properties(_ anchor: String?, _ tag: String?) -> String {
        (anchor.map { " &\($0)" } ?? "") + (tag.map { " <\($0)>" } ?? "")
    }

    private static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case "\u{08}": out += "\\b"
            case "\0": out += "\\0"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
