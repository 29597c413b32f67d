/// How the library writes a scalar into YAML text of its own: the policies `launch-policy convert` writes, and the
/// replacements of fix-its, which `policy-lint --fix` and editors put into a user's file. What it writes reads back
/// as the same text, through this reader and through other YAML tools, wherever a scalar may stand, in a flow
/// collection too.
public enum YAMLWriting {
    /// A double-quoted scalar: a JSON string, which YAML reads the same (every JSON escape is one of YAML's, and the
    /// JSON writer escapes no character as a surrogate pair, which this reader reads and YAML tools on libyaml
    /// refuse).
    public static func quoted(_ text: String) -> String { JSONValue.string(text).text }

    /// `text` unquoted where every tool reads it as that text: ASCII letters, digits, `-`, `_` and `.`, starting with
    /// a letter or a digit, and not a word or number other YAML tools read as another value (`no`, `1.10`; see
    /// ``YAMLImplicitTyping``). Quoted otherwise.
    public static func scalar(_ text: String) -> String {
        guard let first = text.utf8.first, isLetterOrDigit(first),
            text.utf8.allSatisfy({ isLetterOrDigit($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_")
                || $0 == UInt8(ascii: ".") }),
            YAMLImplicitTyping.changedReading(of: text) == nil
        else { return quoted(text) }
        return text
    }

    /// `text` written to replace a scalar of `style`: quoted in place of a quoted scalar, so that a JSON file stays
    /// JSON; as ``scalar(_:)`` writes it otherwise.
    public static func scalar(_ text: String, inPlaceOf style: YAMLScalarStyle) -> String {
        style == .doubleQuoted || style == .singleQuoted ? quoted(text) : scalar(text)
    }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: false
        }
    }
}

extension FixIt {
    /// A fix-it that puts `text` (written by ``YAMLWriting``) where `node` is written. The node's range begins at its
    /// anchor, which is kept, as aliases elsewhere name it; a tag is not, as a fix-it that replaces a tagged node
    /// means to remove the tag. Nil for a node with nothing written (an empty value, `key:` or `{key}`): what could
    /// be put there depends on what is around it, and a text put in its place could change how the rest reads.
    ///
    /// What is written around the node, which the tree keeps, decides the rest. A block scalar written at the start
    /// of a line (`tests:`, then `|-` on the next) is replaced a space in: libyaml reads such a header at its key's
    /// column, which YAML 1.2 refuses, and a scalar or flow collection there would start the next key; past the key's
    /// column the space changes nothing. An implicit key (a node a `:` follows on its line) gets no fix-it when its
    /// text would put the `:` more than 1,024 characters from the key's start, past which YAML no longer reads it as
    /// a key: quoting a long key, its escapes written out, could.
    public static func replacing(_ node: YAMLNode, with text: String, message: String) -> FixIt? {
        guard node.range.end.offset > node.range.start.offset else { return nil }
        let written = node.anchor.map { "&\($0) \(text)" } ?? text
        if let blanks = node.blanksBeforeColon, written.unicodeScalars.count + blanks > maximumImplicitKeyLength {
            return nil
        }
        let blockScalar = node.scalar?.style == .literal || node.scalar?.style == .folded
        return FixIt(range: node.range, replacement: blockScalar && node.startsItsLine ? " " + written : written,
            message: message)
    }

    /// The most characters YAML reads from an implicit key's start to its `:`.
    static let maximumImplicitKeyLength = 1_024

    /// A fix-it that writes `name` (a key or value the language knows, or an id of the file) in place of `node`,
    /// quoted where the node was quoted (``YAMLWriting/scalar(_:inPlaceOf:)``).
    public static func naming(_ node: YAMLNode, _ name: String, message: String) -> FixIt? {
        replacing(node, with: YAMLWriting.scalar(name, inPlaceOf: node.scalar?.style ?? .plain), message: message)
    }
}
