import Foundation

/// A JSON value whose objects keep their keys in the order given, for reports that people read and scripts parse:
/// decisions, and later diagnostics.
public enum JSONValue: Sendable {
    case null
    case bool(Bool)
    case int(Int)
    /// A number with a fraction, such as a share (0.183); written as `null` when it is not finite.
    case double(Double)
    case string(String)
    case array([JSONValue])
    /// An object, its keys in this order.
    case object([(String, JSONValue)])

    /// A string, or null for nil.
    public static func string(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }

    /// The value as JSON text on one line (RFC 8259; non-ASCII characters are written as they are, in UTF-8).
    public var text: String {
        var output = ""
        write(to: &output, indentation: nil)
        return output
    }

    /// The value as JSON text with each array item and object member on a line of its own, indented by two spaces a
    /// level, as the library writes its state files for people to read.
    var indentedText: String {
        var output = ""
        output.reserveCapacity(512)
        write(to: &output, indentation: "")
        return output
    }

    /// Writes the value; `indentation` is the current line's, or nil for one line.
    private func write(to output: inout String, indentation: String?) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .int(let value): output += String(value)
        case .double(let value): output += value.isFinite ? String(value) : "null"
        case .string(let value): Self.writeString(value, to: &output)
        case .array(let items):
            output += "["
            let (first, next, inner) = Self.separators(indentation, empty: items.isEmpty)
            for (index, item) in items.enumerated() {
                output += index == 0 ? first : next
                item.write(to: &output, indentation: inner)
            }
            if let indentation, !items.isEmpty { output += "\n" + indentation }
            output += "]"
        case .object(let members):
            output += "{"
            let (first, next, inner) = Self.separators(indentation, empty: members.isEmpty)
            for (index, (key, value)) in members.enumerated() {
                output += index == 0 ? first : next
                Self.writeString(key, to: &output)
                output += ": "
                value.write(to: &output, indentation: inner)
            }
            if let indentation, !members.isEmpty { output += "\n" + indentation }
            output += "}"
        }
    }

    /// What goes before a container's first item and before each next one, and the items' indentation: made once a
    /// container, not for every item.
    private static func separators(_ indentation: String?, empty: Bool) -> (String, String, String?) {
        guard let indentation, !empty else { return ("", ", ", nil) }
        let inner = indentation + "  "
        return ("\n" + inner, ",\n" + inner, inner)
    }

    private static func writeString(_ value: String, to output: inout String) {
        output += "\""
        output.append(value) { scalar in
            switch scalar {
            case "\"": "\\\""
            case "\\": "\\\\"
            case "\n": "\\n"
            case "\r": "\\r"
            case "\t": "\\t"
            // Controls, DEL, the C1 controls and the line separators escaped: valid JSON either way, and so the
            // same text is a YAML double-quoted scalar (YAML allows none of them raw), which the converter relies on.
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
                || scalar.value == 0x2028 || scalar.value == 0x2029 || scalar.value == 0xFEFF:
                unicodeEscape(scalar)
            default: nil
            }
        }
        output += "\""
    }

    /// `\u0007`: the scalar's code in four hexadecimal digits (only scalars below U+10000 are escaped).
    private static func unicodeEscape(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16)
        return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
}
