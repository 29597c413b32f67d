import Foundation

/// How policy-lint writes its results.
public enum LintOutputFormat: String, CaseIterable, Sendable {
    /// `FILE:LINE:COL: SEVERITY: MESSAGE [CODE]`, the source line and a caret, as compilers print; for people.
    case text
    /// One JSON object: every file's diagnostics and a summary; for scripts.
    case json
    /// SARIF 2.1.0, for code scanning (GitHub, Azure DevOps, editors).
    case sarif
    /// GitHub Actions workflow commands (`::error file=…,line=…,col=…,title=CODE::message`), which annotate the
    /// lines of a pull request.
    case github
}

/// Writes policy-lint's output a report at a time, in any ``LintOutputFormat``, as the reports are made: what
/// `policy-lint` prints, each line ending in a line break.
///
/// The writer keeps no report, so that a run over a large repository need not hold every file's source and
/// diagnostics until the last file is checked: text, GitHub's commands and JSON are written report by report. SARIF lists its rules before its results, and its rules name every code that appears, so its results are
/// kept as JSON text (not reports) until ``finish(to:)``; past ``maximumSARIFResults`` it keeps the most severe.
public struct LintOutputWriter: Sendable {
    /// The format written.
    public let format: LintOutputFormat
    /// Whether text is coloured with ANSI escapes.
    public let colored: Bool
    /// Whether text leaves out `FILE: ok` lines and the summary, and GitHub's commands the summary.
    public let quiet: Bool
    /// How many reports were written.
    public private(set) var files = 0
    private var errors = 0
    private var warnings = 0
    private var notes = 0
    /// SARIF's rules: every check, then every other code in the order it first appears.
    private var ruleIDs = LintCheck.all.map(\.code)
    /// SARIF's results so far that may be kept, as JSON text, one after another with nothing between them: a result
    /// that ``maximumSARIFResults`` results as severe or more came before is left out whatever follows, and is not
    /// kept here, so that no more than three times the limit are held (each severity's first).
    private var sarifResults: [UInt8] = []
    /// Where each result in ``sarifResults`` ends, and its severity, to choose which to keep past the limit.
    private var sarifEnds: [(end: Int, severity: Severity)] = []
    /// How many results SARIF has found of each severity, kept or not: errors, warnings, notes.
    private var sarifFound = [0, 0, 0]
    /// The most results a SARIF run holds: ``defaultMaximumSARIFResults`` unless the writer was made with another.
    public let maximumSARIFResults: Int

    /// The most results GitHub code scanning takes in one run: it rejects a SARIF file with more ("SARIF results
    /// exceed hard limit"), so that a repository with that many findings would have no code scanning results at all.
    public static let defaultMaximumSARIFResults = 25_000

    /// What is written, in pieces of about this many bytes (a report with many diagnostics is not one string).
    private static let pieceSize = 1 << 16

    /// A writer of `format`; `colored` and `quiet` as ``LintResults/formatted(_:colored:quiet:)`` takes them.
    /// SARIF keeps the `maximumSARIFResults` most severe results (the errors, then the warnings, then the notes,
    /// each in the order found), in the order found, and says in the run's invocation how many it left out.
    public init(format: LintOutputFormat, colored: Bool = false, quiet: Bool = false,
        maximumSARIFResults: Int = defaultMaximumSARIFResults)
    {
        self.format = format
        self.colored = colored
        self.quiet = quiet
        self.maximumSARIFResults = max(maximumSARIFResults, 0)
    }

    /// How many diagnostics of a severity the reports written so far have.
    public func count(_ severity: Severity) -> Int {
        switch severity {
        case .error: errors
        case .warning: warnings
        case .note: notes
        }
    }

    /// `checked 9 files: 1 error, 0 warnings, 2 notes`, of the reports written so far.
    public var summary: String {
        func counted(_ count: Int, _ word: String) -> String { "\(count) \(word)\(count == 1 ? "" : "s")" }
        return "checked \(counted(files, "file")): \(counted(errors, "error")), \(counted(warnings, "warning")), "
            + counted(notes, "note")
    }

