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

    /// The results in a format. `colored` applies to text only; `quiet` leaves out text's `FILE: ok` lines and summary.
    public func formatted(_ format: LintOutputFormat, colored: Bool = false, quiet: Bool = false) -> String {
        switch format {
        case .text: text(colored: colored, quiet: quiet)
        case .json: json.text
        case .sarif: sarif.text
        case .github: github
        }
    }

    // MARK: text

    private func text(colored: Bool, quiet: Bool) -> String {
        // One string grown in place: the report of a large repository runs to megabytes.
        var output = ""
        func newLine() {
            if !output.isEmpty { output += "\n" }
        }
        for report in reports {
            for diagnostic in report.diagnostics {
                newLine()
                diagnostic.render(file: report.path, source: report.source, colored: colored, to: &output)
            }
            if report.diagnostics.isEmpty, !quiet {
                newLine()
                output.appendVisible(report.path)
                output += ": ok"
            }
        }
        if !quiet {
            newLine()
            output += summary
        }
        return output
    }

    /// `checked 9 files: 1 error, 0 warnings, 2 notes`.
    public var summary: String {
        let tally = [(Severity.error, "error"), (.warning, "warning"), (.note, "note")].map { severity, word in
            Self.counted(count(severity), word)
        }
        return "checked \(Self.counted(reports.count, "file")): \(tally.joined(separator: ", "))"
    }

    /// `1 error`, `2 errors`.
    private static func counted(_ count: Int, _ word: String) -> String { "\(count) \(word)\(count == 1 ? "" : "s")" }

    // MARK: json

    /// `{"files": [{"path", "diagnostics": [{"code", "severity", "message", "line", "column", "end-line",
    /// "end-column", "fix-it", "notes"}]}], "summary": {"files", "errors", "warnings", "notes"}}`.
    public var json: JSONValue {
        func position(_ range: SourceRange) -> [(String, JSONValue)] {
            [("line", .int(range.start.line)), ("column", .int(range.start.column)),
             ("end-line", .int(range.end.line)), ("end-column", .int(range.end.column))]
        }
        let files = reports.map { report -> JSONValue in
            .object([("path", .string(report.path)), ("diagnostics", .array(report.diagnostics.map { diagnostic in
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
        return .object([("files", .array(files)), ("summary", .object([
            ("files", .int(reports.count)), ("errors", .int(count(.error))), ("warnings", .int(count(.warning))),
            ("notes", .int(count(.note))),
        ]))])
    }

    // MARK: sarif

    /// SARIF 2.1.0: one run of the tool `policy-lint`, whose rules are its checks and every other code that
    /// appears, and one result per diagnostic with its physical location, related locations for its notes and a
    /// fix for its fix-it. Columns count Unicode code points, as the run's `columnKind` says.
    public var sarif: JSONValue {
        var ruleIDs = LintCheck.all.map(\.code)
        for report in reports {
            for diagnostic in report.diagnostics where !ruleIDs.contains(diagnostic.code) { ruleIDs.append(diagnostic.code) }
        }
        let rules = ruleIDs.map { code -> JSONValue in
            let check = LintCheck.named(code)
            var rule: [(String, JSONValue)] = [("id", .string(code.rawValue)), ("name", .string(Self.ruleName(code))),
                ("shortDescription", .object([("text", .string(check?.summary ?? Self.words(code)))]))]
            if let check {
                rule.append(("defaultConfiguration", .object([("level", .string(Self.level(check.severity)))])))
            }
            return .object(rule)
        }
        let results = reports.flatMap { report in
            // Percent-encoding a path costs some 38,000 instructions: once per file, not per diagnostic and note.
            let reportURI = Self.uri(report.path)
            return report.diagnostics.map { diagnostic -> JSONValue in
                var result: [(String, JSONValue)] = [
                    ("ruleId", .string(diagnostic.code.rawValue)),
                    ("ruleIndex", .int(ruleIDs.firstIndex(of: diagnostic.code) ?? 0)),
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
                return .object(result)
            }
        }
        return .object([
            ("$schema", .string("https://json.schemastore.org/sarif-2.1.0.json")),
            ("version", .string("2.1.0")),
            ("runs", .array([.object([
                ("tool", .object([("driver", .object([
                    ("name", .string("policy-lint")),
                    ("fullName", .string("policy-lint (LaunchPolicy)")),
                    ("rules", .array(rules)),
                ]))])),
                ("columnKind", .string("unicodeCodePoints")),
                ("results", .array(results)),
            ])])),
        ])
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
    /// `::warning …` and `::notice …`, with GitHub's escapes. Notes and fix-its are added to the message.
    public var github: String {
        // One string grown in place, each text escaped as it is appended: `replacingOccurrences(of:with:)`, five
        // times for each of six properties and three for the message, cost about 600,000 instructions a diagnostic
        // on Linux, in the format CI runs by default.
        var output = ""
        for report in reports {
            for diagnostic in report.diagnostics {
                if !output.isEmpty { output += "\n" }
                let command = switch diagnostic.severity {
                case .error: "::error "
                case .warning: "::warning "
                case .note: "::notice "
                }
                output += command
                let range = diagnostic.range
                let properties = [
                    ("file", report.path), ("line", String(range.start.line)), ("col", String(range.start.column)),
                    ("endLine", String(range.end.line)), ("endColumn", String(range.end.column)),
                    ("title", diagnostic.code.rawValue),
                ]
                for (index, (name, value)) in properties.enumerated() {
                    if index > 0 { output += "," }
                    output += name
                    output += "="
                    Self.escape(value, property: true, to: &output)
                }
                output += "::"
                Self.escape(diagnostic.message, property: false, to: &output)
                if let fixIt = diagnostic.fixIt {
                    Self.escape("\nfix-it: " + fixIt.summary, property: false, to: &output)
                }
                for note in diagnostic.notes {
                    Self.escape("\nnote: \(note.path ?? report.path):\(note.range.start): \(note.message)",
                        property: false, to: &output)
                }
            }
        }
        return output
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
