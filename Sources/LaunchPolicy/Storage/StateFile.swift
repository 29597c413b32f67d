import Foundation

/// Why a state file could not be read: a stable code, what is wrong in words, and where in the file.
///
/// A problem with a field names it by its path (`latest.kind`) and is placed in the text by ``StateFile/decode(_:_:)``,
/// which reads the text again to find it: the values a launch reads carry no positions.
package struct StateFileProblem: Error {
    /// The kind of problem.
    package let code: DiagnosticCode
    /// What is wrong, for a diagnostic that carries the place itself.
    package let message: String
    /// Where in the file: the byte where the text stops being JSON, the value or key at fault, the object a key is
    /// missing from; nil for the file as a whole (it is empty, too large, or cannot be read).
    package fileprivate(set) var range: SourceRange?
    /// What is wrong with the line and column in words, for messages that carry no position.
    package let reason: String
    /// The field at fault, until the problem is placed.
    fileprivate var place: JSONReader.Place?

    package init(_ code: DiagnosticCode, _ message: String) {
        self.code = code
        self.message = message
        self.reason = message
    }

    fileprivate init(_ code: DiagnosticCode, _ message: String, at place: JSONReader.Place) {
        self.init(code, message)
        self.place = place
    }

    fileprivate init(notJSON failure: JSONReader.Failure) {
        code = .stateNotJSON
        message = failure.message
        reason = failure.reason
        range = SourceRange(start: failure.location)
    }

    /// The problem as an error diagnostic in the file: at its start when the problem has no place.
    package func diagnostic(_ message: String? = nil) -> Diagnostic {
        .error(code, message ?? self.message, at: range ?? .wholeInputStart)
    }
}

/// The JSON state files the library keeps — what was shown, the launch history, the delivered policy — written and
/// read one way: indented JSON with ISO 8601 dates and a `format` number, read field by field with problems said in
/// words (`the key "latest.kind" is missing`), a stable code, and their place in the file.
///
/// Written through ``JSONValue`` and read by ``JSONReader``, not through `Codable`: Foundation's `JSONEncoder` and
/// `JSONDecoder` cost about 100,000 instructions each for a launch history, which an app writes and reads at every
/// launch.
package enum StateFile {
    /// The format every state file is written in, and the only one read.
    package static let currentFormat = 1

    /// The most a state file may hold, 64 MiB: far more than any the library writes (the delivery cache, holding a
    /// policy in base64, is the largest), and little enough that a file that is not one is not read whole.
    package static let largestFile = 64 << 20

    /// The bytes of the state file at `url`, nil when there is none, read only to one byte past ``largestFile``
    /// (``decode(_:)`` refuses more). Throws when it cannot be read, and when it is not a regular file: a store
    /// given as `/dev/null` or `/dev/zero` is refused, not read for ever, set aside or written over.
    package static func read(_ url: URL) throws -> Data? {
        do {
            return data(try AtomicFile.contents(of: url, readingAtMost: largestFile + 1, onlyRegular: true).bytes)
        } catch let error as POSIXError where error.code == .ENOENT {
            return nil
        }
    }

    /// The file's text: `format` first, then `members` as ``object(_:)`` writes them, and a line break at the end.
    package static func encode(_ members: KeyValuePairs<String, JSONValue>) -> Data {
        var bytes = JSONValue.object([("format", .int(currentFormat))] + present(members)).indentedBytes
        bytes.append(UInt8(ascii: "\n"))
        return data(bytes)
    }

    /// `bytes` as `Data`, copied from their buffer. `Data`'s initialiser from a sequence asks at run time whether it
    /// is `ContiguousBytes`, and the first such question of a process for a type scans every conformance the process
    /// holds (BENCHMARKS.md, The first operation in a process): at every launch's first read or write of a state file.
    private static func data(_ bytes: [UInt8]) -> Data {
        bytes.withUnsafeBufferPointer { Data(buffer: $0) }
    }

    /// An object of a state file: `members` in their order, those that are null left out (a reader takes a field
    /// that is absent as null).
    package static func object(_ members: KeyValuePairs<String, JSONValue>) -> JSONValue {
        .object(present(members))
    }

    private static func present(_ members: KeyValuePairs<String, JSONValue>) -> [(String, JSONValue)] {
        members.compactMap { key, value in
            if case .null = value { return nil }
            return (key, value)
        }
    }

    /// What `read` makes of the file's top-level object, once its `format` is the one this library reads. A problem
    /// `read` throws about a field is placed at that field in the text.
    package static func decode<Value>(
        _ data: Data, _ read: (StateFileObject) throws(StateFileProblem) -> Value
    ) throws(StateFileProblem) -> Value {
        guard !data.isEmpty else { throw StateFileProblem(.stateNotJSON, "it is empty") }
        guard data.count <= largestFile else {
            throw StateFileProblem(.stateTooLarge, "it is more than the \(largestFile) bytes a state file may hold")
        }
        let bytes = [UInt8](data)
        let value: JSONValue
        do {
            value = try JSONReader.value(of: bytes)
        } catch {
            throw StateFileProblem(notJSON: error)
        }
        do throws(StateFileProblem) {
            guard case .object(let members) = value else {
                throw StateFileProblem(.stateWrongType, "it holds \(value.kind), not an object",
                    at: JSONReader.Place(steps: []))
            }
            let file = StateFileObject(members: members, path: "")
            let format = try file.int("format")
            guard format == currentFormat else {
                throw file.invalid("format", code: .stateUnsupportedFormat,
                    "it has format \(format); this version of LaunchPolicy reads format \(currentFormat)")
            }
            return try read(file)
        } catch {
            var placed = error
            if let place = error.place { placed.range = JSONReader.range(of: place, in: bytes) }
            throw placed
        }
    }
}

