/// How serious a diagnostic is.
public enum Severity: String, Sendable, Hashable, Comparable, CaseIterable {
    /// The input cannot be used: a policy with an error is never evaluated.
    case error
    /// The input works but probably not as its author meant.
    case warning
    /// Information worth knowing; nothing is wrong.
    case note

    private var rank: Int {
        switch self {
        case .error: 0
        case .warning: 1
        case .note: 2
        }
    }

    /// Errors sort first, notes last.
    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// A stable identifier for a kind of problem, such as `yaml.duplicate-key`.
///
/// Codes are part of the public contract: scripts and CI configurations match on them, so a code, once released,
/// keeps its meaning. Each stage declares its own codes in an extension next to the code that reports them.
public struct DiagnosticCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The code as printed, `stage.kebab-case-name`.
    public let rawValue: String

    /// Wraps a code string.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Wraps a code string literal.
    public init(stringLiteral value: String) { self.rawValue = value }

    public var description: String { rawValue }
}

/// A suggested edit that would resolve a diagnostic: replace the text in `range` with `replacement`.
public struct FixIt: Hashable, Sendable {
    /// The text to replace.
    public var range: SourceRange
    /// The text to put in its place.
    public var replacement: String
    /// What the edit does, in a few words ("quote the version").
    public var message: String

    /// Creates a fix-it.
    public init(range: SourceRange, replacement: String, message: String) {
        self.range = range
        self.replacement = replacement
        self.message = message
    }

    /// The fix-it in words, as the text and GitHub formats show it: `quote it: replace with "NO"`, or for a
    /// deletion its message alone (`delete the blanks`).
    public var summary: String {
        replacement.isEmpty ? message : "\(message): replace with \(replacement)"
    }
}

/// One problem found in an input, by any stage of the pipeline.
///
/// Diagnostics are values: the library returns them and never prints. Command-line tools render them with
/// ``Diagnostic/rendered(file:source:)`` in the form compilers use.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
    /// A secondary position that helps explain the problem, such as the first occurrence of a duplicate key.
    public struct Note: Hashable, Sendable {
        /// What is at that position.
        public var message: String
        /// Where it is.
        public var range: SourceRange
        /// The file it points into, when that is not the diagnostic's own (a policy test file's failure points at the
        /// policy's rules).
        public var path: String?

        /// Creates a note; a message over ``Diagnostic/maximumMessageLength`` is shortened in its middle.
        public init(message: String, range: SourceRange, path: String? = nil) {
            self.message = Diagnostic.bounded(message)
            self.range = range
            self.path = path
        }
    }

    /// The stable code of this kind of problem.
    public var code: DiagnosticCode
    /// How serious it is.
    public var severity: Severity
    /// A sentence a product manager understands: what is wrong and, where possible, what to do.
    public var message: String
    /// Where the problem is.
    public var range: SourceRange
    /// An edit that resolves the problem, when one is known.
    public var fixIt: FixIt?
    /// Related positions.
    public var notes: [Note]

    /// Creates a diagnostic; a message over ``maximumMessageLength`` is shortened in its middle.
    public init(
        code: DiagnosticCode, severity: Severity, message: String, range: SourceRange,
        fixIt: FixIt? = nil, notes: [Note] = []
    ) {
        self.code = code
        self.severity = severity
        self.message = Self.bounded(message)
        self.range = range
        self.fixIt = fixIt
        self.notes = notes
    }

    /// Creates an error.
    public static func error(
        _ code: DiagnosticCode, _ message: String, at range: SourceRange,
        fixIt: FixIt? = nil, notes: [Note] = []
    ) -> Diagnostic {
        Diagnostic(code: code, severity: .error, message: message, range: range, fixIt: fixIt, notes: notes)
    }

    /// Creates a warning.
    public static func warning(
        _ code: DiagnosticCode, _ message: String, at range: SourceRange,
        fixIt: FixIt? = nil, notes: [Note] = []
    ) -> Diagnostic {
        Diagnostic(code: code, severity: .warning, message: message, range: range, fixIt: fixIt, notes: notes)
    }

    /// The longest message a diagnostic keeps, in bytes of UTF-8. Messages quote what the file says, and one value
    /// can be 64 KiB and, through aliases, stand in 100,000 places: a file of 220 KB once made 2.4 GB of messages.
    public static let maximumMessageLength = 1_000

    /// `message`, or when it is longer than ``maximumMessageLength``, its start and end around ` … `: the start says
    /// what is wrong and the end what to do. Cut by UTF-8 offsets, which a native string reaches without a walk, at
    /// the nearest scalar boundaries.
    static func bounded(_ message: String) -> String {
        let utf8 = message.utf8
        guard utf8.count > maximumMessageLength else { return message }
        let kept = maximumMessageLength - " … ".utf8.count
        var head = utf8.index(utf8.startIndex, offsetBy: kept * 2 / 3)
        while utf8[head].isUTF8Continuation { utf8.formIndex(before: &head) }
        var tail = utf8.index(utf8.endIndex, offsetBy: -(kept - kept * 2 / 3))
        while utf8[tail].isUTF8Continuation { utf8.formIndex(after: &tail) }
        return String(message[..<head]) + " … " + String(message[tail...])
    }

    /// `text` in double quotes for a message, cut after `limit` scalars with `…`: for a value that a message may
    /// quote many times, such as a range pointed into at each of its thousands of bounds, where quoting it whole made
    /// each message as long as the range before ``bounded(_:)`` cut it.
    static func quoted(_ text: String, limit: Int = 60) -> String {
        let scalars = text.unicodeScalars
        var end = scalars.startIndex
        var count = 0
        while end < scalars.endIndex, count < limit {
            scalars.formIndex(after: &end)
            count += 1
        }
        return "\"" + (end == scalars.endIndex ? text : String(scalars[..<end]) + "…") + "\""
    }

    /// `LINE:COL: SEVERITY: MESSAGE [CODE]`, without a file name or source excerpt; the message shown as a terminal
    /// may show it (``TerminalText``).
    public var description: String {
        "\(range.start): \(severity.rawValue): \(TerminalText.visible(message)) [\(code)]"
    }
}

