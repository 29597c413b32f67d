import CYAML

/// Reads a YAML stream into events with libyaml's event API. It and ``TabbedBlanks``, which asks libyaml where
/// scalars are, are the only places in LaunchPolicy that touch libyaml.
///
/// The event reader enforces the limits that are properties of the stream itself — input size, encoding, scalar
/// length and nesting depth — and stops pulling events from libyaml at the first problem, so a hostile input costs
/// no more than the limits allow. ``YAMLReader`` builds the node tree on top of it.
public struct YAMLEventReader: Sendable {
    /// The limits in force. The reader itself uses the input, scalar and depth limits.
    public var limits: YAMLLimits

    /// Creates an event reader.
    public init(limits: YAMLLimits = .default) {
        self.limits = limits
    }

    /// Reads `bytes`, calling `body` with each event in order until the stream ends, `body` returns `false`, or a
    /// problem is found.
    ///
    /// - Returns: The problem that stopped the stream, or nil when it ended normally or `body` stopped it.
    public func readEvents(
        _ bytes: UnsafeRawBufferPointer, _ body: (consuming YAMLEvent) -> Bool
    ) -> Diagnostic? {
        readEvents(bytes, size: bytes.count, body)
    }

    /// ``readEvents(_:_:)`` over the first bytes of an input of `size` bytes (nil: unknown), read only so far
    /// because it is over the limit (``YAMLLimits/readLimit``).
    func readEvents(
        _ bytes: UnsafeRawBufferPointer, size: Int?, _ body: (consuming YAMLEvent) -> Bool
    ) -> Diagnostic? {
        withoutActuallyEscaping(body) { body in
            var sink = EventHandler(body: body)
            return readEvents(bytes, size: size, into: &sink)
        }
    }

