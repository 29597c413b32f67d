import Foundation

/// The `# policy-lint: disable=CODE[,CODE…]` comments of a file. A comment at the end of a line turns the codes off
/// on that line; a comment on a line of its own turns them off on the line after it:
///
/// ```yaml
///   # policy-lint: disable=lint.lockout
///   - id: kill-switch
///     then: block   # policy-lint: disable=lint.missing-update-url
/// ```
///
/// As in `.policy-lint.yaml`, an error of the reader or the decoder cannot be turned off. libyaml does not report
/// comments, so they are found by a scan of the bytes: `#` at the start of a line or after a space or tab, as YAML
/// requires of a comment, and not inside a scalar the reader read (`"a # b"` holds no comment).
struct InlineDirectives {
    /// The marker that starts a directive.
    static let marker = "policy-lint:"

    /// Codes turned off, by the line they are turned off on.
    private var disabledByLine: [Int: Set<DiagnosticCode>] = [:]
    /// Directives that cannot be used as written.
    private(set) var problems: [Diagnostic] = []

    /// Finds the directives in `source`, skipping `#` inside the byte ranges of `scalars` (asked for only when a
    /// line holds a directive).
    init(source: [UInt8], scalars: @autoclosure () -> [SourceRange] = []) {
        var insideScalar: ScalarSpans?
        var lineNumber = 1
        var counted = 0  // line breaks are counted up to here, and only as far as a line that holds a directive
        // Lines break at LF, CR and CR LF, as every position the library gives counts them
        // (`SourceMap.lineBreakLength`), so that a directive turns codes off on the line a diagnostic names.
        func isBreak(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") }
        let byteOrderMark = source.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        // Most files have few comments: the bytes are searched for `#`, and only a line that holds one is looked at.
        var search = 0
        while let hash = Self.index(of: UInt8(ascii: "#"), in: source, from: search) {
            // The line's text, without a byte-order mark, which columns do not count.
            let lineStart = source[..<hash].lastIndex(where: isBreak).map { $0 + 1 } ?? byteOrderMark
            let lineEnd = source[hash...].firstIndex(where: isBreak) ?? source.count
            search = lineEnd + 1
            let line = source[lineStart..<lineEnd]
            // A line that is not UTF-8 holds no directive (the reader reports the encoding); offsets stay exact.
            guard let text = String(bytes: line, encoding: .utf8), text.contains(Self.marker) else { continue }
            source.withUnsafeBytes { bytes in
                var index = counted
                while index < lineStart {
                    let breakLength = SourceMap.lineBreakLength(at: index, in: bytes)
                    if breakLength > 0 { lineNumber += 1 }
                    index += max(breakLength, 1)
                }
            }
            counted = lineStart
            var search = text.startIndex
            while let hash = text[search...].firstIndex(of: "#") {
                search = text.index(after: hash)
                let before = hash == text.startIndex ? nil : text[text.index(before: hash)]
                guard before == nil || before == " " || before == "\t" else { continue }
                let hashOffset = line.startIndex + text[..<hash].utf8.count
                if insideScalar == nil { insideScalar = ScalarSpans(scalars()) }
                guard !insideScalar!.contains(hashOffset) else { continue }
                let ownLine = text[..<hash].allSatisfy { $0 == " " || $0 == "\t" }
                let comment = text[search...].drop { $0 == " " || $0 == "\t" }
                guard comment.hasPrefix(Self.marker) else { continue }
                let column = text[..<comment.startIndex].unicodeScalars.count + 1
                let offset = line.startIndex + text[..<comment.startIndex].utf8.count
                read(comment.dropFirst(Self.marker.count), line: lineNumber, column: column, offset: offset,
                    length: comment.unicodeScalars.count, appliesTo: ownLine ? lineNumber + 1 : lineNumber)
                break
            }
        }
    }

    /// The first index of `byte` in `bytes` at or after `start`, found by the C library's `memchr`.
    private static func index(of byte: UInt8, in bytes: [UInt8], from start: Int) -> Int? {
        guard start < bytes.count else { return nil }
        return bytes.withUnsafeBufferPointer { buffer in
            memchr(buffer.baseAddress! + start, Int32(byte), buffer.count - start).map {
                UnsafeRawPointer($0) - UnsafeRawPointer(buffer.baseAddress!)
            }
        }
    }

    private mutating func read(
        _ directive: Substring, line: Int, column: Int, offset: Int, length: Int, appliesTo coveredLine: Int
    ) {
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
        // Each code is kept as written, a slice of the directive, so that a problem with it is placed on it.
        var codes: [Substring] = []
        var continues = false
        for (index, word) in words.enumerated() {
            let listed = index == 0 ? word.dropFirst("disable=".count) : word
            guard index == 0 || continues || word.hasPrefix(",") else { continue }
            codes += listed.split(separator: ",")
            continues = listed.hasSuffix(",")
        }
        var support = DecodingSupport()
        for code in codes {
            let before = directive[..<code.startIndex]
            let start = SourceLocation(line: line,
                column: column + Self.marker.unicodeScalars.count + before.unicodeScalars.count,
                offset: offset + Self.marker.utf8.count + before.utf8.count)
            let written = SourceRange(start: start, end: SourceLocation(line: line,
                column: start.column + code.unicodeScalars.count, offset: start.offset + code.utf8.count))
            if let checked = LintConfiguration.checkedCode(String(code), at: written, &support) {
                disabledByLine[coveredLine, default: []].insert(checked)
            }
        }
        if codes.isEmpty {
            support.error(.lintInvalidConfiguration, "disable= names no code", at: range)
        }
        problems += support.diagnostics
    }

    /// Removes the diagnostics a directive turns off.
    func apply(to diagnostics: inout [Diagnostic]) {
        guard !disabledByLine.isEmpty else { return }
        diagnostics.removeAll { diagnostic in
            !diagnostic.isBeyondConfiguration
                && (disabledByLine[diagnostic.range.start.line] ?? []).contains(diagnostic.code)
        }
    }
}

/// Byte ranges of scalars, sorted, to ask whether an offset lies inside one.
private struct ScalarSpans {
    private let spans: [Range<Int>]

    init(_ ranges: [SourceRange]) {
        spans = ranges.map { $0.start.offset..<max($0.start.offset, $0.end.offset) }.sorted { $0.lowerBound < $1.lowerBound }
    }

    /// Whether `offset` lies inside a scalar. Scalars do not overlap, so the last span starting at or before the
    /// offset is the only candidate.
    func contains(_ offset: Int) -> Bool {
        let after = spans.partitionPoint { $0.lowerBound > offset }
        return after > 0 && spans[after - 1].contains(offset)
    }
}
