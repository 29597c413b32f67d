import Foundation

/// An installed base as rows of users who share a launch context: the input of a simulation.
///
/// Read from CSV (RFC 4180: commas, double-quoted fields with `""` for a quote; lines end with CR LF, LF or CR, as a
/// spreadsheet on a Mac may write). The header names the columns: the context keys (`platform`, `app-version`,
/// `build`, `os-version`, `locale`, `region`, `launch`, `previous-version`, `install-version`, `original-app-version`,
/// `launch-count`, `days-since-last-launch`, `days-since-install`, `launch-source`, `install-id`, `now`),
/// `attributes.NAME` for an app-defined attribute, and `users`, how many users share the row (1 when there is no such
/// column). An empty cell leaves that key unknown.
public struct Population: Sendable {
    /// One row: a context and how many users share it.
    public struct Row: Sendable {
        /// The context's values by key, as written.
        public var values: [String: ContextValue]
        /// How many users share the row: from 0 to ``Population/maximumUsers``, and all rows' together at most
        /// ``Population/maximumTotalUsers``, as ``Population/read(csv:)`` checks. A row changed in code past them is
        /// counted within them: a negative count as 0, a larger one as a billion, and past the total as what is left.
        public var users: Int
        /// The row's line in the file.
        public var line: Int
    }

    /// The rows, in file order.
    public var rows: [Row]

    /// Every user, counted as a simulation counts them (see ``Row/users``).
    public var users: Int { rows.reduce(0) { Self.adding($1.users, to: $0) } }

    /// The column a row's user count is in.
    public static let usersColumn = "users"
    /// The prefix of an attribute column (`attributes.plan`).
    public static let attributePrefix = "attributes."

    /// Reads a CSV file. Problems are positioned diagnostics (`population.*`); a row with an error is left out, so the
    /// caller decides whether a partial population is worth simulating (the CLI does not).
    public static func read(csv data: Data) -> (population: Population, diagnostics: [Diagnostic]) {
        var diagnostics = BoundedDiagnostics(limit: maximumReported, overflow: .populationTooManyProblems)
        let records = CSVRecords.parse(data, diagnostics: &diagnostics)
        guard let header = records.first else {
            diagnostics.append(.error(.populationEmpty, "the population has no header row", at: .wholeInputStart))
            return (Population(rows: []), diagnostics.list)
        }
        var columns: [(name: String, isAttribute: Bool)?] = []
        for field in header.fields {
            let name = field.text.trimmingCharacters(in: .whitespaces)
            if name == usersColumn || PolicyLanguage.contextKeys.contains(name) && name != "attributes" {
                columns.append((name, false))
            } else if name.hasPrefix(attributePrefix), name.count > attributePrefix.count {
                columns.append((String(name.dropFirst(attributePrefix.count)), true))
            } else {
                let known = PolicyLanguage.contextKeys.filter { $0 != "attributes" } + [usersColumn]
                let suggestion = DidYouMean.nearest(to: name, in: known)
                diagnostics.append(.error(.populationUnknownColumn,
                    "\"\(name)\" is not a column a population has; use the context keys, attributes.NAME and users"
                        + (suggestion.map { "; did you mean \($0)?" } ?? ""), at: field.range))
                columns.append(nil)
            }
        }
        if !header.fields.contains(where: { $0.text.trimmingCharacters(in: .whitespaces) == "platform" }) {
            diagnostics.append(.warning(.populationNoPlatform,
                "the population has no platform column, so no platform-specific rule can match", at: header.range))
        }

        var rows: [Row] = []
        var total = 0
        for record in records.dropFirst() {
            if record.fields.count == 1, record.fields[0].text.isEmpty { continue }  // a blank line
            guard record.fields.count == header.fields.count else {
                diagnostics.append(.error(.populationFieldCount,
                    "this row has \(record.fields.count) fields; the header has \(header.fields.count)", at: record.range))
                continue
            }
            var values: [String: ContextValue] = [:]
            var attributes: [String: String] = [:]
            var users = 1
            var usersRange: SourceRange?
            var valid = true
            for (column, field) in zip(columns, record.fields) {
                guard let column else { continue }
                let text = field.text.trimmingCharacters(in: .whitespaces)
                if text.isEmpty {
                    if column.name == usersColumn, !column.isAttribute {
                        diagnostics.append(.error(.populationInvalidUsers, "users is empty; write how many users share the row",
                            at: field.range))
                        valid = false
                    }
                    continue
                }
                if column.isAttribute {
                    attributes[column.name] = text
                } else if column.name == usersColumn {
                    guard text.utf8.allSatisfy({ (48...57).contains($0) }), let count = Int(text), count <= maximumUsers else {
                        diagnostics.append(.error(.populationInvalidUsers,
                            "users \"\(text)\" must be a whole number from 0 to \(maximumUsers)", at: field.range))
                        valid = false
                        continue
                    }
                    users = count
                    usersRange = field.range
                } else {
                    values[column.name] = .text(text)
                }
            }
            if !attributes.isEmpty { values["attributes"] = .map(attributes) }
            // The context is checked here, so that a bad value is reported at its cell, not mid-simulation.
            do {
                _ = try LaunchContext(values: values)
            } catch {
                let index = columns.firstIndex { $0?.name == error.key && $0?.isAttribute == false }
                diagnostics.append(.error(.populationInvalidValue, "\(error.key) \"\(error.value)\" is not valid: \(error.reason)",
                    at: index.map { record.fields[$0].range } ?? record.range))
                valid = false
            }
            guard valid else { continue }
            guard users <= maximumTotalUsers - total else {
                diagnostics.append(.error(.populationTooManyUsers,
                    "the rows' users add up to more than \(maximumTotalUsers), the most a population may have",
                    at: usersRange ?? record.range))
                continue
            }
            total += users
            rows.append(Row(values: values, users: users, line: record.range.start.line))
        }
        return (Population(rows: rows), diagnostics.list.sortedBySource())
    }

