import CYAML
import Foundation

/// What makes libyaml read a tab on a line of blanks between nodes as YAML 1.2 does.
///
/// YAML 1.2 reads a line that holds only blanks (spaces and tabs), or blanks and a comment, as a comment line, whatever
/// its blanks are: the tab an editor leaves on an emptied line, or indents a comment with. libyaml, a YAML 1.1 reader,
/// refuses a tab at the start of a line of a block collection ("found character that cannot start any token"), so
/// such a file read in every YAML 1.2 tool but this one. libyaml reads a copy in which the tabs of such lines are
/// spaces: as many characters, so its marks are the input's, and no node holds anything of those lines.
///
/// Inside a scalar such a line is text, or stands in the scalar's indentation, where a tab may not: there libyaml is
/// given it as written, to read or refuse as YAML 1.2 does. Which lines are inside a scalar is what libyaml says in a
/// first pass over the copy: a line within a scalar's marks is put back. One kind of line is inside a block scalar's
/// marks and not in it: after the scalar's last line of text, with its tab short of the scalar's indentation. YAML
/// 1.2 ends the scalar there and reads the line as a comment, and so does libyaml when the tab is a `#`.
///
/// An input that holds no such line costs a `memchr` for a tab; one that does, one more pass of libyaml, which stops
/// at the last such line.
enum TabbedBlankLines {
    /// A line of blanks holding a tab: its line as libyaml counts (0-based), where its blanks are, and its first tab.
    private struct Line {
        let line: Int
        let blanks: Range<Int>
        let firstTab: Int
    }

