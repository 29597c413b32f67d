import CYAML
import Foundation

/// What makes libyaml read the tabs YAML 1.2 reads as blanks: on a line of blanks between nodes, between a `-`, `?`
/// or `:` that starts a line and a scalar or flow collection after it, and after a line's indentation before such a
/// node.
///
/// YAML 1.2 reads a line that holds only blanks (spaces and tabs), or blanks and a comment, as a comment line, whatever
/// its blanks are: the tab an editor leaves on an emptied line, or indents a comment with. It separates an indicator
/// from the node after it with any blanks too (`-\tvalue`), but for a block collection on the same line
/// (`-\tkey: value`, `-\t- item`), whose indentation is spaces only; and a node from the start of its line, once
/// the spaces before the tab indent it enough (`key:\n \tvalue`, `\t[a, b]` at the top), but for a key or a block
/// collection, whose indentation is spaces only. libyaml, a YAML 1.1 reader, refuses a tab in each of these places
/// ("found character that cannot start any token"), so such a file read in every YAML 1.2 tool but this one. libyaml
/// reads a copy in which those tabs are spaces: as many characters, so its marks are the input's, and no node holds
/// anything of them.
///
/// Which of them YAML 1.2 reads as blanks is what libyaml says in a first pass over the copy. Inside a scalar such
/// a line is text, or stands in the scalar's indentation, where a tab may not: a line within a scalar's marks is
/// given as written, to read or refuse as YAML 1.2 does. One kind of line is inside a block scalar's marks and not in
/// it: after the scalar's last line of text, with its tab short of the scalar's indentation. YAML 1.2 ends the scalar
/// there and reads the line as a comment, and so does libyaml when the tab is a `#`. A tab after an indicator where
/// the copy starts a block collection on that line is given as written, for libyaml to refuse; so is one at a line's
/// start unless the copy finds there a node YAML 1.2 allows it before.
///
/// One more place holds a tab YAML 1.2 reads and libyaml refuses: after the spaces that start a literal block
/// scalar's first line of text, where the tab is text (``resolved(_:maximumDepth:)``).
///
/// An input that holds no tab costs a `memchr`; one that holds such blanks, one more pass of libyaml, which stops at
/// the last of them (two, when a guess of a literal scalar's first line is wrong).
enum TabbedBlanks {
    /// Blanks holding a tab: on a line of blanks, after an indicator that starts a line or follows one that does,
    /// or at the start of a line of text. Its line as libyaml counts (0-based), where its blanks are, and its first
    /// tab.
    private struct Run {
        enum Kind {
            /// A line of blanks, or of blanks and a comment.
            case blankLine
            /// After a `-`, `?` or `:` (and a blank) that starts a line's text, or follows another that does.
            case afterIndicator
            /// At the start of a line of text.
            case leading
        }

        let kind: Kind
        let line: Int
        let blanks: Range<Int>
        let firstTab: Int
        /// The column after the blanks, where the node after them starts (all before it on the line is ASCII, so
        /// its bytes are its characters).
        let column: Int

        /// How it is read until the first pass says otherwise: a tab that starts a line of text as written, as it
        /// indents the line unless a node YAML 1.2 allows it before is found there; the others spaced.
        var reading: Reading { kind == .leading ? .asWritten : .spaced }
    }

