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
        var output = ""
        render(file: file, source: source, colored: colored, to: &output)
        return output
    }

    /// Appends ``rendered(file:source:colored:)`` to `output`. One string grown in place: a string for each piece of
    /// each line, joined per diagnostic, cost about 42,000 instructions a diagnostic, and policy-lint renders
    /// thousands over a large repository.
    func render(file: String, source: [UInt8]?, colored: Bool, to output: inout String) {
        let paint = Paint(enabled: colored)
        var lineBegun = false
        func newLine() {
            if lineBegun { output += "\n" }
            lineBegun = true
        }
        func heading(_ path: String, _ range: SourceRange, _ label: String, _ color: String, _ text: String,
            code: DiagnosticCode? = nil)
        {
            // What a file, a server or a path gave is shown visibly (``TerminalText``): a diagnostic is one line,
            // and a file cannot send a terminal escape sequences.
            newLine()
            paint.begin(Paint.bold, &output)
            output.appendVisible(path)
            output += ":"
            output += String(range.start.line)
            output += ":"
            output += String(range.start.column)
            output += ":"
            paint.end(&output)
            output += " "
            paint.begin(color, &output)
            output += label
            output += ":"
            paint.end(&output)
            output += " "
            paint.begin(Paint.bold, &output)
            output.appendVisible(text)
            if let code {
                output += " ["
                output += code.rawValue
                output += "]"
            }
            paint.end(&output)
        }
        func excerpt(_ range: SourceRange) {
            guard let source, let excerpt = SourceExcerpt(for: range, in: source) else { return }
            newLine()
            // One visible character for each hidden one, so that the caret stays under its column.
            output.appendVisible(excerpt.line)
            newLine()
            paint.begin(Paint.green, &output)
            output += excerpt.caret
            paint.end(&output)
        }
        heading(file, range, severity.rawValue, paint.color(for: severity), message, code: code)
        excerpt(range)
        if let fixIt {
            heading(file, fixIt.range, "fix-it", Paint.green, fixIt.summary)
        }
        for note in notes {
            heading(note.path ?? file, note.range, "note", Paint.cyan, note.message)
            if note.path == nil { excerpt(note.range) }
        }
    }
}

/// ANSI colours, or nothing when disabled.
private struct Paint {
    static let bold = "1", red = "31", green = "32", magenta = "35", cyan = "36"

    let enabled: Bool

    /// Starts colouring what is appended next.
    func begin(_ code: String, _ output: inout String) {
        guard enabled else { return }
        output += "\u{1B}["
        output += code
        output += "m"
    }

    /// Ends the colouring ``begin(_:_:)`` started.
    func end(_ output: inout String) {
        if enabled { output += "\u{1B}[0m" }
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
struct SourceExcerpt {
    /// Longest source line shown; longer lines are cut so that one huge line cannot flood a log.
    static let maximumShownScalars = 240
    /// How much of a cut line is shown before a range that starts past ``maximumShownScalars``.
    static let shownBeforeRange = 80
    /// What stands for the part of a line left out before the part shown.
    static let cutMark = "..."

    /// The line, cut to ``maximumShownScalars``; when the range starts past that, the part around it, after
    /// ``cutMark``.
    let line: String
    /// Spaces (tabs under tabs, so that it lines up whatever the tab width) up to the range's column, a caret, and a
    /// tilde under each further column of the range on its line.
    let caret: String

    /// The excerpt for `range`; nil when it does not point inside `source`.
    ///
    /// Only the part shown is walked: from the position back to the line's start, or to ``shownBeforeRange``
    /// scalars before it, and on to the end of the part. A minified JSON file is one line, and walking all of it for
    /// each of thousands of diagnostics took longer than the lint.
    init?(for range: SourceRange, in source: [UInt8]) {
        let offset = range.start.offset
        guard !source.isEmpty, offset >= 0, offset <= source.count else { return nil }
        let lineFeed = UInt8(ascii: "\n"), carriageReturn = UInt8(ascii: "\r")
        let startColumn = max(1, range.start.column)
        // A range that starts past what a cut line shows (the limit's error in a file of one long line) is shown in
        // the part of the line around it, not under a million spaces.
        let skipped = startColumn > Self.maximumShownScalars ? startColumn - 1 - Self.shownBeforeRange : 0
        var shownStart = offset
        if skipped > 0 {
            var back = 0
            while back < Self.shownBeforeRange, shownStart > 0, source[shownStart - 1] != lineFeed,
                source[shownStart - 1] != carriageReturn
            {
                shownStart -= 1
                if !source[shownStart].isUTF8Continuation { back += 1 }
            }
        } else {
            // Lines break at LF, CR and CR LF, as positions count them (`SourceMap.lineBreakLength`).
            while shownStart > 0, source[shownStart - 1] != lineFeed, source[shownStart - 1] != carriageReturn {
                shownStart -= 1
            }
            // Skip a byte-order mark at the start of the input: it is invisible and columns do not count it.
            if shownStart == 0, source.starts(with: [0xEF, 0xBB, 0xBF]) { shownStart = 3 }
        }
        // Columns count Unicode scalars: the part shown is walked by scalar, in place.
        var shownEnd = shownStart
        var shownCount = 0
        while shownEnd < source.count, source[shownEnd] != lineFeed, source[shownEnd] != carriageReturn,
            shownCount < Self.maximumShownScalars
        {
            shownEnd += 1
            while shownEnd < source.count, source[shownEnd].isUTF8Continuation { shownEnd += 1 }
            shownCount += 1
        }
        let text = String(decoding: source[shownStart..<shownEnd], as: UTF8.self)
        let scalars = text.unicodeScalars
        line = skipped > 0 ? Self.cutMark + text : text

        // How many of the line's characters the range covers, each as wide as a terminal shows it
        // (`TerminalText.columns(of:)`): a Japanese text under a range is underlined whole, and the caret after one
        // stands under its column.
        var covered = 1
        if range.end.line == range.start.line, range.end.column > startColumn {
            covered = range.end.column - startColumn
        } else if range.end.line > range.start.line {
            covered = max(1, skipped + shownCount - (startColumn - 1))
        }
        var caret: [UInt8] = skipped > 0 ? Array(repeating: UInt8(ascii: " "), count: Self.cutMark.utf8.count) : []
        caret.reserveCapacity(caret.count + startColumn - skipped + min(covered - 1, Self.maximumShownScalars))
        var index = scalars.startIndex
        for _ in (skipped + 1)..<startColumn {
            if index < scalars.endIndex {
                let scalar = scalars[index]
                if scalar == "\t" {
                    caret.append(UInt8(ascii: "\t"))
                } else {
                    caret.append(contentsOf: repeatElement(UInt8(ascii: " "), count: TerminalText.columns(of: scalar)))
                }
                scalars.formIndex(after: &index)
            } else {
                caret.append(UInt8(ascii: " "))
            }
        }
        var width = 0
        for _ in 0..<min(covered, Self.maximumShownScalars) {
            guard index < scalars.endIndex else {
                width += 1
                continue
            }
            width += TerminalText.columns(of: scalars[index])
            scalars.formIndex(after: &index)
        }
        caret.append(UInt8(ascii: "^"))
        if width > 1 { caret.append(contentsOf: repeatElement(UInt8(ascii: "~"), count: width - 1)) }
        self.caret = String(decoding: caret, as: UTF8.self)
    }
}
