/// A position in a source text.
///
/// `line` and `column` are 1-based and meant for people: `column` counts Unicode scalars (characters as an editor
/// shows them), not bytes. `offset` is the 0-based byte offset into the original input, byte-order mark included,
/// for tools that slice the bytes.
public struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The 1-based line number.
    public var line: Int
    /// The 1-based column, counted in Unicode scalars from the start of the line.
    public var column: Int
    /// The 0-based byte offset into the input.
    public var offset: Int

    /// Creates a location from its line, column and byte offset.
    public init(line: Int, column: Int, offset: Int) {
        self.line = line
        self.column = column
        self.offset = offset
    }

    /// The start of any input: line 1, column 1, offset 0.
    public static let start = SourceLocation(line: 1, column: 1, offset: 0)

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.line, lhs.column, lhs.offset) < (rhs.line, rhs.column, rhs.offset)
    }

    /// `LINE:COLUMN`, as compilers print it.
    public var description: String { "\(line):\(column)" }
}

/// A half-open span of source text: from `start` up to, not including, `end`.
public struct SourceRange: Hashable, Sendable, CustomStringConvertible {
    /// The first position inside the range.
    public var start: SourceLocation
    /// The first position after the range.
    public var end: SourceLocation

    /// Creates a range; `end` defaults to `start` (an empty range, a point).
    public init(start: SourceLocation, end: SourceLocation? = nil) {
        self.start = start
        self.end = end ?? start
    }

    /// An empty range at the very start of the input, for problems that concern the whole input.
    public static let wholeInputStart = SourceRange(start: .start)

    /// `LINE:COLUMN-LINE:COLUMN`.
    public var description: String { "\(start)-\(end)" }
}