    /// ``readEvents(_:size:_:)`` handing each event to `sink`, which says whether to go on.
    func readEvents<Sink: YAMLEventSink>(
        _ bytes: UnsafeRawBufferPointer, size: Int?, into sink: inout Sink
    ) -> Diagnostic? {
        let screened: ScreenedInput
        switch ScreenedInput.screen(bytes, size: size, limits: limits) {
        case .success(let result): screened = result
        case .failure(let diagnostic): return diagnostic
        }
        var substitution: InputSubstitution?
        if screened.needsSubstitution {
            // libyaml reads a copy in which NEL, LS and PS are characters and JSON's escape pairs are readable.
            switch InputSubstitution.make(for: bytes, screened: screened) {
            case .success(let made): substitution = made
            case .failure(let diagnostic): return diagnostic
            }
        }
        let bom = screened.byteOrderMarkLength
        let count = bytes.count - bom
        // And one in which a tab that YAML 1.2 reads as a blank, and libyaml refuses, is a space (TabbedBlanks).
        let untabbed = substitution.map { made in
            made.bytes.withUnsafeBufferPointer { TabbedBlanks.resolved($0, maximumDepth: limits.maximumDepth) }
        } ?? bytes.baseAddress.flatMap { base in
            TabbedBlanks.resolved(
                UnsafeBufferPointer(start: (base + bom).assumingMemoryBound(to: UInt8.self), count: count),
                maximumDepth: limits.maximumDepth)
        }
        if let given = untabbed?.bytes ?? substitution?.bytes {
            return given.withUnsafeBufferPointer { given in
                parse(given.baseAddress!, count: given.count, bytes: bytes, screened: screened,
                    substitution: substitution, tabStandIn: untabbed?.tabStandIn, into: &sink)
            }
        }
        if let base = bytes.baseAddress, count > 0 {
            let start = (base + bom).assumingMemoryBound(to: UInt8.self)
            return parse(
                start, count: count, bytes: bytes, screened: screened, substitution: nil, tabStandIn: nil, into: &sink)
        }
        // libyaml wants a valid pointer even for an empty input.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1) { buffer in
            parse(
                buffer.baseAddress!, count: 0, bytes: bytes, screened: screened, substitution: nil, tabStandIn: nil,
                into: &sink)
        }
    }

    /// Parses what libyaml is given (`start`, `count`): the input after its byte-order mark, or the `substitution`'s
    /// copy of it, or the copy ``TabbedBlanks`` made of either, in which `tabStandIn` stands for a tab that starts a
    /// literal block scalar's text.
    private func parse<Sink: YAMLEventSink>(
        _ start: UnsafePointer<UInt8>, count: Int, bytes: UnsafeRawBufferPointer, screened: ScreenedInput,
        substitution: InputSubstitution?, tabStandIn: UInt8?, into sink: inout Sink
    ) -> Diagnostic? {
        var map = SourceMap(bytes: bytes, screened: screened)
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            return .error(.yamlSyntaxError, "libyaml could not allocate a parser", at: .wholeInputStart)
        }
        defer { yaml_parser_delete(&parser) }
        yaml_parser_set_input_string(&parser, start, count)
        yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)

        var depth = 0
        var event = yaml_event_t()
        while true {
            guard yaml_parser_parse(&parser, &event) == 1 else {
                return syntaxError(parser, map: &map, bytes: bytes, screened: screened, substitution: substitution)
            }
            defer { yaml_event_delete(&event) }
            var range = SourceRange(
                start: map.location(event.start_mark), end: map.location(event.end_mark))
            let goesOn: Bool
            switch event.type {
            case YAML_STREAM_START_EVENT:
                goesOn = sink.streamStart(at: range)
            case YAML_STREAM_END_EVENT:
                _ = sink.streamEnd(at: range)
                return nil
            case YAML_DOCUMENT_START_EVENT:
                goesOn = sink.documentStart(explicit: event.data.document_start.implicit == 0, at: range)
            case YAML_DOCUMENT_END_EVENT:
                goesOn = sink.documentEnd(explicit: event.data.document_end.implicit == 0, at: range)
            case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                depth += 1
                if depth > limits.maximumDepth {
                    return .error(
                        .yamlTooDeep,
                        "sequences and mappings nest more than \(limits.maximumDepth) levels deep",
                        at: range)
                }
                if event.type == YAML_SEQUENCE_START_EVENT {
                    let data = event.data.sequence_start
                    goesOn = sink.collectionStart(
                        isMapping: false, anchor: UnsafePointer(data.anchor), tag: UnsafePointer(data.tag),
                        flow: data.style == YAML_FLOW_SEQUENCE_STYLE, at: range)
                } else {
                    let data = event.data.mapping_start
                    goesOn = sink.collectionStart(
                        isMapping: true, anchor: UnsafePointer(data.anchor), tag: UnsafePointer(data.tag),
                        flow: data.style == YAML_FLOW_MAPPING_STYLE, at: range)
                }
            case YAML_SEQUENCE_END_EVENT:
                depth -= 1
                goesOn = sink.collectionEnd(isMapping: false, at: range)
            case YAML_MAPPING_END_EVENT:
                depth -= 1
                goesOn = sink.collectionEnd(isMapping: true, at: range)
            case YAML_SCALAR_EVENT:
                let data = event.data.scalar
                var restored: [UInt8]?
                if let substitution, data.length > 0 {
                    restored = substitution.restoring(UnsafeBufferPointer(start: data.value, count: data.length))
                }
                if let tabStandIn, data.style == YAML_LITERAL_SCALAR_STYLE {
                    restored = TabbedBlanks.restoringTabs(
                        restored ?? Array(UnsafeBufferPointer(start: data.value, count: data.length)), from: tabStandIn)
                }
                let length = restored?.count ?? data.length
                if length > limits.maximumScalarBytes {
                    return .error(
                        .yamlScalarTooLong,
                        "a scalar of \(length) bytes is longer than the limit of \(limits.maximumScalarBytes) bytes",
                        at: SourceRange(start: range.start))
                }
                let text = if let restored {
                    String(decoding: restored, as: UTF8.self)
                } else if data.length == 0 {
                    ""
                } else {
                    String(decoding: UnsafeBufferPointer(start: data.value, count: data.length), as: UTF8.self)
                }
                // Literal and folded, the block styles, are the last two of libyaml's.
                if data.style.rawValue >= YAML_LITERAL_SCALAR_STYLE.rawValue { range.end = map.endOfText(in: range) }
                goesOn = sink.scalar(
                    text, style: style(data.style), anchor: UnsafePointer(data.anchor), tag: UnsafePointer(data.tag),
                    at: range)
            case YAML_ALIAS_EVENT:
                goesOn = sink.alias(event.data.alias.anchor.map { String(cString: $0) } ?? "", at: range)
            default:
                continue
            }
            if !goesOn { return nil }
        }
    }

    private func style(_ style: yaml_scalar_style_t) -> YAMLScalarStyle {
        switch style {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: .singleQuoted
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: .doubleQuoted
        case YAML_LITERAL_SCALAR_STYLE: .literal
        case YAML_FOLDED_SCALAR_STYLE: .folded
        default: .plain
        }
    }

    private func syntaxError(
        _ parser: yaml_parser_t, map: inout SourceMap, bytes: UnsafeRawBufferPointer, screened: ScreenedInput,
        substitution: InputSubstitution?
    ) -> Diagnostic {
        let problem = parser.problem.map { String(cString: $0) } ?? "the text is not valid YAML"
        if parser.error == YAML_READER_ERROR {
            // Raised before a mark exists: the position is a byte offset into what libyaml was given, where a
            // stand-in's 4 bytes are its separator's 2 or 3.
            let given = parser.problem_offset
            let offset = substitution.map { map.byteOffset(ofCharacter: $0.characterIndex(ofByte: given)) }
                ?? given + screened.byteOrderMarkLength
            return .error(
                .yamlSyntaxError, problem,
                at: SourceRange(start: SourceMap.location(ofByte: offset, in: bytes)))
        }
        let range = SourceRange(start: map.location(parser.problem_mark))
        var notes: [Diagnostic.Note] = []
        var message = problem
        // Where a block scalar starts, when libyaml stopped inside one.
        var blockScalar: Int?
        if let context = parser.context.map({ String(cString: $0) }) {
            let contextLocation = map.location(parser.context_mark)
            message += " (\(context) that starts at \(contextLocation))"
            if contextLocation != range.start {
                notes.append(.init(message: "\(context) that starts here", range: SourceRange(start: contextLocation)))
            }
            if context == "while scanning a block scalar" { blockScalar = contextLocation.offset }
        }
        // libyaml stops at a tab it does not take, which the excerpt under the error cannot show: say what it does.
        let tab = Self.tab(
            at: range.start.offset, in: bytes, blockScalarHeader: blockScalar, indent: Int(parser.indent))
        message += tab?.explanation ?? ""
        return .error(.yamlSyntaxError, message, at: range, fixIt: tab?.fixIt, notes: notes)
    }

    /// What the tab at byte `offset`, where libyaml stopped, is doing there, in words to end the error's message,
    /// and a fix-it where one is certain; nil when that byte is not a tab, or the tab is none of these:
    /// - on a line of blanks, or of blanks and a comment, which reaches libyaml only inside a scalar
    ///   (``TabbedBlanks``), where libyaml takes it for indentation, which a tab may not be. The fix-it empties
    ///   a line of blanks; none deletes the blanks before a comment, which would end the scalar there.
    /// - among the blanks that start a line of text, where it indents the line: before a key or a block collection,
    ///   or after too few spaces to indent the node past its parent (before any other node such a tab reaches
    ///   libyaml as a space: ``TabbedBlanks``); YAML indents with spaces only. No fix-it: how many spaces a tab
    ///   stands for is the editor's to say, and a guess could move the line to another parent.
    /// - after a `-`, `?` or `:` that starts a line's text, before a block collection on that line, which YAML 1.2
    ///   indents with spaces only (before any other node such a tab reaches libyaml as a space: ``TabbedBlanks``).
    /// - after the spaces that start the first line of text of a block scalar whose header (at `blockScalarHeader`)
    ///   gives no indentation: YAML 1.2 reads the tab as text, libyaml only once the header gives the indentation
    ///   (``TabbedBlanks`` gives it a stand-in in a literal scalar, not in a folded one, whose folding it would get
    ///   wrong). The fix-it writes the indentation, worked out from the spaces and libyaml's `indent`.
    private static func tab(
        at offset: Int, in bytes: UnsafeRawBufferPointer, blockScalarHeader: Int? = nil, indent: Int = -1
    ) -> (explanation: String, fixIt: FixIt?)? {
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\t") else { return nil }
        func isBlank(_ index: Int) -> Bool { TabbedBlanks.isBlank(bytes[index]) }
        func isBreak(_ index: Int) -> Bool { TabbedBlanks.isBreak(bytes[index]) }
        var start = offset, end = offset
        while start > 0, isBlank(start - 1) { start -= 1 }
        while end < bytes.count, isBlank(end) { end += 1 }
        let isLineStart = start == 0 || isBreak(start - 1)
        if isLineStart, let header = blockScalarHeader,
            let indicator = firstLineIndentation(header: header, lineStart: start, tab: offset, indent: indent, bytes)
        {
            let written = String(decoding: [bytes[header]], as: UTF8.self) + String(indicator)
            return ("; YAML 1.2 reads the tab as the first character of the scalar's text, after its indentation, and "
                + "libyaml only when the scalar's header gives the indentation (`\(written)`)",
                FixIt(range: SourceRange(start: SourceMap.location(ofByte: header + 1, in: bytes)),
                    replacement: String(indicator), message: "give the indentation: `\(written)`"))
        }
        if isLineStart {
            let goesOnWithComment = end < bytes.count && bytes[end] == UInt8(ascii: "#")
            guard end == bytes.count || isBreak(end) || goesOnWithComment else {
                return ("; a tab indents the line, and YAML indents with spaces only", nil)
            }
            let holds = goesOnWithComment ? "blanks, a tab and a comment" : "blanks and a tab"
            let blanks = SourceRange(
                start: SourceMap.location(ofByte: start, in: bytes), end: SourceMap.location(ofByte: end, in: bytes))
            return ("; the line holds only \(holds), inside a scalar, where a tab cannot indent a line",
                goesOnWithComment ? nil : FixIt(range: blanks, replacement: "", message: "delete the blanks"))
        }
        // After the indicators a line's text starts with (`-`, `- -`, `? -`).
        func isIndicator(_ index: Int) -> Bool { TabbedBlanks.isIndicator(bytes[index]) }
        let indicator = start - 1
        var lineStart = indicator
        while lineStart > 0, isBlank(lineStart - 1) || isIndicator(lineStart - 1) { lineStart -= 1 }
        guard isIndicator(indicator), lineStart == 0 || isBreak(lineStart - 1) else { return nil }
        let written = String(decoding: [bytes[indicator]], as: UTF8.self)
        return ("; a tab separates the `\(written)` from a block collection that starts on the same line, which "
            + "YAML allows after spaces only", nil)
    }
}

