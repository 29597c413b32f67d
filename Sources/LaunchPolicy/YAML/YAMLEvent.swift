/// One event of a YAML stream, as libyaml's event API reports it, with its source range.
///
/// Most callers want the node tree from ``YAMLReader``; events are public for tools that need the stream itself,
/// such as conformance tests that print it in the YAML test suite's notation.
public struct YAMLEvent: Sendable {
    /// What happened.
    public enum Kind: Sendable {
        /// The stream begins.
        case streamStart
        /// The stream ends.
        case streamEnd
        /// A document begins; `explicit` when it was opened with `---`.
        case documentStart(explicit: Bool)
        /// A document ends; `explicit` when it was closed with `...`.
        case documentEnd(explicit: Bool)
        /// A sequence begins; `flow` for `[...]`.
        case sequenceStart(anchor: String?, tag: String?, flow: Bool)
        /// The innermost open sequence ends.
        case sequenceEnd
        /// A mapping begins; `flow` for `{...}`.
        case mappingStart(anchor: String?, tag: String?, flow: Bool)
        /// The innermost open mapping ends.
        case mappingEnd
        /// A scalar.
        case scalar(YAMLScalar, anchor: String?, tag: String?)
        /// An alias to the node anchored with this name.
        case alias(String)
    }

    /// What happened.
    public var kind: Kind
    /// Where in the input.
    public var range: SourceRange

    /// Creates an event.
    public init(_ kind: Kind, range: SourceRange) {
        self.kind = kind
        self.range = range
    }
}
