import Foundation

/// Why a state file could not be read, in words.
package struct StateFileProblem: Error {
    package let reason: String
    /// Where in the file, when the problem has a place: the text stops being JSON there.
    package let location: SourceLocation?

    package init(reason: String, location: SourceLocation? = nil) {
        self.reason = reason
        self.location = location
    }
}

/// The JSON state files the library keeps — what was shown, the launch history, the delivered policy — written and
/// read one way: indented JSON with ISO 8601 dates and a `format` number, read field by field with problems said in
/// words (`the key "latest.kind" is missing`).
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
            return Data(try AtomicFile.contents(of: url, readingAtMost: largestFile + 1, onlyRegular: true).bytes)
        } catch let error as POSIXError where error.code == .ENOENT {
            return nil
        }
    }

    /// The file's text: `format` first, then `members` as ``object(_:)`` writes them, and a line break at the end.
    package static func encode(_ members: KeyValuePairs<String, JSONValue>) -> Data {
        Data((JSONValue.object([("format", .int(currentFormat))] + present(members)).indentedText + "\n").utf8)
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

    /// The file's top-level object, once its `format` is the one this library reads.
    package static func decode(_ data: Data) throws(StateFileProblem) -> StateFileObject {
        guard !data.isEmpty else { throw StateFileProblem(reason: "it is empty") }
        guard data.count <= largestFile else {
            throw StateFileProblem(reason: "it is more than the \(largestFile) bytes a state file may hold")
        }
        let value: JSONValue
        do {
            value = try JSONReader.value(of: [UInt8](data))
        } catch {
            throw StateFileProblem(reason: error.reason, location: error.location)
        }
        guard case .object(let members) = value else {
            throw StateFileProblem(reason: "it is not a JSON object of the expected shape")
        }
        let file = StateFileObject(members: members, path: "")
        let format = try file.int("format")
        guard format == currentFormat else {
            throw StateFileProblem(reason: "it has format \(format); this version of LaunchPolicy reads format \(currentFormat)")
        }
        return file
    }

    /// A date written by ``Timestamp``; `field` names it in the problem.
    package static func date(_ text: String, _ field: String) throws(StateFileProblem) -> Date {
        guard case .success(let date) = ValueSyntax.date(text) else {
            throw StateFileProblem(reason: "\(field) \"\(text)\" is not an ISO 8601 date and time")
        }
        return date
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
        default: throw wrongType(key)
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
        return try StateFile.date(text, place(key))
    }

    /// A whole-number field.
    package func int(_ key: String) throws(StateFileProblem) -> Int {
        switch try value(key) {
        case nil, .null?: throw missing(key)
        case .int(let number)?: return number
        default: throw wrongType(key)
        }
    }

    /// An object field that may be absent or null.
    package func optionalObject(_ key: String) throws(StateFileProblem) -> StateFileObject? {
        switch try value(key) {
        case nil, .null?: return nil
        case .object(let members)?: return StateFileObject(members: members, path: place(key))
        default: throw wrongType(key)
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
                guard case .object(let members) = item else { throw wrongType("\(key).\(index)") }
                objects.append(StateFileObject(members: members, path: place("\(key).\(index)")))
            }
            return objects
        default: throw wrongType(key)
        }
    }

    /// The field's value; nil when absent.
    private func value(_ key: String) throws(StateFileProblem) -> JSONValue? {
        var found: JSONValue?
        for (name, value) in members where name == key {
            guard found == nil else { throw StateFileProblem(reason: "the key \"\(place(key))\" appears twice") }
            found = value
        }
        return found
    }

    private func place(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

    private func missing(_ key: String) -> StateFileProblem {
        StateFileProblem(reason: "the key \"\(place(key))\" is missing")
    }

    private func wrongType(_ key: String) -> StateFileProblem {
        StateFileProblem(reason: "\(place(key)) has the wrong type")
    }
}