/// What the event reader hands each event to, a method for each kind of event (``YAMLEvent/Kind``); each returns
/// whether to go on reading. A node's anchor and tag come as libyaml holds them, NUL-terminated UTF-8 valid during the
/// call, nil when the node has none.
///
/// ``YAMLComposer`` takes the events so, each as its own call, and a scalar's text is handed over into the tree.
/// Handed to it as a ``YAMLEvent``, every event was built as an enum with its payload, passed through memory,
/// switched over again and destroyed. The anchor and tag come as text only where a node has them: as `String?` each
/// was released after every call, nil as nearly all are. The three cost the reader 0.10M instructions a read of 48
/// rules (3.50M, now 3.39M).
protocol YAMLEventSink {
    mutating func streamStart(at range: SourceRange) -> Bool
    mutating func streamEnd(at range: SourceRange) -> Bool
    mutating func documentStart(explicit: Bool, at range: SourceRange) -> Bool
    mutating func documentEnd(explicit: Bool, at range: SourceRange) -> Bool
    /// A sequence or, with `isMapping`, a mapping begins.
    mutating func collectionStart(
        isMapping: Bool, anchor: UnsafePointer<UInt8>?, tag: UnsafePointer<UInt8>?, flow: Bool, at range: SourceRange
    ) -> Bool
    /// The innermost open sequence or, with `isMapping`, mapping ends.
    mutating func collectionEnd(isMapping: Bool, at range: SourceRange) -> Bool
    /// A scalar, its text handed over to be kept.
    mutating func scalar(
        _ text: consuming String, style: YAMLScalarStyle, anchor: UnsafePointer<UInt8>?, tag: UnsafePointer<UInt8>?,
        at range: SourceRange
    ) -> Bool
    mutating func alias(_ name: String, at range: SourceRange) -> Bool
}

