import Foundation

/// A state file's contents that carry a format number, checked before anything else is trusted.
package protocol VersionedStateFile: Codable {
    var format: Int { get }
}

/// Why a state file could not be read, in words.
package struct StateFileProblem: Error {
    package let reason: String

    package init(reason: String) { self.reason = reason }
}

/// The JSON state files the library keeps — what was shown, the launch history — written and read one way: sorted,
/// indented JSON with ISO 8601 dates, a `format` number, and problems said in words rather than as decoder dumps.
package enum StateFile {
    /// The format every state file is written in, and the only one read.
    package static let currentFormat = 1

    package static func encode(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value) + Data("\n".utf8)
    }

    package static func decode<File: VersionedStateFile>(_ type: File.Type, from data: Data) throws(StateFileProblem) -> File {
        guard !data.isEmpty else { throw StateFileProblem(reason: "it is empty") }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: data)
        } catch let error as DecodingError {
            throw StateFileProblem(reason: describe(error))
        } catch {
            throw StateFileProblem(reason: String(describing: error))
        }
        guard file.format == currentFormat else {
            throw StateFileProblem(reason: "it has format \(file.format); this version of LaunchPolicy reads format \(currentFormat)")
        }
        return file
    }

    /// A date written by ``Timestamp``.
    package static func date(_ text: String, _ field: String) throws(StateFileProblem) -> Date {
        guard case .success(let date) = ValueSyntax.date(text) else {
            throw StateFileProblem(reason: "\(field) \"\(text)\" is not an ISO 8601 date and time")
        }
        return date
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            let parent = path(context)
            return "the key \"\(parent.isEmpty ? "" : parent + ".")\(key.stringValue)\" is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            let at = path(context)
            return at.isEmpty ? "it is not a JSON object of the expected shape" : "\(at) has the wrong type"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "it is not valid JSON (truncated?)" : "\(path(context)) is not valid"
        @unknown default:
            return String(describing: error)
        }
    }
}