    /// A space or a tab: YAML's blanks.
    static func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    /// LF or CR: where lines break (CR LF is two of these), as libyaml's do here (``InputSubstitution``).
    static func isBreak(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") }

    /// What a run is handed to libyaml as: with spaces for its tabs, as written, with a `#` for its first tab, or with
    /// the stand-in for each tab from its first (``Resolved/tabStandIn``).
    private enum Reading {
        case spaced, asWritten, comment, standIn
    }

    /// What libyaml is to read, and the byte that stands in it for a tab that starts a literal block scalar's text.
    struct Resolved {
        /// The input, its runs read as their places say.
        let bytes: [UInt8]
        /// A punctuation character the input does not hold, given for each tab of a run at the start of a literal
        /// block scalar's first line of text (`key: |` then ` <tab>text`), when there is one: the scalar's text gets
        /// the tabs back (``restoringTabs(_:from:)``).
        let tabStandIn: UInt8?
    }

    /// A literal block scalar's `text` with its tabs back from `standIn` (``Resolved/tabStandIn``).
    static func restoringTabs(_ text: [UInt8], from standIn: UInt8) -> [UInt8] {
        text.map { $0 == standIn ? UInt8(ascii: "\t") : $0 }
    }

    /// `given` as libyaml is to read it: each run spaced, as written, with a `#` for its first tab, or with a stand-in
    /// for its tabs, as its place says (``Reading``); nil when it has no such run.
    ///
    /// A run that starts a literal block scalar's first line of text after spaces (`key: |` then ` <tab>text`) is
    /// text from its first tab: YAML 1.2 takes the spaces for the scalar's indentation, and libyaml, which works the
    /// indentation out from the spaces and what follows them, refuses the tab there. It reads a punctuation character
    /// the input does not hold in its place. Whether a run is at such a place is guessed from the line before (it
    /// ends in `|`, `|-` or `|+`, with spaces between), and the first pass, which reads the guess, says whether the
    /// stand-in is in a literal block scalar. A guess it refutes (the `|` was in a quoted scalar or a comment) is
    /// dropped, and the first pass is run once more without it, as what libyaml reads after the stand-in can differ;
    /// one it refutes again is given as written, for libyaml to refuse as before.
    static func resolved(_ given: UnsafeBufferPointer<UInt8>, maximumDepth: Int) -> Resolved? {
        let runs = runs(in: given)
        guard !runs.isEmpty else { return nil }
        var guessed = Set(runs.indices.filter { startsLiteralText(runs[$0], in: given) })
        let standIn = guessed.isEmpty ? nil : unusedPunctuation(in: given)
        if standIn == nil { guessed = [] }
        var found: [Reading] = []
        for pass in 0..<2 {
            let copy = reading(given, runs: runs, as: runs.indices.map { guessed.contains($0) ? .standIn : .spaced },
                standIn: standIn)
            found = copy.withUnsafeBufferPointer {
                readings(of: runs, in: $0, standIns: guessed, maximumDepth: maximumDepth)
            }
            let refuted = guessed.filter { found[$0] != .standIn }
            guard !refuted.isEmpty else { break }
            guessed.subtract(refuted)
            if pass == 1 { for index in refuted { found[index] = .asWritten } }
        }
        return Resolved(
            bytes: reading(given, runs: runs, as: found, standIn: standIn),
            tabStandIn: found.contains(.standIn) ? standIn : nil)
    }

    /// `given` with each run read as `readings` say.
    private static func reading(
        _ given: UnsafeBufferPointer<UInt8>, runs: [Run], as readings: [Reading], standIn: UInt8?
    ) -> [UInt8] {
        var copy = Array(given)
        let tab = UInt8(ascii: "\t")
        for (run, reading) in zip(runs, readings) {
            switch reading {
            case .spaced:
                for index in run.blanks where copy[index] == tab { copy[index] = UInt8(ascii: " ") }
            case .asWritten:
                break
            case .comment:
                for index in run.blanks where copy[index] == tab { copy[index] = UInt8(ascii: " ") }
                copy[run.firstTab] = UInt8(ascii: "#")
            case .standIn:
                for index in run.firstTab..<run.blanks.upperBound where copy[index] == tab {
                    copy[index] = standIn ?? tab
                }
            }
        }
        return copy
    }

    /// Whether `run` may start a literal block scalar's first line of text: spaces then a tab at the start of its
    /// line, and the line before, past lines of spaces only, ending in a literal block scalar's header without an
    /// indentation indicator (`|`, `|-`, `|+`, then nothing, blanks, or a comment). A guess: a `|` in a quoted scalar
    /// or a comment looks the same, and the first pass tells them apart.
    private static func startsLiteralText(_ run: Run, in given: UnsafeBufferPointer<UInt8>) -> Bool {
        guard run.kind != .afterIndicator, run.firstTab > run.blanks.lowerBound,
            !given[run.blanks.lowerBound..<run.firstTab].contains(UInt8(ascii: "\t"))
        else { return false }
        // The line before, past lines of spaces only: from `start` to its break at `end`.
        var start = run.blanks.lowerBound
        var end = start
        repeat {
            guard start > 0 else { return false }
            end = start - 1
            if end > 0, given[end] == UInt8(ascii: "\n"), given[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            start = end
            while start > 0, !isBreak(given[start - 1]) { start -= 1 }
        } while given[start..<end].allSatisfy { $0 == UInt8(ascii: " ") }
        // Its text without a comment (a `#` after a blank) and trailing blanks, ending in the header.
        var textEnd = end
        if let hash = (start..<end).first(where: {
            given[$0] == UInt8(ascii: "#") && $0 > start && isBlank(given[$0 - 1])
        }) {
            textEnd = hash
        }
        while textEnd > start, isBlank(given[textEnd - 1]) { textEnd -= 1 }
        if textEnd > start, given[textEnd - 1] == UInt8(ascii: "-") || given[textEnd - 1] == UInt8(ascii: "+") {
            textEnd -= 1
        }
        guard textEnd > start, given[textEnd - 1] == UInt8(ascii: "|") else { return false }
        return textEnd - 1 == start || isBlank(given[textEnd - 2])
    }

    /// A punctuation character that `given` does not hold, if any. Not a letter, a digit or a backslash: a literal
    /// scalar's text gets back what ``InputSubstitution`` put in `given` in place of a JSON escape pair (`\uD83D…`),
    /// whose letters and digits `given` may not hold, and every stand-in in the text becomes a tab.
    private static func unusedPunctuation(in given: UnsafeBufferPointer<UInt8>) -> UInt8? {
        var held = [Bool](repeating: false, count: 128)
        for byte in given where byte < 128 { held[Int(byte)] = true }
        // `~`, `}`, `|`, `{`, … first: rarer in text than `!` or `"`.
        return Array("~}|{`^_][@?>=<;:/.-,+*)('&%$#\"!".utf8).first { !held[Int($0)] }
    }

    /// The runs of `given`, in order. Linear: `memchr` finds a tab, and its line is walked back to its start and on
    /// to its end once, whatever tabs it holds.
    private static func runs(in given: UnsafeBufferPointer<UInt8>) -> [Run] {
        guard let base = given.baseAddress else { return [] }
        let (tab, lineFeed, carriageReturn) = (UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"))
        var found: [Run] = []
        var line = 0
        var countedTo = 0
        var offset = 0
        while offset < given.count, let pointer = memchr(base + offset, Int32(tab), given.count - offset) {
            let at = UnsafePointer<UInt8>(pointer.assumingMemoryBound(to: UInt8.self)) - base
            var start = at
            while start > 0, !isBreak(given[start - 1]) { start -= 1 }
            var end = at + 1
            while end < given.count, !isBreak(given[end]) { end += 1 }
            offset = end
            // Lines break at LF, CR and CR LF, as libyaml's do (it never sees NEL, LS or PS: InputSubstitution).
            for index in countedTo..<start where given[index] == lineFeed
                || (given[index] == carriageReturn && (index + 1 == given.count || given[index + 1] != lineFeed))
            {
                line += 1
            }
            countedTo = start
            found += runs(onLine: line, from: start, to: end, in: given)
        }
        return found
    }

    /// The runs of the line `number`, from byte `start` to its break at `end`: its blanks, when they hold a tab and
    /// end it or go on with a comment, or start its text; else the blanks holding a tab after each indicator its
    /// text starts with, after spaces.
    private static func runs(onLine number: Int, from start: Int, to end: Int, in given: UnsafeBufferPointer<UInt8>)
        -> [Run]
    {
        func run(_ kind: Run.Kind, _ blanks: Range<Int>) -> Run? {
            guard let firstTab = blanks.first(where: { given[$0] == UInt8(ascii: "\t") }) else { return nil }
            return Run(kind: kind, line: number, blanks: blanks, firstTab: firstTab, column: blanks.upperBound - start)
        }
        var blanksEnd = start
        while blanksEnd < end, isBlank(given[blanksEnd]) { blanksEnd += 1 }
        if blanksEnd == end || given[blanksEnd] == UInt8(ascii: "#") {
            return run(.blankLine, start..<blanksEnd).map { [$0] } ?? []
        }
        if let leading = run(.leading, start..<blanksEnd) { return [leading] }
        var found: [Run] = []
        var index = start
        while index < end, given[index] == UInt8(ascii: " ") { index += 1 }
        while index < end, isIndicator(given[index]), index + 1 == end || isBlank(given[index + 1]) {
            let after = index + 1
            index = after
            while index < end, isBlank(given[index]) { index += 1 }
            if let tabbed = run(.afterIndicator, after..<index) { found.append(tabbed) }
        }
        return found
    }

    /// `-`, `?` or `:`: the indicators that may start a line's text and that a block node may follow.
    static func isIndicator(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "-") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: ":")
    }

    /// How each of `runs` is read, by where libyaml finds it in `copy` (every run spaced): inside a scalar, as
    /// written, but for a block scalar's last lines (``lastLinesOfBlockScalar(_:_:end:runs:in:)``); after an
    /// indicator, as written where a block collection starts after it on its line; at a line's start, spaced before
    /// a node other than a block collection when the spaces before the tab pass the column of the node's parent
    /// (`key:\n \tvalue`; at the top of a document, none need to: `\t[a]`). A key is at its mapping's column, which
    /// such spaces never pass; a block collection is indented by spaces alone. The pass stops after the last run, at a
    /// problem (the second pass stops there too, or sooner), or past `maximumDepth`, as the second does.
    private static func readings(
        of runs: [Run], in copy: UnsafeBufferPointer<UInt8>, standIns: Set<Int>, maximumDepth: Int
    ) -> [Reading] {
        var readings = runs.map(\.reading)
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return readings.map { _ in .asWritten } }
        defer { yaml_parser_delete(&parser) }
        yaml_parser_set_input_string(&parser, copy.baseAddress, copy.count)
        yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
        var next = 0
        // The columns of the open collections, innermost last: a node after a tab must be past its parent's.
        var parents: [Int] = []
        // A run a block collection starts after with properties (`-\t&a`), refused if its first node is on the
        // run's line too: after properties, YAML 1.2 starts a block collection on a line of its own.
        var afterProperties: Int?
        var event = yaml_event_t()
        while next < runs.count, yaml_parser_parse(&parser, &event) == 1 {
            defer { yaml_event_delete(&event) }
            let start = event.start_mark
            if let run = afterProperties {
                if start.line == runs[run].line { readings[run] = .asWritten }
                afterProperties = nil
            }
            let node: Node?
            switch event.type {
            case YAML_SCALAR_EVENT, YAML_ALIAS_EVENT: node = .other
            case YAML_SEQUENCE_START_EVENT:
                node = event.data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE ? .other : .blockCollection
            case YAML_MAPPING_START_EVENT:
                node = event.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE ? .other : .blockCollection
            default: node = nil
            }
            if let node {
                while next < runs.count, runs[next].line < start.line { next += 1 }
                // The run the node starts right after, if any: the runs of a line are in order of column.
                var index = next
                while index < runs.count, runs[index].line == start.line, runs[index].column < start.column {
                    index += 1
                }
                if index < runs.count, runs[index].line == start.line, runs[index].column == start.column {
                    let run = runs[index]
                    switch run.kind {
                    case .afterIndicator where node == .blockCollection:
                        let after = run.blanks.upperBound
                        if after < copy.count, copy[after] == UInt8(ascii: "&") || copy[after] == UInt8(ascii: "!") {
                            afterProperties = index
                        } else {
                            readings[index] = .asWritten
                        }
                    case .leading:
                        let spaces = run.firstTab - run.blanks.lowerBound
                        readings[index] = node != .blockCollection && spaces > parents.last ?? -1
                            ? .spaced : .asWritten
                    default:
                        break
                    }
                }
            }
            switch event.type {
            case YAML_STREAM_END_EVENT:
                return readings
            case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                if parents.count == maximumDepth { return readings }
                parents.append(start.column)
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                if !parents.isEmpty { parents.removeLast() }
            case YAML_SCALAR_EVENT:
                let end = event.end_mark
                while next < runs.count, runs[next].line <= start.line { next += 1 }
                let first = next
                let data = event.data.scalar
                let literal = data.style == YAML_LITERAL_SCALAR_STYLE
                while next < runs.count,
                    runs[next].line < end.line || (runs[next].line == end.line && end.column > 0)
                {
                    // A stand-in libyaml read as a literal scalar's text is a tab of that text.
                    readings[next] = literal && standIns.contains(next) ? .standIn : .asWritten
                    next += 1
                }
                // Literal and folded, the block styles, are the last two of libyaml's.
                if next > first, data.style.rawValue >= YAML_LITERAL_SCALAR_STYLE.rawValue {
                    let text = UnsafeBufferPointer(start: data.value, count: data.length)
                    for (index, reading) in lastLinesOfBlockScalar(text, first..<next, end: end, runs: runs, in: copy) {
                        readings[index] = reading
                    }
                }
            default:
                break
            }
        }
        return readings
    }