    /// Writes what `report` adds to the output.
    public mutating func write(_ report: LintReport, to output: inout some TextOutputStream) {
        for diagnostic in report.diagnostics {
            switch diagnostic.severity {
            case .error: errors += 1
            case .warning: warnings += 1
            case .note: notes += 1
            }
        }
        defer { files += 1 }
        switch format {
        case .text: writeText(report, to: &output)
        case .github: writeGitHub(report, to: &output)
        case .json:
            output.write(files == 0 ? #"{"files": ["# : ", ")
            Self.fileJSON(report).write(inPiecesOf: Self.pieceSize) { piece in
                output.write(String(decoding: piece, as: UTF8.self))
            }
        case .sarif: addSARIFResults(report)
        }
    }

    /// Writes the end of the output: text's and GitHub's summary line (unless quiet), the rest of a JSON or SARIF
    /// document.
    public mutating func finish(to output: inout some TextOutputStream) {
        switch format {
        case .text, .github:
            if !quiet { output.write(summary + "\n") }
        case .json:
            let summary = JSONValue.object([("files", .int(files)), ("errors", .int(errors)),
                ("warnings", .int(warnings)), ("notes", .int(notes))])
            output.write((files == 0 ? #"{"files": ["# : "") + #"], "summary": "# + summary.text + "}\n")
        case .sarif:
            let kept = keptSARIFResults()
            output.write(#"{"$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0", "runs": "#
                + #"[{"tool": "# + sarifTool.text)
            if kept != nil { output.write(#", "invocations": "# + sarifInvocations().text) }
            output.write(#", "columnKind": "unicodeCodePoints", "results": ["#)
            // Written a piece at a time, each piece whole results, about 64 KiB.
            var piece: [UInt8] = []
            var start = 0
            var first = true
            for (index, result) in sarifEnds.enumerated() {
                defer { start = result.end }
                if let kept, !kept[index] { continue }
                if piece.count >= Self.pieceSize {
                    output.write(String(decoding: piece, as: UTF8.self))
                    piece.removeAll(keepingCapacity: true)
                }
                if !first { piece += ", ".utf8 }
                first = false
                piece += sarifResults[start..<result.end]
            }
            output.write(String(decoding: piece, as: UTF8.self))
            sarifResults = []
            sarifEnds = []
            output.write("]}]}\n")
        }
    }

    /// Writes `text` to `output` and empties it once it holds a piece's worth: text and GitHub's commands are made a
    /// diagnostic at a time into one string, handed on in pieces.
    private static func handOnIfFull(_ text: inout String, to output: inout some TextOutputStream) {
        guard text.utf8.count >= pieceSize else { return }
        output.write(text)
        text = ""
    }

    // MARK: text

    /// Each diagnostic as compilers print it, or `FILE: ok`.
    private func writeText(_ report: LintReport, to output: inout some TextOutputStream) {
        var text = ""
        for diagnostic in report.diagnostics {
            diagnostic.render(file: report.path, source: report.source, colored: colored, to: &text)
            text += "\n"
            Self.handOnIfFull(&text, to: &output)
        }
        if report.diagnostics.isEmpty, !quiet {
            text.appendVisible(report.path)
            text += ": ok\n"
        }
        output.write(text)
    }

    // MARK: json

    /// `{"path", "diagnostics": [{"code", "severity", "message", "line", "column", "end-line", "end-column",
    /// "fix-it", "notes"}]}`, one item of the document's `files`; the document ends with `"summary": {"files",
    /// "errors", "warnings", "notes"}`.
    private static func fileJSON(_ report: LintReport) -> JSONValue {
        func position(_ range: SourceRange) -> [(String, JSONValue)] {
            [("line", .int(range.start.line)), ("column", .int(range.start.column)),
             ("end-line", .int(range.end.line)), ("end-column", .int(range.end.column))]
        }
        return .object([("path", .string(report.path)), ("diagnostics", .array(report.diagnostics.map { diagnostic in
            .object([("code", .string(diagnostic.code.rawValue)), ("severity", .string(diagnostic.severity.rawValue)),
                ("message", .string(diagnostic.message))] + position(diagnostic.range) + [
                ("fix-it", diagnostic.fixIt.map { fixIt in
                    .object([("message", .string(fixIt.message)), ("replacement", .string(fixIt.replacement))]
                        + position(fixIt.range))
                } ?? .null),
                ("notes", .array(diagnostic.notes.map { note in
                    .object([("message", .string(note.message)), ("path", .string(note.path ?? report.path))]
                        + position(note.range))
                })),
            ])
        }))])
    }

    // MARK: sarif

    /// SARIF 2.1.0: one run of the tool `policy-lint`, whose rules are its checks and every other code that
    /// appears, and one result per diagnostic with its physical location, related locations for its notes and a
    /// fix for its fix-it. Columns count Unicode code points, as the run's `columnKind` says.
    private var sarifTool: JSONValue {
        let rules = ruleIDs.map { code -> JSONValue in
            let check = LintCheck.named(code)
            var rule: [(String, JSONValue)] = [("id", .string(code.rawValue)), ("name", .string(Self.ruleName(code))),
                ("shortDescription", .object([("text", .string(check?.summary ?? Self.words(code)))]))]
            if let check {
                rule.append(("defaultConfiguration", .object([("level", .string(Self.level(check.severity)))])))
            }
            return .object(rule)
        }
        return .object([("driver", .object([
            ("name", .string("policy-lint")),
            ("fullName", .string("policy-lint (LaunchPolicy)")),
            ("rules", .array(rules)),
        ]))])
    }

    /// Whether SARIF keeps each result, by its index; nil when it keeps every one, as there are no more than
    /// ``maximumSARIFResults``. Otherwise the most severe are kept: every error, warning and note while room is left,
    /// in that order, the first found of each severity first.
    private func keptSARIFResults() -> [Bool]? {
        guard sarifFound.reduce(0, +) > maximumSARIFResults else { return nil }
        // Room for each severity, the more severe first; those held of a severity are the first found of it.
        var room = sarifFound
        var left = maximumSARIFResults
        for rank in room.indices {
            room[rank] = min(room[rank], left)
            left -= room[rank]
        }
        return sarifEnds.map { result in
            let rank = Self.rank(result.severity)
            room[rank] -= 1
            return room[rank] >= 0
        }
    }

    /// 0 for an error, 1 for a warning, 2 for a note: the order in which SARIF keeps results past its limit.
    private static func rank(_ severity: Severity) -> Int {
        switch severity {
        case .error: 0
        case .warning: 1
        case .note: 2
        }
    }

    /// The run's invocation when results were left out, saying how many, as a tool execution notification.
    private func sarifInvocations() -> JSONValue {
        let found = sarifFound.reduce(0, +)
        let text = "policy-lint found \(found) results and leaves out \(found - maximumSARIFResults) of the least "
            + "severe (of each severity, the last found), as GitHub code scanning rejects a run of more than "
            + "\(maximumSARIFResults). The text, JSON and GitHub formats list every one."
        return .array([.object([
            ("executionSuccessful", .bool(true)),
            ("toolExecutionNotifications", .array([.object([
                ("level", .string("warning")), ("message", .object([("text", .string(text))])),
            ])])),
        ])])
    }

    /// Adds a result for each of the report's diagnostics to ``sarifResults``.
    private mutating func addSARIFResults(_ report: LintReport) {
        // Percent-encoding a path costs some 38,000 instructions: once per file, not per diagnostic and note.
        let reportURI = Self.uri(report.path)
        for diagnostic in report.diagnostics {
            let ruleIndex = ruleIDs.firstIndex(of: diagnostic.code) ?? {
                ruleIDs.append(diagnostic.code)
                return ruleIDs.count - 1
            }()
            // Left out whatever follows when as many as the limit, as severe or more, came before it.
            let rank = Self.rank(diagnostic.severity)
            let ahead = sarifFound[...rank].reduce(0, +)
            sarifFound[rank] += 1
            guard ahead < maximumSARIFResults else { continue }
            var result: [(String, JSONValue)] = [
                ("ruleId", .string(diagnostic.code.rawValue)),
                ("ruleIndex", .int(ruleIndex)),
                ("level", .string(Self.level(diagnostic.severity))),
                ("message", .object([("text", .string(diagnostic.message))])),
                ("locations", .array([.object([("physicalLocation", Self.location(reportURI, diagnostic.range))])])),
            ]
            if !diagnostic.notes.isEmpty {
                result.append(("relatedLocations", .array(diagnostic.notes.enumerated().map { index, note in
                    .object([("id", .int(index)), ("message", .object([("text", .string(note.message))])),
                        ("physicalLocation", Self.location(note.path.map(Self.uri) ?? reportURI, note.range))])
                })))
            }
            if let fixIt = diagnostic.fixIt {
                result.append(("fixes", .array([.object([
                    ("description", .object([("text", .string(fixIt.message))])),
                    ("artifactChanges", .array([.object([
                        ("artifactLocation", .object([("uri", .string(reportURI))])),
                        ("replacements", .array([.object([
                            ("deletedRegion", Self.region(fixIt.range)),
                            ("insertedContent", .object([("text", .string(fixIt.replacement))])),
                        ])])),
                    ])])),
                ])])))
            }
            JSONValue.object(result).appendText(to: &sarifResults)
            sarifEnds.append((sarifResults.count, diagnostic.severity))
        }
    }

    private static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .note: "note"
        }
    }

    /// A physical location: the file's URI (``uri(_:)``) and the region.
    private static func location(_ uri: String, _ range: SourceRange) -> JSONValue {
        .object([("artifactLocation", .object([("uri", .string(uri))])), ("region", region(range))])
    }

    private static func region(_ range: SourceRange) -> JSONValue {
        .object([("startLine", .int(range.start.line)), ("startColumn", .int(range.start.column)),
            ("endLine", .int(range.end.line)), ("endColumn", .int(range.end.column))])
    }

    /// A relative path stays relative (code scanning resolves it against the repository); an absolute one becomes a
    /// `file:` URI.
    private static func uri(_ path: String) -> String {
        let encoded = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
        return path.hasPrefix("/") ? "file://" + encoded : encoded
    }

    /// `policy.unknown-key` → `PolicyUnknownKey`, the PascalCase name SARIF suggests for rules.
    private static func ruleName(_ code: DiagnosticCode) -> String {
        code.rawValue.split(whereSeparator: { $0 == "." || $0 == "-" }).map { $0.prefix(1).uppercased() + $0.dropFirst() }
            .joined()
    }

    /// `policy.unknown-key` → `Policy: unknown key`, for codes without a written summary.
    private static func words(_ code: DiagnosticCode) -> String {
        let parts = code.rawValue.split(separator: ".", maxSplits: 1)
        guard parts.count == 2 else { return code.rawValue }
        return parts[0].prefix(1).uppercased() + parts[0].dropFirst() + ": " + parts[1].replacingOccurrences(of: "-", with: " ")
    }

    // MARK: github

    /// One workflow command per diagnostic: `::error file=F,line=L,col=C,endLine=…,endColumn=…,title=CODE::message`,
    /// `::warning …` and `::notice …`, with GitHub's escapes. Notes and fix-its are added to the message. The summary
    /// line follows them all, as annotations do not show in the log.
    private func writeGitHub(_ report: LintReport, to output: inout some TextOutputStream) {
        // One string grown in place, each text escaped as it is appended: `replacingOccurrences(of:with:)`, five
        // times for each of six properties and three for the message, cost about 600,000 instructions a diagnostic
        // on Linux, in the format CI runs by default.
        var text = ""
        for diagnostic in report.diagnostics {
            let command = switch diagnostic.severity {
            case .error: "::error "
            case .warning: "::warning "
            case .note: "::notice "
            }
            text += command
            let range = diagnostic.range
            let properties = [
                ("file", report.path), ("line", String(range.start.line)), ("col", String(range.start.column)),
                ("endLine", String(range.end.line)), ("endColumn", String(range.end.column)),
                ("title", diagnostic.code.rawValue),
            ]
            for (index, (name, value)) in properties.enumerated() {
                if index > 0 { text += "," }
                text += name
                text += "="
                Self.escape(value, property: true, to: &text)
            }
            text += "::"
            Self.escape(diagnostic.message, property: false, to: &text)
            if let fixIt = diagnostic.fixIt {
                Self.escape("\nfix-it: " + fixIt.summary, property: false, to: &text)
            }
            for note in diagnostic.notes {
                Self.escape("\nnote: \(note.path ?? report.path):\(note.range.start): \(note.message)",
                    property: false, to: &text)
            }
            text += "\n"
            Self.handOnIfFull(&text, to: &output)
        }
        output.write(text)
    }

    /// Appends `text` with GitHub's escapes for a workflow command's message: `%`, CR and LF as `%25`, `%0D` and
    /// `%0A`; in a property's value also `:` and `,` as `%3A` and `%2C`. Other characters a log would act on (ESC,
    /// which GitHub's log reads colours from) are shown as ``TerminalText`` shows them.
    private static func escape(_ text: String, property: Bool, to output: inout String) {
        output.append(text) { scalar in
            switch scalar {
            case "%": "%25"
            case "\r": "%0D"
            case "\n": "%0A"
            case ":" where property: "%3A"
            case "," where property: "%2C"
            default: String.visibleStandIn(for: scalar)
            }
        }
    }
}

/// The results of linting a set of files, written in each ``LintOutputFormat``.
public struct LintResults: Sendable {
    /// One report per file, in the order linted.
    public var reports: [LintReport]

    /// Wraps reports.
    public init(reports: [LintReport]) {
        self.reports = reports
    }

    /// How many diagnostics there are of a severity.
    public func count(_ severity: Severity) -> Int {
        reports.reduce(0) { $0 + $1.diagnostics.count { $0.severity == severity } }
    }

    /// What ``LintOutputWriter`` writes of the reports, without the last line break: `policy-lint`'s output.
    /// `colored` applies to text only; `quiet` leaves out text's `FILE: ok` lines and the summary of text and GitHub's
    /// commands.
    public func formatted(_ format: LintOutputFormat, colored: Bool = false, quiet: Bool = false) -> String {
        var writer = LintOutputWriter(format: format, colored: colored, quiet: quiet)
        var output = ""
        for report in reports { writer.write(report, to: &output) }
        writer.finish(to: &output)
        if output.utf8.last == UInt8(ascii: "\n") { output.unicodeScalars.removeLast() }
        return output
    }
}
