/// The `# policy-lint: disable=CODE[,CODE…]` comments of a file. A comment turns the codes off on its own line and on
/// the line after it, so it can sit at the end of the line it is about or on a line of its own above it:
///
/// ```yaml
///   # policy-lint: disable=lint.lockout
///   - id: kill-switch
///     then: block   # policy-lint: disable=lint.missing-update-url
/// ```
///
/// As in `.policy-lint.yaml`, an error of the reader or the decoder cannot be turned off. A comment is found by a
/// scan of the bytes (libyaml does not report comments): `#` at the start of a line or after a space or tab, as YAML
/// requires of a comment.
struct InlineDirectives {
    /// The marker that starts a directive.
    static let marker = "policy-lint:"

    /// Codes turned off, by the line of the comment.
    private var disabledByLine: [Int: Set<DiagnosticCode>] = [:]
    /// Directives that cannot be used as written.
    private(set) var problems: [Diagnostic] = []

    init(source: [UInt8]) {
        var lineNumber = 0
        for line in source.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            // Cheap test first: most lines have no directive.
            guard line.contains(UInt8(ascii: "#")) else { continue }
            let text = String(decoding: line, as: UTF8.self)
            guard text.contains(Self.marker) else { continue }
            var search = text.startIndex
            while let hash = text[search...].firstIndex(of: "#") {
                search = text.index(after: hash)
                let before = hash == text.startIndex ? nil : text[text.index(before: hash)]
                guard before == nil || before == " " || before == "\t" else { continue }
                let comment = text[search...].drop { $0 == " " || $0 == "\t" }
                guard comment.hasPrefix(Self.marker) else { continue }
                let column = text[..<comment.startIndex].unicodeScalars.count + 1
                let offset = source.startIndex.distance(to: line.startIndex) + text[..<comment.startIndex].utf8.count
                read(comment.dropFirst(Self.marker.count), line: lineNumber, column: column, offset: offset,
                    length: comment.unicodeScalars.count)
                break
            }
        }
    }

    private mutating func read(_ directive: Substring, line: Int, column: Int, offset: Int, length: Int) {
        let location = SourceLocation(line: line, column: column, offset: offset)
        let range = SourceRange(start: location, end: SourceLocation(
            line: line, column: column + length, offset: offset + directive.utf8.count + Self.marker.utf8.count))
        let words = directive.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
        guard let first = words.first, first.hasPrefix("disable=") else {
            problems.append(.error(.lintInvalidConfiguration,
                "a policy-lint comment reads \"policy-lint: disable=CODE\", with codes separated by commas",
                at: range))
            return
        }
        // `disable=a, b` is forgiven: the words after the first continue the list while they start with a code.
        var listed = String(first.dropFirst("disable=".count))
        for word in words.dropFirst() where listed.hasSuffix(",") || word.hasPrefix(",") { listed += word }
        var support = DecodingSupport()
        for code in listed.split(separator: ",") where !code.isEmpty {
            if let checked = LintConfiguration.checkedCode(Located(String(code), range: range), &support) {
                disabledByLine[line, default: []].insert(checked)
            }
        }
        if listed.split(separator: ",").isEmpty {
            support.error(.lintInvalidConfiguration, "disable= names no code", at: range)
        }
        problems += support.diagnostics
    }

    /// The diagnostics without those a directive turns off.
    func applied(to diagnostics: [Diagnostic]) -> [Diagnostic] {
        guard !disabledByLine.isEmpty else { return diagnostics }
        return diagnostics.filter { diagnostic in
            if diagnostic.severity == .error, LintCheck.named(diagnostic.code) == nil { return true }
            let line = diagnostic.range.start.line
            let disabled = (disabledByLine[line] ?? []).union(disabledByLine[line - 1] ?? [])
            return !disabled.contains(diagnostic.code)
        }
    }
}