/// An object in a state file, read field by field. Fields it does not ask for are left alone, so that a newer
/// library's additions do not make a file unreadable; a field it asks for that appears twice is a problem, as
/// which one counts would be a guess.
package struct StateFileObject {
    private let members: [(String, JSONValue)]
    /// Where the object lies, for problems: empty at the top, `latest`, `shown.3`.
    private let path: String

    fileprivate init(members: [(String, JSONValue)], path: String) {
        self.members = members
        self.path = path
    }

    /// A string field.
    package func string(_ key: String) throws(StateFileProblem) -> String {
        guard let value = try optionalString(key) else { throw missing(key) }
        return value
    }

    /// A string field that may be absent or null.
    package func optionalString(_ key: String) throws(StateFileProblem) -> String? {
        switch try value(key) {
        case nil, .null?: return nil
        case .string(let text)?: return text
        case let other?: throw wrongType(key, other, "a string")
        }
    }

    /// A date field, written by ``Timestamp``.
    package func date(_ key: String) throws(StateFileProblem) -> Date {
        guard let date = try optionalDate(key) else { throw missing(key) }
        return date
    }

    /// A date field, written by ``Timestamp``, that may be absent or null.
    package func optionalDate(_ key: String) throws(StateFileProblem) -> Date? {
        guard let text = try optionalString(key) else { return nil }
        guard case .success(let date) = ValueSyntax.date(text) else {
            throw invalid(key, "\(place(key)) \"\(text)\" is not an ISO 8601 date and time")
        }
        return date
    }

    /// A whole-number field.
    package func int(_ key: String) throws(StateFileProblem) -> Int {
        switch try value(key) {
        case nil, .null?: throw missing(key)
        case .int(let number)?: return number
        case let other?: throw wrongType(key, other, "a whole number")
        }
    }

    /// An object field that may be absent or null.
    package func optionalObject(_ key: String) throws(StateFileProblem) -> StateFileObject? {
        switch try value(key) {
        case nil, .null?: return nil
        case .object(let members)?: return StateFileObject(members: members, path: place(key))
        case let other?: throw wrongType(key, other, "an object")
        }
    }

    /// An array field of objects.
    package func objects(_ key: String) throws(StateFileProblem) -> [StateFileObject] {
        switch try value(key) {
        case nil, .null?: throw missing(key)
        case .array(let items)?:
            var objects: [StateFileObject] = []
            objects.reserveCapacity(items.count)
            for (index, item) in items.enumerated() {
                guard case .object(let members) = item else { throw wrongType("\(key).\(index)", item, "an object") }
                objects.append(StateFileObject(members: members, path: place("\(key).\(index)")))
            }
            return objects
        case let other?: throw wrongType(key, other, "an array")
        }
    }

    /// A field whose value is of the right type but not one this library wrote, placed at that value.
    package func invalid(
        _ key: String, code: DiagnosticCode = .stateInvalidValue, _ message: String
    ) -> StateFileProblem {
        StateFileProblem(code, message, at: at(key))
    }

    /// The field's value; nil when absent.
    private func value(_ key: String) throws(StateFileProblem) -> JSONValue? {
        var found: JSONValue?
        for (name, value) in members where name == key {
            guard found == nil else {
                var place = at(key)
                place.repeatedKey = true
                throw StateFileProblem(.stateDuplicateKey, "the key \"\(self.place(key))\" appears twice", at: place)
            }
            found = value
        }
        return found
    }

    private func place(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

    /// The place of the field in the text.
    private func at(_ key: String) -> JSONReader.Place { Self.place(of: place(key)) }

    /// The place of a dotted path; the keys of state files have no dots.
    private static func place(of path: String) -> JSONReader.Place {
        JSONReader.Place(steps: path.isEmpty ? [] : path.split(separator: ".", omittingEmptySubsequences: false))
    }

    /// A missing key is placed at the object that should hold it.
    private func missing(_ key: String) -> StateFileProblem {
        StateFileProblem(.stateMissingKey, "the key \"\(place(key))\" is missing", at: Self.place(of: path))
    }

    private func wrongType(_ key: String, _ found: JSONValue, _ expected: String) -> StateFileProblem {
        StateFileProblem(.stateWrongType, "\(place(key)) is \(found.kind), not \(expected)", at: at(key))
    }
}

extension JSONValue {
    /// What kind of value this is, for problems: `a string`, `null`.
    var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .int: "a whole number"
        case .double: "a number with a fraction"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
