/// A position in a source text.
///
/// `line` and `column` are 1-based and meant for people: `column` counts Unicode scalars (characters as an editor
/// shows them), not bytes. `offset` is the 0-based byte offset into the original input, byte-order mark included,
/// for tools that slice the bytes.
///
/// The three numbers are kept as 32-bit values (a value outside 0...4,294,967,295 is clamped to that range), so that
/// a range is three words and a located text five: every node of a decoded policy carries ranges, and a
/// `Located<String>?` of eight words was copied and released through the runtime's generic value witnesses, at about
/// a hundred instructions each, where five words are copied inline. Inputs are far smaller than 4 GiB.
public struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The 1-based line number.
    public var line: Int {
        get { Int(storedLine) }
        set { storedLine = UInt32(clamping: newValue) }
    }
    /// The 1-based column, counted in Unicode scalars from the start of the line.
    public var column: Int {
        get { Int(storedColumn) }
        set { storedColumn = UInt32(clamping: newValue) }
    }
    /// The 0-based byte offset into the input.
    public var offset: Int {
        get { Int(storedOffset) }
        set { storedOffset = UInt32(clamping: newValue) }
    }

    private var storedLine, storedColumn, storedOffset: UInt32

    /// Creates a location from its line, column and byte offset.
    public init(line: Int, column: Int, offset: Int) {
        storedLine = UInt32(clamping: line)
        storedColumn = UInt32(clamping: column)
        storedOffset = UInt32(clamping: offset)
    }

    /// A location in an input the reader accepted, which is at most ``YAMLLimits/largestInputBytes`` long, so its
    /// numbers fit without clamping (the reader makes two locations an event).
    init(withinInput line: Int, column: Int, offset: Int) {
        storedLine = UInt32(truncatingIfNeeded: line)
        storedColumn = UInt32(truncatingIfNeeded: column)
        storedOffset = UInt32(truncatingIfNeeded: offset)
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
