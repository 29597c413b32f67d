import Foundation
@testable import LaunchPolicy
import Testing
import TestSupport

/// The JSON reader behind the state files: what it accepts, what it refuses and how it says so.
@Suite struct JSONReaderTests {
    private func read(_ text: String) throws(JSONReader.Failure) -> String {
        try JSONReader.value(of: Array(text.utf8)).text
    }

    private func reason(_ bytes: [UInt8]) -> String? {
        do {
            _ = try JSONReader.value(of: bytes)
            return nil
        } catch {
            return error.reason
        }
    }

    @Test(arguments: [
        (" {\"a\" : [1, -0, 0.5, -2.5e3, 1E+2, true, false, null, {}, []]}\r\n\t", #"{"a": [1, 0, 0.5, -2500.0, 100.0, true, false, null, {}, []]}"#),
        (#""a\"b\\c\/d\b\f\n\r\t""#, #""a\"b\\c/d\u0008\u000c\n\r\t""#),
        (#""\u00e9\u00E9 \ud83d\ude00 é😀""#, "\"éé 😀 é😀\""),
        ("\u{FEFF}{}", "{}"),  // a UTF-8 byte order mark
        ("9223372036854775807", "9223372036854775807"),
        ("-9223372036854775808", "-9223372036854775808"),
        ("9223372036854775808", "9.223372036854776e+18"),  // beyond Int: a number all the same
        (#"{"k": 1, "k": 2}"#, #"{"k": 1, "k": 2}"#),  // kept as written; the state file's reader refuses it
    ])
    func validJSONReadsAsWritten(text: String, value: String) throws {
        #expect(try read(text) == value)
    }

    @Test(arguments: [
        ("{\"a\": 1,}", "unexpected \"}\" where a key should start at line 1, column 9"),
        ("[1, 2,]", "unexpected \"]\" where a value should start at line 1, column 7"),
        ("{'a': 1}", "unexpected \"'\" where a key should start at line 1, column 2"),
        ("{a: 1}", "unexpected \"a\" where a key should start"),
        ("{\"a\" 1}", "unexpected \"1\" where a colon should follow the key"),
        ("[1 2]", "unexpected \"2\" where a comma or ] should be"),
        ("01", "unexpected \"1\" after the value"),
        ("1.", "it ends too soon"),
        ("1.x", "unexpected \"x\" where a fraction's digits should be"),
        (".5", "unexpected \".\" where a value should start"),
        ("+1", "unexpected \"+\" where a value should start"),
        ("1e", "it ends too soon"),
        ("-", "it ends too soon"),
        ("-a", "unexpected \"a\" where a number's digits should be"),
        ("1e999", "a number is too large at line 1, column 1"),
        ("NaN", "unexpected \"N\" where a value should start"),
        ("tru", "it ends too soon"),
        ("trUe", "unexpected \"t\" where a value should start"),
        ("{} {}", "unexpected \"{\" after the value at line 1, column 4"),
        ("\"a\\x\"", "\\x is not an escape JSON has at line 1, column 3"),
        ("\"\\u12G4\"", "unexpected \"G\" where a \\u escape's four hexadecimal digits should be"),
        ("\"\\ud800\"", "a \\u escape is half of a surrogate pair at line 1, column 2"),
        ("\"\\ud800\\u0041\"", "a \\u escape is half of a surrogate pair"),
        ("\"\\udc00\"", "a \\u escape is half of a surrogate pair"),
        ("\"a\tb\"", "unexpected byte 0x9 inside a string (a control character must be escaped)"),
        ("{\n  \"a\": [\n    1,\n    é\n  ]\n}", "unexpected byte 0xc3 where a value should start at line 4, column 5"),
        ("", "it ends too soon"),
        ("   ", "it ends too soon"),
    ])
    func invalidJSONSaysWhatAndWhere(text: String, expected: String) {
        let said = reason(Array(text.utf8))
        #expect(said?.hasPrefix("it is not valid JSON: ") == true, "\(said ?? "accepted")")
        #expect(said?.contains(expected) == true, "\(said ?? "accepted")")
    }

    @Test(arguments: [
        ("{\n  \"a\": [\n    1,\n    é\n  ]\n}", 4, 5, 22),  // at the stray byte
        ("[1,\n 2", 2, 3, 6),  // cut short: at the end
        ("\"é\" x", 1, 5, 5),  // columns count scalars, offsets bytes
        ("\u{FEFF}[1 2]", 1, 4, 6),  // a byte order mark counts in the offset, not the column
        ("[1,\r 2,\r x]", 3, 2, 9),  // lines broken by CR alone, as an editor and the renderer break them
        ("[1,\r\n 2,\r\n x]", 3, 2, 11),  // CR LF is one break
    ])
    func aFailureSaysWhereTheTextStopsBeingJSON(text: String, line: Int, column: Int, offset: Int) {
        do {
            _ = try JSONReader.value(of: Array(text.utf8))
            Issue.record("accepted")
        } catch {
            #expect(error.location == SourceLocation(line: line, column: column, offset: offset))
        }
    }

    @Test func aStringThatIsNotUTF8IsRefused() {
        for bytes: [UInt8] in [[0x22, 0xFF, 0x22], [0x22, 0x61, 0xC3, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22]] {
            #expect(reason(bytes) == "it is not valid JSON: a string is not valid UTF-8 at line 1, column 1")
        }
    }

    @Test func aLongStringOfEscapesReadsWhole() throws {
        // The text before each escape is appended in place; copied whole at each escape, the time grew with the
        // square of the number of escapes.
        let text = "\"" + String(repeating: #"ab\n\u00e9"#, count: 100_000) + "\""
        guard case .string(let read) = try JSONReader.value(of: Array(text.utf8)) else {
            Issue.record("not a string")
            return
        }
        #expect(read == String(repeating: "ab\né", count: 100_000))
    }

    @Test func nestingIsBoundedSoThatNoFileExhaustsTheStack() {
        let depth = JSONReader.maximumDepth
        #expect(reason(Array((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)) == nil)
        let deeper = String(repeating: "[{\"a\":", count: depth / 2) + "[]" + String(repeating: "}]", count: depth / 2)
        #expect(reason(Array(deeper.utf8))?.contains("it nests deeper than \(depth) levels") == true)
        // Far deeper than any stack allows if nesting were followed: refused at the limit, not crashed.
        let hostile = [UInt8](repeating: UInt8(ascii: "["), count: 1_000_000)
        #expect(reason(hostile)?.contains("it nests deeper than \(depth) levels") == true)
    }

    /// A random value of at most `depth` levels: strings from an alphabet of escapes, controls, separators and
    /// characters of one to four bytes; integers, fractions and large numbers.
    private static func randomValue(_ random: inout SeededGenerator, depth: Int) -> JSONValue {
        let alphabet: [String] = ["a", "Z", " ", "\"", "\\", "/", "\n", "\r", "\t", "\u{0}", "\u{1F}", "\u{7F}",
            "\u{85}", "\u{A0}", "é", "\u{2028}", "\u{FEFF}", "日", "😀", "{", "}", "[", "]", ":", ","]
        switch Int.random(in: 0..<(depth > 0 ? 8 : 6), using: &random) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2: return .int(Int.random(in: Int.min...Int.max, using: &random) >> Int.random(in: 0..<64, using: &random))
        case 3: return .double(Double(Int.random(in: -99_999...99_999, using: &random)) / 64)
        case 4, 5:
            return .string((0..<Int.random(in: 0..<12, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
                .joined())
        case 6:
            return .array((0..<Int.random(in: 0..<4, using: &random)).map { _ in randomValue(&random, depth: depth - 1) })
        default:
            return .object((0..<Int.random(in: 0..<4, using: &random)).map { index in
                ("k\(index)\(alphabet.randomElement(using: &random)!)", randomValue(&random, depth: depth - 1))
            })
        }
    }

    @Test func whatJSONValueAndFoundationWriteReadsBackTheSame() throws {
        var random = SeededGenerator(seed: 0x5EED_7A1E)
        var compared = 0
        for _ in 0..<500 {
            let value = Self.randomValue(&random, depth: 4)
            // Ours, on one line and indented.
            #expect(try JSONReader.value(of: Array(value.text.utf8)).text == value.text)
            #expect(try JSONReader.value(of: value.indentedBytes).text == value.text)
            // Foundation's spelling of the same value (`\/`, its own escapes and number forms) reads as Foundation
            // reads it. Not with U+FEFF in a string: JSONSerialization drops it when it starts a string or follows an
            // escape, which this reader does not.
            guard !value.text.contains(#"\ufeff"#) else { continue }
            let foundation = try JSONSerialization.data(withJSONObject: [try JSONSerialization.jsonObject(
                with: Data(value.text.utf8), options: .fragmentsAllowed)])
            let ours = try JSONReader.value(of: [UInt8](foundation))
            let again = try JSONSerialization.jsonObject(with: Data(ours.text.utf8)) as? NSArray
            let expected = try JSONSerialization.jsonObject(with: foundation) as? NSArray
            #expect(again == expected, "\(String(decoding: foundation, as: UTF8.self))")
            compared += 1
        }
        #expect(compared >= 200, "only \(compared) values compared with Foundation")
    }

    @Test func everyCutOfAValidFileIsRefusedAndNoneCrashes() {
        let history = LaunchHistory(count: 12, installVersion: "1.0", firstLaunchDate: Date(timeIntervalSince1970: 0),
            latest: LaunchRecord(version: "2.0 \"beta\"", build: "200", date: Date(timeIntervalSince1970: 86_400),
                kind: .upgrade, previousVersion: "1.9", process: "p é"))
        let bytes = [UInt8](history.fileData())
        #expect(reason(bytes) == nil)
        for end in 0..<bytes.count - 1 {  // the last byte is the line break, which JSON does not need
            #expect(reason(Array(bytes[..<end])) != nil, "cut at \(end)")
        }
    }
}

/// The state files as files: what older versions wrote reads back, and what this one writes is JSON any reader takes.
@Suite struct StateFileTests {
    /// A launch history as versions before this one wrote it, through `JSONEncoder` with sorted keys and escaped
    /// slashes left out.
    private struct EncodedHistory: Codable {
        struct Latest: Codable {
            var version: String, build: String?, date: String?, kind: String
            var previousVersion: String?, previousBuild: String?, previousLaunchDate: String?, process: String?
        }
        var format = 1, count: Int, installVersion: String?, firstLaunchDate: String?, latest: Latest?

        init(_ history: LaunchHistory) {
            count = history.count
            installVersion = history.installVersion
            firstLaunchDate = history.firstLaunchDate.map(Timestamp.text)
            latest = history.latest.map {
                Latest(version: $0.version, build: $0.build, date: $0.date.map(Timestamp.text), kind: $0.kind.rawValue,
                    previousVersion: $0.previousVersion, previousBuild: $0.previousBuild,
                    previousLaunchDate: $0.previousLaunchDate.map(Timestamp.text), process: $0.process)
            }
        }
    }

    private static let histories: [LaunchHistory] = {
        let odd = ["", "a/b\\c", "\"quoted\"", "tab\there\nline", "\u{1}\u{1F}\u{7F}", "é 日本 😀", "\u{2028}\u{FEFF}"]
        var histories = [LaunchHistory(), LaunchHistory(count: Int.max), LaunchHistory(count: 1, installVersion: "1.0")]
        for (index, text) in odd.enumerated() {
            histories.append(LaunchHistory(count: index, installVersion: text,
                firstLaunchDate: Date(timeIntervalSince1970: 1_700_000_000.125 + Double(index)),
                latest: LaunchRecord(version: text, build: index.isMultiple(of: 2) ? nil : text,
                    date: Date(timeIntervalSince1970: 1_800_000_000), kind: LaunchKind.allCases[index % 4],
                    previousVersion: text, previousBuild: text, previousLaunchDate: nil, process: text)))
        }
        return histories
    }()

    @Test func historiesWrittenByEarlierVersionsReadBack() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        for history in Self.histories {
            for encoded in [try encoder.encode(EncodedHistory(history)), try JSONEncoder().encode(EncodedHistory(history))] {
                #expect(try LaunchHistory(fileData: encoded) == history, "\(String(decoding: encoded, as: UTF8.self))")
            }
        }
    }

    @Test func historiesWrittenNowReadBackHereAndInFoundation() throws {
        for history in Self.histories {
            let data = history.fileData()
            #expect(try LaunchHistory(fileData: data) == history)
            let decoded = try JSONDecoder().decode(EncodedHistory.self, from: data)
            #expect(decoded.installVersion == history.installVersion)
            #expect(decoded.latest?.process == history.latest?.process)
            #expect(decoded.count == history.count)
        }
    }

    @Test func aHistoryIsWrittenOneFieldALineWithUnknownValuesLeftOut() {
        let history = LaunchHistory(count: 2, installVersion: "1.0", latest: LaunchRecord(version: "1.1", kind: .upgrade))
        #expect(String(decoding: history.fileData(), as: UTF8.self) == """
            {
              "format": 1,
              "count": 2,
              "installVersion": "1.0",
              "latest": {
                "version": "1.1",
                "kind": "upgrade"
              }
            }

            """)
    }

    /// A problem, its code, and its range, marked `⟦…⟧` in the file: the value at fault, the second of two keys, the
    /// object a key is missing from.
    @Test(arguments: [
        (#"{"format": 1, "count": 3, "latest": ⟦{"kind": "normal"}⟧}"#, #"the key "latest.version" is missing"#,
            DiagnosticCode.stateMissingKey),
        (#"{"format": 1, "count": 3, "latest": {"version": ⟦1⟧, "kind": "normal"}}"#,
            "latest.version is a whole number, not a string", .stateWrongType),
        (#"{"format": 1, "count": ⟦"3"⟧}"#, "count is a string, not a whole number", .stateWrongType),
        (#"{"format": 1, "count": ⟦3.5⟧}"#, "count is a number with a fraction, not a whole number", .stateWrongType),
        (#"⟦{"format": 1, "count": null}⟧"#, #"the key "count" is missing"#, .stateMissingKey),
        (#"{"format": 1, "count": 3, "latest": ⟦[]⟧}"#, "latest is an array, not an object", .stateWrongType),
        (#"{"format": 1, "count": 3, ⟦"count"⟧: 4}"#, #"the key "count" appears twice"#, .stateDuplicateKey),
        (#"⟦{"count": 3}⟧"#, #"the key "format" is missing"#, .stateMissingKey),
        (#"{"format": ⟦"1"⟧, "count": 3}"#, "format is a string, not a whole number", .stateWrongType),
        (#"{"format": ⟦2⟧, "count": 3}"#, "it has format 2; this version of LaunchPolicy reads format 1",
            .stateUnsupportedFormat),
        (#"{"format": 1, "count": ⟦-1⟧}"#, "count -1 is negative", .stateInvalidValue),
        (#"{"format": 1, "count": 3, "latest": {"version": "1", "kind": "normal", "date": ⟦"soon"⟧}}"#,
            #"latest.date "soon" is not an ISO 8601 date and time"#, .stateInvalidValue),
        (#"{"format": 1, "count": 3, "latest": {"version": "1", "kind": ⟦"sideways"⟧}}"#,
            #"latest.kind "sideways" is not first, upgrade, downgrade or normal"#, .stateInvalidValue),
        (#"⟦["format", 1]⟧"#, "it holds an array, not an object", .stateWrongType),
    ])
    func aFileOfTheWrongShapeSaysWhichFieldAndWhere(marked: String, reason: String, code: DiagnosticCode) throws {
        let text = marked.replacingOccurrences(of: "⟦", with: "").replacingOccurrences(of: "⟧", with: "")
        let problem = #expect(throws: StateFileProblem.self) { try LaunchHistory(fileData: Data(text.utf8)) }
        #expect(problem?.reason == reason)
        #expect(problem?.code == code)
        let range = try #require(problem?.diagnostic().range)
        let bytes = Array(text.utf8)
        let placed = String(decoding: bytes[..<range.start.offset], as: UTF8.self) + "⟦"
            + String(decoding: bytes[range.start.offset..<range.end.offset], as: UTF8.self) + "⟧"
            + String(decoding: bytes[range.end.offset...], as: UTF8.self)
        #expect(placed == marked)
        #expect(range.start.line == 1 && range.start.column == range.start.offset + 1, "\(range)")
    }

    @Test func aFieldIsFoundOnItsLineBehindABOMAndTextThatIsNotASCII() throws {
        let text = "\u{FEFF}{\n  \"format\": 1,\n  \"note\": \"é😀\", \"count\": true\n}\n"
        let problem = #expect(throws: StateFileProblem.self) { try LaunchHistory(fileData: Data(text.utf8)) }
        let range = try #require(problem?.range)
        #expect(range.start.line == 3)
        #expect(range.start.column == 26, "columns count characters; the mark at the start counts in none")
        #expect(range.end.column == 30)
        #expect(range.start.offset == Array(text.utf8).count - 7)
    }

    @Test func textThatIsNotJSONIsPlacedWhereItStopsBeingJSON() throws {
        let problem = #expect(throws: StateFileProblem.self) {
            try LaunchHistory(fileData: Data("{\"format\": 1,\n \"count\": 3,,\n}".utf8))
        }
        #expect(problem?.code == .stateNotJSON)
        #expect(problem?.message == #"it is not valid JSON: unexpected "," where a key should start"#)
        #expect(problem?.reason
            == #"it is not valid JSON: unexpected "," where a key should start at line 2, column 13"#)
        #expect(problem?.range?.start == SourceLocation(line: 2, column: 13, offset: 26))
        let empty = #expect(throws: StateFileProblem.self) { try LaunchHistory(fileData: Data()) }
        #expect(empty?.code == .stateNotJSON)
        #expect(empty?.range == nil && empty?.diagnostic().range == .wholeInputStart)
    }

    @Test func fieldsANewerVersionAddsAndNullsAreReadAsAbsent() throws {
        let text = #"{"format": 1, "count": 3, "installVersion": null, "later": {"x": [1]}, "latest": null}"#
        #expect(try LaunchHistory(fileData: Data(text.utf8)) == LaunchHistory(count: 3))
    }
}

/// Reading a file no further than a limit.
@Suite struct BoundedReadTests {
    @Test func aRegularFileIsReadToTheLimitAndItsWholeSizeTold() throws {
        let folder = try makeTemporaryFolder("bounded-read")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("f")
        try Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0) }).write(to: url)
        let cut = try AtomicFile.contents(of: url, readingAtMost: 70_000)
        #expect(cut.bytes == (0..<70_000).map { UInt8(truncatingIfNeeded: $0) })
        #expect(cut.size == 200_000)
        let whole = try AtomicFile.contents(of: url, readingAtMost: 1 << 20)
        #expect(whole.bytes.count == 200_000 && whole.size == 200_000)
        #expect(throws: (any Error).self) { try AtomicFile.contents(of: folder, readingAtMost: 10) }
        #expect(throws: (any Error).self) {
            try AtomicFile.contents(of: folder.appendingPathComponent("no"), readingAtMost: 10)
        }
    }

    @Test func aUserFileIsReplacedWholeAndKeepsWhatItIs() throws {
        let folder = try makeTemporaryFolder("replace")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("p.yaml")
        try Data("old".utf8).write(to: url)
        #expect(chmod(url.path, 0o604) == 0)
        try AtomicFile.replaceContents(of: url, with: Array("new text".utf8))
        #expect(try Data(contentsOf: url) == Data("new text".utf8))
        var status = stat()
        #expect(stat(url.path, &status) == 0 && status.st_mode & 0o7777 == 0o604)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["p.yaml"],
            "no file left beside it")
        // A file that no longer holds the text the new one was made from is left as it is.
        #expect(throws: AtomicFile.ChangedMeanwhile.self) {
            try AtomicFile.replaceContents(of: url, with: Array("fixed".utf8), ifStill: Array("new tex".utf8))
        }
        try AtomicFile.replaceContents(of: url, with: Array("fixed".utf8), ifStill: Array("new text".utf8))
        #expect(try Data(contentsOf: url) == Data("fixed".utf8))
        // Another user's file stays theirs, where the writer may give it to them (root).
        if getuid() == 0 {
            #expect(chown(url.path, 4321, 4322) == 0)
            try AtomicFile.replaceContents(of: url, with: Array("theirs".utf8))
            #expect(stat(url.path, &status) == 0 && status.st_uid == 4321 && status.st_gid == 4322)
            #expect(status.st_mode & 0o7777 == 0o604)
        }
        // A file with another name (a hard link) is left as it is: the other name would keep the old text.
        let other = folder.appendingPathComponent("other.yaml")
        #expect(link(url.path, other.path) == 0)
        #expect {
            try AtomicFile.replaceContents(of: url, with: Array("split".utf8))
        } throws: { error in
            AtomicFile.reason(error)
                == "it has 2 names (hard links), and the others would keep the old text; fix it by hand"
        }
        #expect(try Data(contentsOf: url) == Data(contentsOf: other))
        #expect(unlink(other.path) == 0)
        // What is not a file is refused, and nothing is left behind.
        #expect(throws: (any Error).self) { try AtomicFile.replaceContents(of: folder, with: []) }
        #expect(throws: (any Error).self) {
            try AtomicFile.replaceContents(of: folder.appendingPathComponent("missing.yaml"), with: [])
        }
        #expect(mkfifo(folder.appendingPathComponent("pipe.yaml").path, 0o600) == 0)
        #expect(throws: (any Error).self) {
            try AtomicFile.replaceContents(of: folder.appendingPathComponent("pipe.yaml"), with: [])
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["p.yaml", "pipe.yaml"])
    }

    @Test func aUserFileKeepsItsExtendedAttributes() throws {
        let folder = try makeTemporaryFolder("attributes")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("p.yaml")
        try Data("old".utf8).write(to: url)
        let key = FileAttributeKey("NSFileExtendedAttributes")
        // Finder's tags on a Mac, a user attribute here; a value that is not text, a long one, and one with nothing
        // in it.
        let given: [String: Data] = [
            "user.xdg.tags": Data("release,ios".utf8), "user.checksum": Data([0, 0xff, 0x80, 10]),
            "user.long": Data((0..<2_000).map { UInt8(truncatingIfNeeded: $0 * 7) }), "user.empty": Data(),
        ]
        do {
            try FileManager.default.setAttributes([key: given], ofItemAtPath: url.path)
        } catch {
            // Not every file system keeps user attributes (tmpfs before Linux 6.6): nothing to keep there.
            Issue.record(Comment(rawValue: "this file system keeps no user attributes: \(error)"), severity: .warning)
            return
        }
        func attributes() -> [String: Data] {
            // Foundation's list leaves out an attribute with nothing in it.
            Dictionary(uniqueKeysWithValues: AtomicFile.extendedAttributes(ofFileAt: url.path).map {
                (String(decoding: $0.name.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self), Data($0.value))
            })
        }
        let before = attributes()
        #expect(before == given)
        try AtomicFile.replaceContents(of: url, with: Array("new text".utf8))
        #expect(try Data(contentsOf: url) == Data("new text".utf8))
        #expect(attributes() == before)
        // Through a link too: the file it names keeps them, and the link is still a link.
        let link = folder.appendingPathComponent("link.yaml")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: url)
        try AtomicFile.replaceContents(of: link, with: Array("fixed".utf8))
        #expect(try Data(contentsOf: url) == Data("fixed".utf8))
        #expect(attributes() == before)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == url.path)
    }

    #if os(Linux)
    @Test func aFileThatSaysItIsEmptyIsReadAllTheSame() throws {
        // /proc's files report a size of 0 and hold text: read in steps until the end or the limit.
        let all = try AtomicFile.contents(of: URL(fileURLWithPath: "/proc/self/status"), readingAtMost: 1 << 20)
        #expect(String(decoding: all.bytes, as: UTF8.self).hasPrefix("Name:"))
        #expect(all.bytes.count > 100 && all.size == all.bytes.count)
        let cut = try AtomicFile.contents(of: URL(fileURLWithPath: "/proc/self/status"), readingAtMost: 10)
        #expect(cut.bytes == Array(all.bytes.prefix(10)) && cut.size == nil)
        // /proc/kallsyms holds megabytes and gives about a page a read: a short read is not its end.
        let symbols = URL(fileURLWithPath: "/proc/kallsyms")
        guard FileManager.default.isReadableFile(atPath: symbols.path) else { return }
        let many = try AtomicFile.contents(of: symbols, readingAtMost: 200_000)
        #expect(many.bytes.count == 200_000 && many.size == nil)
        #expect(many.bytes.filter { $0 == UInt8(ascii: "\n") }.count > 1_000)
    }
    #endif
}