    /// What starts at a run's end, as far as a tab before it goes: a block collection, which is indented by spaces
    /// alone, or another node (a scalar, an alias, a flow collection).
    private enum Node {
        case blockCollection, other
    }

    /// Among the `runs` inside a block scalar's marks (`inside`, the scalar ending at `end`), the lines of blanks
    /// after its last line of text, each read as YAML 1.2 reads it: text (as written) when its tab is at or past the
    /// scalar's indentation, else a comment, which ends the scalar, and so is every such line after it, as the scalar
    /// has ended (a tab at the indentation there is a blank of a comment line, not the scalar's text, and libyaml,
    /// given it as written, refused it). The indentation is that of the scalar's last line of text
    /// in `copy`, less the spaces that line starts with in the scalar's `text`. None when the scalar has no text:
    /// YAML 1.2 refuses a tab in its lines then (the test suite's Y79Y/000). A line that goes on with a comment is
    /// taken for text, as libyaml takes it.
    private static func lastLinesOfBlockScalar(
        _ text: UnsafeBufferPointer<UInt8>, _ inside: Range<Int>, end: yaml_mark_t, runs: [Run],
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
        var offset = runs[inside.upperBound - 1].blanks.lowerBound
        var line = runs[inside.upperBound - 1].line
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
        var ended = false
        return inside.filter { runs[$0].kind == .blankLine && runs[$0].blanks.lowerBound >= last }.map { index in
            ended = ended || runs[index].firstTab - runs[index].blanks.lowerBound < indentation
            return (index, ended ? .comment : .asWritten)
        }
    }
}