/// Each event as a ``YAMLEvent``, handed to a closure: ``YAMLEventReader/readEvents(_:_:)``.
private struct EventHandler: YAMLEventSink {
    let body: (consuming YAMLEvent) -> Bool

    func streamStart(at range: SourceRange) -> Bool { body(YAMLEvent(.streamStart, range: range)) }
    func streamEnd(at range: SourceRange) -> Bool { body(YAMLEvent(.streamEnd, range: range)) }

    func documentStart(explicit: Bool, at range: SourceRange) -> Bool {
        body(YAMLEvent(.documentStart(explicit: explicit), range: range))
    }

    func documentEnd(explicit: Bool, at range: SourceRange) -> Bool {
        body(YAMLEvent(.documentEnd(explicit: explicit), range: range))
    }

    func collectionStart(
        isMapping: Bool, anchor: UnsafePointer<UInt8>?, tag: UnsafePointer<UInt8>?, flow: Bool, at range: SourceRange
    ) -> Bool {
        let anchor = anchor.map { String(cString: $0) }
        let tag = tag.map { String(cString: $0) }
        return body(YAMLEvent(
            isMapping
                ? .mappingStart(anchor: anchor, tag: tag, flow: flow)
                : .sequenceStart(anchor: anchor, tag: tag, flow: flow),
            range: range))
    }