    /// A space or a tab: YAML's blanks.
    static func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    /// LF or CR: where lines break (CR LF is two of these), as libyaml's do here (``InputSubstitution``).
    static func isBreak(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") }

    /// What a line is handed to libyaml as: with spaces for its tabs, as written, or with a `#` for its first tab.
    private enum Reading {
        case spaced, asWritten, comment
    }

    /// `given` as libyaml is to read it: each tabbed line spaced, as written, or with a `#` for its first tab, as its
    /// place says (``Reading``); nil when it has no such line.
    static func resolved(_ given: UnsafeBufferPointer<UInt8>, maximumDepth: Int) -> [UInt8]? {
        let lines = lines(in: given)
        guard !lines.isEmpty else { return nil }
        var copy = Array(given)
        for line in lines {
            for index in line.blanks where copy[index] == UInt8(ascii: "\t") { copy[index] = UInt8(ascii: " ") }
        }
        let found = copy.withUnsafeBufferPointer { readings(of: lines, in: $0, maximumDepth: maximumDepth) }
        for (line, reading) in zip(lines, found) {
            switch reading {
            case .spaced: break
            case .asWritten: copy.replaceSubrange(line.blanks, with: given[line.blanks])
            case .comment: copy[line.firstTab] = UInt8(ascii: "#")
            }
        }
        return copy
    }

    /// The lines of `given` that start with blanks holding a tab and end, or go on with a comment, after them. Linear:
    /// each byte is looked at by `memchr`, then at most once walking back and once walking on.
    private static func lines(in given: UnsafeBufferPointer<UInt8>) -> [Line] {
        guard let base = given.baseAddress else { return [] }
        let (tab, lineFeed, carriageReturn) = (UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"))
        var found: [Line] = []
        var line = 0
        var countedTo = 0
        var offset = 0
        while offset < given.count, let pointer = memchr(base + offset, Int32(tab), given.count - offset) {
            let at = UnsafePointer<UInt8>(pointer.assumingMemoryBound(to: UInt8.self)) - base
            var start = at
            while start > 0, isBlank(given[start - 1]) { start -= 1 }
            var end = at + 1
            while end < given.count, isBlank(given[end]) { end += 1 }
            offset = end
            let startsLine = start == 0 || isBreak(given[start - 1])
            let endsBlanks = end == given.count || isBreak(given[end]) || given[end] == UInt8(ascii: "#")
            guard startsLine, endsBlanks else { continue }
            // Lines break at LF, CR and CR LF, as libyaml's do (it never sees NEL, LS or PS: InputSubstitution).
            for index in countedTo..<start where given[index] == lineFeed
                || (given[index] == carriageReturn && (index + 1 == given.count || given[index + 1] != lineFeed))
            {
                line += 1
            }
            countedTo = start
            found.append(Line(line: line, blanks: start..<end, firstTab: at))
        }
        return found
    }

    /// How each of `lines` is read, by where libyaml finds it in `copy` (every such line spaced): inside a scalar,
    /// as written, but for a block scalar's last lines (``lastLinesOfBlockScalar(_:_:end:lines:in:)``). The pass stops
    /// after the last line, at a problem (the second pass stops there too, or sooner), or past `maximumDepth`, as the
    /// second does.
    private static func readings(
        of lines: [Line], in copy: UnsafeBufferPointer<UInt8>, maximumDepth: Int
    ) -> [Reading] {
        var readings = [Reading](repeating: .spaced, count: lines.count)
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return readings.map { _ in .asWritten } }
        defer { yaml_parser_delete(&parser) }
        yaml_parser_set_input_string(&parser, copy.baseAddress, copy.count)
        yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
        var next = 0
        var depth = 0
        var event = yaml_event_t()
        while next < lines.count, yaml_parser_parse(&parser, &event) == 1 {
            defer { yaml_event_delete(&event) }
            switch event.type {
            case YAML_STREAM_END_EVENT:
                return readings
            case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                depth += 1
                if depth > maximumDepth { return readings }
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                depth -= 1
            case YAML_SCALAR_EVENT:
                let (start, end) = (event.start_mark, event.end_mark)
                while next < lines.count, lines[next].line <= start.line { next += 1 }
                let first = next
                while next < lines.count,
                    lines[next].line < end.line || (lines[next].line == end.line && end.column > 0)
                {
                    readings[next] = .asWritten
                    next += 1
                }
                let data = event.data.scalar
                // Literal and folded, the block styles, are the last two of libyaml's.
                if next > first, data.style.rawValue >= YAML_LITERAL_SCALAR_STYLE.rawValue {
                    let text = UnsafeBufferPointer(start: data.value, count: data.length)
                    for (index, reading) in lastLinesOfBlockScalar(
                        text, first..<next, end: end, lines: lines, in: copy) {
                        readings[index] = reading
                    }
                }
            default:
                break
            }
        }
        return readings
    }

    /// Among the `lines` inside a block scalar's marks (`inside`, the scalar ending at `end`), those after its last
    /// line of text, each read as YAML 1.2 reads it: text (as written) when its tab is at or past the scalar's
    /// indentation, else a comment, which ends the scalar. The indentation is that of the scalar's last line of text
    /// in `copy`, less the spaces that line starts with in the scalar's `text`. None when the scalar has no text:
    /// YAML 1.2 refuses a tab in its lines then (the test suite's Y79Y/000). A line that goes on with a comment is
    /// taken for text, as libyaml takes it.
    private static func lastLinesOfBlockScalar(
        _ text: UnsafeBufferPointer<UInt8>, _ inside: Range<Int>, end: yaml_mark_t, lines: [Line],
        in copy: UnsafeBufferPointer<UInt8>
    ) -> [(Int, Reading)] {
        // The spaces that the last line of text starts with in the scalar's text.
        var textEnd = text.count
        while textEnd > 0, isBlank(text[textEnd - 1]) || isBreak(text[textEnd - 1]) { textEnd -= 1 }
        guard textEnd > 0 else { return [] }
        var textLineStart = textEnd
        while textLineStart > 0, text[textLineStart - 1] != UInt8(ascii: "\n") { textLineStart -= 1 }
        var textSpaces = 0
        while text[textLineStart + textSpaces] == UInt8(ascii: " ") { textSpaces += 1 }
        // The scalar's end in the copy: on its end mark's line, after the spaces libyaml took for indentation.
        var offset = lines[inside.upperBound - 1].blanks.lowerBound
        var line = lines[inside.upperBound - 1].line
        while line < end.line, offset < copy.count {
            if isBreak(copy[offset]) {
                let isCRLF = copy[offset] == UInt8(ascii: "\r") && offset + 1 < copy.count
                    && copy[offset + 1] == UInt8(ascii: "\n")
                offset += isCRLF ? 2 : 1
                line += 1
            } else {
                offset += 1
            }
        }
        // The last line of text in the copy, and the spaces it starts with.
        var last = min(offset + end.column, copy.count)
        while last > 0, isBlank(copy[last - 1]) || isBreak(copy[last - 1]) { last -= 1 }
        var lineStart = last
        while lineStart > 0, !isBreak(copy[lineStart - 1]) { lineStart -= 1 }
        var spaces = 0
        while copy[lineStart + spaces] == UInt8(ascii: " ") { spaces += 1 }
        let indentation = spaces - textSpaces
        guard indentation > 0 else { return [] }
        return inside.filter { lines[$0].blanks.lowerBound >= last }.map { index in
            let column = lines[index].firstTab - lines[index].blanks.lowerBound
            return (index, column < indentation ? .comment : .asWritten)
        }
    }
}
