extension Diagnostic {
    /// Renders the diagnostic the way compilers do, for terminals and CI logs:
    ///
    /// ```
    /// policies/lantern.yaml:12:20: error: app-version "< 2.4.x.1" is not a valid range [policy.invalid-range]
    ///       app-version: "< 2.4.x.1"
    ///                    ^~~~~~~~~~~
    /// ```
    ///
    /// The excerpt is included when `source` is given and the range points inside it. Notes and fix-its follow on
    /// lines of their own.
    ///
    /// - Parameters:
    ///   - file: The path to print in front of the position.
    ///   - source: The bytes the diagnostic's offsets point into.
    ///   - colored: Whether to colour it with ANSI escapes, as compilers do on a terminal: the position in bold, the
    ///     severity in its colour, the caret in green.
    public func rendered(file: String, source: [UInt8]? = nil, colored: Bool = false) -> String {
        let paint = Paint(enabled: colored)
        func heading(_ path: String, _ range: SourceRange, _ label: String, _ color: String, _ text: String) -> String {
            paint(Paint.bold, "\(path):\(range.start.line):\(range.start.column):") + " " + paint(color, label + ":") + " "
                + paint(Paint.bold, text)
        }
        func excerpt(_ range: SourceRange, in source: [UInt8]) -> [String] {
            let excerpt = SourceExcerpt.lines(for: range, in: source)
            guard excerpt.count == 2 else { return excerpt }
            return [excerpt[0], paint(Paint.green, excerpt[1])]
        }
        var lines = [heading(file, range, severity.rawValue, paint.color(for: severity), "\(message) [\(code)]")]
        if let source {
            lines += excerpt(range, in: source)
        }
        if let fixIt {
            lines.append(heading(file, fixIt.range, "fix-it", Paint.green, "\(fixIt.message): replace with \(fixIt.replacement)"))
        }
        for note in notes {
            lines.append(heading(note.path ?? file, note.range, "note", Paint.cyan, note.message))
            if let source, note.path == nil {
                lines += excerpt(note.range, in: source)
            }
        }
        return lines.joined(separator: "\n")
    }
}

/// ANSI colours, or nothing when disabled.
private struct Paint {
    static let bold = "1", red = "31", green = "32", magenta = "35", cyan = "36"

    let enabled: Bool

    func callAsFunction(_ code: String, _ text: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    /// Clang's colours: errors red, warnings magenta, notes cyan.
    func color(for severity: Severity) -> String {
        switch severity {
        case .error: Self.red
        case .warning: Self.magenta
        case .note: Self.cyan
        }
    }
}


/// The source line under a range and a caret line marking the range, as compilers print them.
enum SourceExcerpt {
    /// Longest source line shown; longer lines are cut so that one huge line cannot flood a log.
    static let maximumShownScalars = 240

    static func lines(for range: SourceRange, in source: [UInt8]) -> [String] {
        let offset = range.start.offset
        guard !source.isEmpty, offset >= 0, offset <= source.count else { return [] }
        var lineStart = offset
        while lineStart > 0, source[lineStart - 1] != UInt8(ascii: "\n") { lineStart -= 1 }
        var lineEnd = offset
        while lineEnd < source.count, source[lineEnd] != UInt8(ascii: "\n"), source[lineEnd] != UInt8(ascii: "\r") {
            lineEnd += 1
        }
        // Skip a byte-order mark at the start of the input: it is invisible and columns do not count it.
        if lineStart == 0, source.starts(with: [0xEF, 0xBB, 0xBF]) { lineStart = min(3, lineEnd) }
        let text = String(decoding: source[lineStart..<lineEnd], as: UTF8.self)
        let scalars = Array(text.unicodeScalars.prefix(maximumShownScalars))
        let shown = String(String.UnicodeScalarView(scalars))

        let startColumn = max(1, range.start.column)
        var width = 1
        if range.end.line == range.start.line, range.end.column > startColumn {
            width = range.end.column - startColumn
        } else if range.end.line > range.start.line {
            width = max(1, scalars.count - (startColumn - 1))
        }
        var caret = ""
        for index in 0..<(startColumn - 1) {
            // Keep tabs so that the caret lines up under the text whatever the tab width.
            caret.append(index < scalars.count && scalars[index] == "\t" ? "\t" : " ")
        }
        caret.append("^")
        if width > 1 {
            caret.append(String(repeating: "~", count: min(width - 1, maximumShownScalars)))
        }
        return [shown, caret]
    }
}