    func collectionEnd(isMapping: Bool, at range: SourceRange) -> Bool {
        body(YAMLEvent(isMapping ? .mappingEnd : .sequenceEnd, range: range))
    }

    func scalar(
        _ text: consuming String, style: YAMLScalarStyle, anchor: UnsafePointer<UInt8>?, tag: UnsafePointer<UInt8>?,
        at range: SourceRange
    ) -> Bool {
        body(YAMLEvent(
            .scalar(YAMLScalar(text: text, style: style), anchor: anchor.map { String(cString: $0) },
                tag: tag.map { String(cString: $0) }),
            range: range))
    }

    func alias(_ name: String, at range: SourceRange) -> Bool { body(YAMLEvent(.alias(name), range: range)) }
}

extension YAMLEventReader {
    /// The indentation indicator (1 to 9) a block scalar's header at `header` needs for libyaml to read the tab at
    /// `tab`, after the spaces that start the line at `lineStart`, as text, as YAML 1.2 reads it: nil unless the
    /// header gives none, the line is the scalar's first that is not spaces alone, and spaces come before the tab.
    /// libyaml indents a block scalar's text by the indicator past `indent`, its enclosing collection's column (-1
    /// at the top, where the indicator is the indentation).
    fileprivate static func firstLineIndentation(
        header: Int, lineStart: Int, tab: Int, indent: Int, _ bytes: UnsafeRawBufferPointer
    ) -> Int? {
        guard header < lineStart, bytes[header] == UInt8(ascii: "|") || bytes[header] == UInt8(ascii: ">"),
            tab > lineStart, bytes[lineStart..<tab].allSatisfy({ $0 == UInt8(ascii: " ") })
        else { return nil }
        var index = header + 1
        if index < lineStart, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") { index += 1 }
        guard index < lineStart, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else { return nil }
        // The rest of the header's line, then lines of spaces only.
        while index < lineStart, !TabbedBlanks.isBreak(bytes[index]) { index += 1 }
        guard bytes[index..<lineStart].allSatisfy({ $0 == UInt8(ascii: " ") || TabbedBlanks.isBreak($0) }) else {
            return nil
        }
        let indicator = tab - lineStart - max(indent, 0)
        return (1...9).contains(indicator) ? indicator : nil
    }
}

extension SourceMap {
    fileprivate mutating func location(_ mark: yaml_mark_t) -> SourceLocation {
        location(line: mark.line, column: mark.column, characterIndex: mark.index)
    }
}
