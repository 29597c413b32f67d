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
    public func rendered(file: String, source: [UInt8]? = nil) -> String {
        var lines = ["\(file):\(range.start.line):\(range.start.column): \(severity.rawValue): \(message) [\(code)]"]
        if let source {
            lines += SourceExcerpt.lines(for: range, in: source)
        }
        if let fixIt {
            lines.append("\(file):\(fixIt.range.start.line):\(fixIt.range.start.column): fix-it: \(fixIt.message): "
                + "replace with \(fixIt.replacement)")
        }
        for note in notes {
            lines.append("\(note.path ?? file):\(note.range.start.line):\(note.range.start.column): note: \(note.message)")
            if let source, note.path == nil {
                lines += SourceExcerpt.lines(for: note.range, in: source)
            }
        }
        return lines.joined(separator: "\n")
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