    /// The most problems a population reports; past it, one error (`population.too-many-problems`) says the rest are
    /// not. A file of 64 MiB can have a problem on each of millions of rows, each held in memory and printed.
    public static let maximumReported = 500

    /// The most users one row may stand for: a billion.
    public static let maximumUsers = 1_000_000_000

    /// The most users all rows together may stand for, so that no count of a simulation can overflow: a trillion,
    /// or `Int.max` (about 2.1 billion) where `Int` has 32 bits, as on Apple Watch.
    public static let maximumTotalUsers = Int(clamping: 1_000_000_000_000 as Int64)

    /// `total` with a row's `users` added, as a simulation counts them: the row's within 0 and ``maximumUsers``, the
    /// sum at most ``maximumTotalUsers``. A row changed in code past them is not allowed to overflow a count.
    static func adding(_ users: Int, to total: Int) -> Int {
        let row = min(max(users, 0), maximumUsers)
        return total > maximumTotalUsers - row ? maximumTotalUsers : total + row
    }
}

/// The stable codes of population files.
extension DiagnosticCode {
    /// The file has no header row.
    public static let populationEmpty: DiagnosticCode = "population.empty"
    /// A header names a column that is neither a context key, `attributes.NAME` nor `users`.
    public static let populationUnknownColumn: DiagnosticCode = "population.unknown-column"
    /// There is no `platform` column.
    public static let populationNoPlatform: DiagnosticCode = "population.no-platform"
    /// A row has more or fewer fields than the header.
    public static let populationFieldCount: DiagnosticCode = "population.field-count"
    /// `users` is not a whole number in range.
    public static let populationInvalidUsers: DiagnosticCode = "population.invalid-users"
    /// The rows' users add up to more than ``Population/maximumTotalUsers``; the row that passes it is left out.
    public static let populationTooManyUsers: DiagnosticCode = "population.too-many-users"
    /// A context value is not valid for its key (a version that is not one, an unknown platform).
    public static let populationInvalidValue: DiagnosticCode = "population.invalid-value"
    /// A quoted field is not closed, or a quote stands inside an unquoted field.
    public static let populationMalformed: DiagnosticCode = "population.malformed"
    /// More than ``Population/maximumReported`` problems: the rest are not reported.
    public static let populationTooManyProblems: DiagnosticCode = "population.too-many-problems"
}

/// RFC 4180 records with the position of every field.
enum CSVRecords {
    struct Field {
        var text: String
        var range: SourceRange
    }

    struct Record {
        var fields: [Field]
        var range: SourceRange
    }

    static func parse(_ data: Data, diagnostics: inout BoundedDiagnostics) -> [Record] {
        let bytes = [UInt8](data)
        // A spreadsheet's byte-order mark is skipped: offsets count it, columns do not, as everywhere else.
        let byteOrderMark = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var records: [Record] = []
        var fields: [Field] = []
        var field: [UInt8] = []
        var line = 1
        var column = 1
        var fieldStart = SourceLocation(line: 1, column: 1, offset: byteOrderMark)
        var recordStart = fieldStart
        var quoted = false
        var index = byteOrderMark
        func location() -> SourceLocation { SourceLocation(line: line, column: column, offset: index) }
        func endField() {
            fields.append(Field(text: String(decoding: field, as: UTF8.self), range: SourceRange(start: fieldStart, end: location())))
            field = []
        }
        func endRecord() {
            endField()
            records.append(Record(fields: fields, range: SourceRange(start: recordStart, end: location())))
            fields = []
        }
        while index < bytes.count {
            let byte = bytes[index]
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\"") {
                        field.append(byte)
                        index += 2
                        column += 2
                        continue
                    }
                    quoted = false
                } else {
                    field.append(byte)
                    // Lines break at LF, CR and CR LF, as every position counts them (`SourceMap.lineBreakLength`).
                    let crlf = byte == UInt8(ascii: "\r") && index + 1 < bytes.count
                        && bytes[index + 1] == UInt8(ascii: "\n")
                    if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") && !crlf { line += 1; column = 0 }
                }
            } else {
                switch byte {
                case UInt8(ascii: ","):
                    endField()
                    fieldStart = SourceLocation(line: line, column: column + 1, offset: index + 1)
                case UInt8(ascii: "\r") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\n"):
                    break
                case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                    // LF, CR LF, or CR alone, as a spreadsheet on a Mac may write.
                    endRecord()
                    line += 1
                    column = 0
                    fieldStart = SourceLocation(line: line, column: 1, offset: index + 1)
                    recordStart = fieldStart
                case UInt8(ascii: "\"") where field.isEmpty:
                    quoted = true
                case UInt8(ascii: "\""):
                    diagnostics.append(.error(.populationMalformed,
                        "a quote inside an unquoted field; quote the whole field and double the quote (\"\")",
                        at: SourceRange(start: location())))
                    field.append(byte)
                default:
                    field.append(byte)
                }
            }
            // Columns count Unicode scalars: a continuation byte is part of the character before it.
            if !byte.isUTF8Continuation { column += 1 }
            index += 1
        }
        if quoted {
            diagnostics.append(.error(.populationMalformed, "a quoted field is not closed before the end of the file",
                at: SourceRange(start: fieldStart)))
        }
        if !field.isEmpty || !fields.isEmpty { endRecord() }
        return records
    }
}