extension Sequence where Element == Diagnostic {
    /// Whether any of the diagnostics is an error.
    public var containsErrors: Bool { contains { $0.severity == .error } }

    /// The diagnostics in source order; at the same position, errors before warnings before notes.
    public func sortedBySource() -> [Diagnostic] {
        sorted { Diagnostic.precedesInSource($0, $1) }
    }
}

extension Diagnostic {
    /// Whether `one` comes before `other` in source order; at the same position, errors before warnings before notes.
    /// Called from a closure written where the sort is, and inlined there, which the sort is then made for: handed
    /// to it as a function, the comparison was called through a reference, and every diagnostic it compared was
    /// copied out of the list to be handed to it.
    @inline(__always)
    static func precedesInSource(_ one: Diagnostic, _ other: Diagnostic) -> Bool {
        (one.range.start, one.severity) < (other.range.start, other.severity)
    }
}

extension Array where Element == Diagnostic {
    /// Sorts the diagnostics in place into source order (``Swift/Sequence/sortedBySource()``).
    mutating func sortBySource() {
        sort { Diagnostic.precedesInSource($0, $1) }
    }

    /// Appends `diagnostic` while fewer than `limit` are held. The first one past the limit is replaced by one error
    /// with the code `overflow`, where it was found, saying the rest are not reported; later ones are dropped. A
    /// hostile file can have a problem at every node or row, each held in memory and printed.
    mutating func append(_ diagnostic: Diagnostic, keepingAtMost limit: Int, overflow: DiagnosticCode) {
        if count < limit {
            append(diagnostic)
        } else if count == limit {
            append(.error(overflow, "more than \(limit) problems; the rest are not reported", at: diagnostic.range))
        }
    }
}

/// Diagnostics kept as ``Swift/Array/append(_:keepingAtMost:overflow:)`` keeps them, for a reader that hands its
/// list from part to part.
struct BoundedDiagnostics {
    /// What is kept, the error that says the rest are not reported last when there is one.
    private(set) var list: [Diagnostic] = []
    /// How many are kept before that error.
    let limit: Int
    /// The error's code.
    let overflow: DiagnosticCode

    mutating func append(_ diagnostic: Diagnostic) {
        list.append(diagnostic, keepingAtMost: limit, overflow: overflow)
    }
}

/// A diagnostic can be thrown where one problem ends an operation.
extension Diagnostic: Error {}
