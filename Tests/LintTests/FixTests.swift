import Foundation
import LaunchPolicy
import Testing
import TestSupport

/// Fix-its as `policy-lint --fix` applies them: placed by byte, each once, none over another; what they write reads
/// back as the text it replaces, in YAML and in JSON; and a file is fixed pass after pass until nothing is left.
@Suite struct FixTests {
    private func fixIt(_ start: Int, _ end: Int, _ replacement: String) -> FixIt {
        FixIt(range: SourceRange(start: SourceLocation(line: 1, column: start + 1, offset: start),
            end: SourceLocation(line: 1, column: end + 1, offset: end)), replacement: replacement, message: "fix")
    }

    /// What `PolicyLinter.fix(fileAt:)` makes of `text` written to a file named `name`.
    private func fix(_ text: String, as name: String, passes: Int = 8) throws -> LintFix {
        let folder = try makeTemporaryFolder("fix")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return PolicyLinter(now: lintNow).fix(fileAt: file, path: name, passes: passes)
    }

    private func applied(_ fixIts: [FixIt], to text: String) -> (text: String, count: Int) {
        let result = FixIt.apply(fixIts, to: Array(text.utf8))
        return (String(decoding: result.text, as: UTF8.self), result.applied.count)
    }

    @Test func fixItsApplyInTheOrderOfTheTextWhateverTheOrderGiven() {
        #expect(applied([fixIt(6, 8, "\"no\""), fixIt(0, 1, "b")], to: "a: x, no") == ("b: x, \"no\"", 2))
        // Adjacent ranges, and an insertion where a replacement ends.
        #expect(applied([fixIt(0, 1, "A"), fixIt(1, 2, "B"), fixIt(2, 2, "+")], to: "abc") == ("AB+c", 3))
    }

    @Test func aFixItOverAnotherIsLeftForTheNextPass() {
        #expect(applied([fixIt(0, 3, "X"), fixIt(2, 4, "Y")], to: "abcdef") == ("Xdef", 1))
        // Two insertions at one place: which goes first is not known, so only the first given is applied.
        #expect(applied([fixIt(1, 1, "1"), fixIt(1, 1, "2")], to: "ab") == ("a1b", 1))
    }

    @Test func theSameFixItTwiceIsAppliedOnce() {
        #expect(applied([fixIt(3, 5, "\"no\""), fixIt(3, 5, "\"no\"")], to: "a: no") == ("a: \"no\"", 1))
    }

    @Test func aFixItThatChangesNothingOrLiesOutsideTheTextIsNotApplied() {
        let text = "é: x"
        #expect(applied([fixIt(4, 5, "x")], to: text) == (text, 0), "the same text")
        #expect(applied([fixIt(4, 9, "y")], to: text) == (text, 0), "past the end")
        #expect(applied([fixIt(1, 2, "e")], to: text) == (text, 0), "starts inside é")
        #expect(applied([fixIt(0, 1, "e")], to: text) == (text, 0), "ends inside é")
        #expect(applied([fixIt(3, 1, "e")], to: text) == (text, 0), "ends before it starts")
        #expect(applied([fixIt(0, 2, "e")], to: text) == ("e: x", 1))
    }

    /// Texts a message may hold that a fix-it must write back as they are: quotes, escapes, line breaks, YAML's
    /// indicators, spaces at either end, characters of several bytes and Unicode's line breaks.
    static let texts = [
        "Say \"hi\"", "back\\slash", "tab\there", "line 1\nline 2\n", "#not a comment", "key: value", "  leading",
        "trailing  ", "ünïcødé 🙂", "next\u{85}line", "separator\u{2028}here", "[brackets], {braces}", "'single'",
        "%percent", "@at `tick`", "*star &amp !bang", "|pipe >gt", "- dash", "? question", "", "no", "1.10",
    ]

    /// Each text written as a message that is not a mapping, in the ways YAML and JSON write it; the fix-it makes it
    /// the message's default text, which must read back as the same text.
    @Test(arguments: texts)
    func aMessageMadeTheDefaultTextReadsBackAsWritten(text: String) throws {
        let json = String(decoding: try JSONSerialization.data(withJSONObject: [text], options: .fragmentsAllowed),
            as: UTF8.self).dropFirst().dropLast()
        // Unicode's line breaks escaped, as YAML reads them raw as line breaks.
        let escaped = json.replacingOccurrences(of: "\u{85}", with: "\\u0085")
            .replacingOccurrences(of: "\u{2028}", with: "\\u2028")
        var writings = ["  m: \(escaped)\n"]
        if !text.isEmpty, !text.hasPrefix(" "), !text.contains("\u{85}"), !text.contains("\u{2028}") {
            // A literal block scalar, its last line break kept or not as the text has one.
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            let body = (text.hasSuffix("\n") ? lines.dropLast() : lines[...]).map { "    " + $0 }
            writings.append("  m: |\(text.hasSuffix("\n") ? "" : "-")\n" + body.joined(separator: "\n") + "\n\n")
        }
        for writing in writings {
            let policy = "policy: 1\nmessages:\n" + writing
                + "rules:\n  - {id: r, when: {platform: ios}, then: notify, message: m}\n"
            let linter = PolicyLinter(now: lintNow)
            let report = linter.lint(Array(policy.utf8), path: "p.yaml")
            let original = try #require(YAMLReader().read(policy).root?["messages"]?["m"]?.text)
            #expect(original == text, "\(policy.debugDescription) is not the text meant")
            let fixed = FixIt.apply(report.diagnostics.compactMap(\.fixIt), to: report.source)
            let parsed = YAMLPolicyParser().parse(Data(fixed.text))
            let message = parsed.policy?.messages.first { $0.id == "m" }
            #expect(message?.translations["default"] == text,
                "\(String(decoding: fixed.text, as: UTF8.self).debugDescription): \(parsed.diagnostics)")
            #expect(!parsed.diagnostics.containsErrors)
        }
    }

    /// A scalar where only a list belongs becomes a list of that one scalar, whatever it holds.
    @Test(arguments: ["ios", "ios, android", "\"ios\"", "'a # b'", "x]"])
    func aScalarMadeAListIsAListOfThatScalar(written: String) throws {
        let policy = "policy: 1\nrules:\n  - id: r\n    when:\n      any: \(written)\n    then: block\n"
        let tree = YAMLReader().read(policy)
        let original = try #require(tree.root?["rules"]?.sequence?.first?["when"]?["any"]?.text)
        let report = PolicyLinter(now: lintNow).lint(Array(policy.utf8), path: "p.yaml")
        let fixed = FixIt.apply(report.diagnostics.compactMap(\.fixIt), to: report.source)
        let reread = YAMLReader().read(fixed.text)
        let list = try #require(reread.root?["rules"]?.sequence?.first?["when"]?["any"]?.sequence)
        #expect(list.map(\.text) == [original])
    }

    /// A block scalar written at the start of the line after its key (`tests:`, then `|-`), which libyaml reads and
    /// YAML 1.2 does not, is replaced a space in: at the key's column, the list would start the next key. Found by the
    /// fuzzer (`Fuzz/regressions/block-scalar-at-its-keys-column.yaml`).
    @Test(arguments: ["|-\n  x\n", ">\n  x\n", "|\n  \tx\n"])
    func aBlockScalarAtItsKeysColumnMadeAListReadsBack(written: String) throws {
        let policy = "policy: 1\nrules: []\ntests:\n" + written
        let report = PolicyLinter(now: lintNow).lint(Array(policy.utf8), path: "p.yaml")
        let fixIt = try #require(report.diagnostics.first { $0.code == .policyWrongType }?.fixIt)
        #expect(fixIt.replacement.hasPrefix(" "))
        let reread = YAMLReader().read(FixIt.apply([fixIt], to: report.source).text)
        #expect(reread.diagnostics.isEmpty, "\(reread.diagnostics)")
        let original = try #require(YAMLReader().read(policy).root?["tests"]?.text)
        #expect(reread.root?["tests"]?.sequence?.map(\.text) == [original])
        // On its key's line, no space is added.
        let inline = PolicyLinter(now: lintNow).lint(Array("policy: 1\nrules: []\ntests: |-\n  x\n".utf8), path: "p")
        #expect(inline.diagnostics.first { $0.code == .policyWrongType }?.fixIt?.replacement == "[x]")
    }

    /// The same at a nested key's column (`      any:`, then `      |-`), which the column alone does not tell from a
    /// header after its key on the key's line: the reader says whether a node starts its line. Indented past its key,
    /// the header reads the same with or without the space; after its key on the key's line, it gets none.
    @Test(arguments: ["|-\n        ios\n", ">\n        ios\n", "|\n        \tios\n"])
    func aBlockScalarAtANestedKeysColumnMadeAListReadsBack(written: String) throws {
        let atKeysColumn = "policy: 1\nrules:\n  - id: r\n    when:\n      any:\n      \(written)    then: block\n"
        let path: (YAMLNode?) -> YAMLNode? = { $0?["rules"]?.sequence?.first?["when"]?["any"] }
        for policy in [atKeysColumn, atKeysColumn.replacingOccurrences(of: "any:\n      ", with: "any:\n        "),
            atKeysColumn.replacingOccurrences(of: "any:\n      ", with: "any: ")] {
            let original = try #require(path(YAMLReader().read(policy).root)?.text)
            let report = PolicyLinter(now: lintNow).lint(Array(policy.utf8), path: "p.yaml")
            let fixIt = try #require(report.diagnostics.first { $0.code == .policyWrongType }?.fixIt)
            #expect(fixIt.replacement.hasPrefix(" ") == !policy.contains("any: "), "\(policy)")
            let reread = YAMLReader().read(FixIt.apply([fixIt], to: report.source).text)
            #expect(reread.diagnostics.isEmpty, "\(policy) \(reread.diagnostics)")
            #expect(path(reread.root)?.sequence?.map(\.text) == [original], "\(policy)")
        }
    }

    /// A key's replacement that would put its `:` more than 1,024 characters from the key's start, past which YAML no
    /// longer reads an implicit key, is not offered: quoted, a long key's escapes are written out. Found by the fuzzer
    /// (`Fuzz/regressions/long-key-quoted.yaml`): a tagged key of 1,018 characters with a NEL in it, quoted, no longer
    /// read as a key, and the fixed file did not read. The blanks before the `:` count too.
    @Test(arguments: [(900, 0, true), (1_000, 0, true), (1_000, 13, true), (1_000, 14, false), (1_000, 20, false),
        (1_017, 0, false)])
    func aKeyIsNotQuotedPastTheLengthOfAnImplicitKey(letters: Int, blanks: Int, fixed: Bool) throws {
        // The key is `letters` + 4 characters, which with the blanks YAML reads within 1,024; quoted, `! ` is text,
        // the NEL is written `\u0085` and two quotes are added: 7 more.
        let key = "! " + String(repeating: "a", count: letters) + "\u{85}b"
        let policy = key + String(repeating: " ", count: blanks) + ": 1\npolicy: 1\nrules: []\n"
        let report = PolicyLinter(now: lintNow).lint(Array(policy.utf8), path: "p.yaml")
        #expect(report.diagnostics.contains { $0.code == .policyUnexpectedTag }, "\(report.diagnostics)")
        let fixIts = report.diagnostics.compactMap(\.fixIt)
        #expect(fixIts.isEmpty == !fixed)
        let reread = YAMLReader().read(FixIt.apply(fixIts, to: report.source).text)
        #expect(reread.diagnostics.isEmpty, "\(reread.diagnostics)")
        #expect(reread.root?.mapping?.first?.key.text == (fixed ? key : String(key.dropFirst(2))))
    }

    /// A node's range begins at its anchor: a fix-it keeps the anchor, which aliases elsewhere name.
    @Test func aFixedValueKeepsItsAnchor() throws {
        let policy = """
            policy: 1
            messages:
              m: &text Closed for today.
              n: *text
            rules:
              - {id: r, when: {platform: ios, app-version: &v 1.10}, then: block, message: m}
              - {id: s, when: {platform: android, app-version: *v}, then: block, message: n}

            """
        let report = PolicyLinter(now: lintNow).lint(Array(policy.utf8), path: "p.yaml")
        let fixed = FixIt.apply(report.diagnostics.compactMap(\.fixIt), to: report.source)
        let text = String(decoding: fixed.text, as: UTF8.self)
        #expect(text.contains("m: &text {default: \"Closed for today.\"}"), "\(text)")
        #expect(text.contains("app-version: &v \"1.10\"}"), "\(text)")
        let parsed = YAMLPolicyParser().parse(Data(fixed.text))
        #expect(!parsed.diagnostics.containsErrors, "\(parsed.diagnostics)")
        #expect(parsed.policy?.messages.map { $0.translations["default"] }
            == ["Closed for today.", "Closed for today."])
        #expect(parsed.policy?.rules.count == 2)
    }

    /// A value with nothing written (`{m}`, `m:`) gets no fix-it: text put where it would be could change how the
    /// rest reads. Found by the fuzzer (`Fuzz/regressions/fix-it-at-an-empty-value.yaml`): the message's default
    /// text put before the `}` of `messages: {m}` made the file unreadable.
    @Test(arguments: ["messages: {m}\n", "messages:\n  m:\n", "messages: {m: }\n"])
    func aValueWithNothingWrittenGetsNoFixIt(messages: String) throws {
        let policy = "policy: 1\n" + messages + "rules: []\n"
        let diagnostics = lint(policy)
        #expect(findings(.policyWrongType, diagnostics).count == 1, "\(diagnostics)")
        #expect(diagnostics.allSatisfy { $0.fixIt == nil }, "\(diagnostics)")
    }

    @Test func aTagReadIntoAValueIsQuotedWithIt() throws {
        let policy = "policy: 1\nrules:\n  - {id: r, when: {app-version: !beta \"< 2\"}, then: block}\n"
        let report = PolicyLinter(now: lintNow).lint(Array(policy.utf8), path: "p.yaml")
        let fixed = FixIt.apply(report.diagnostics.compactMap(\.fixIt), to: report.source)
        #expect(String(decoding: fixed.text, as: UTF8.self).contains(#"{app-version: "!beta < 2"}"#))
    }

    @Test func aFileIsFixedPassAfterPassUntilNothingIsLeft() throws {
        // The key's typo hides the rule; once renamed, the action's typo and the unquoted version are found.
        let policy = """
            policy: 1
            messages: {m: {default: "Closed."}}
            rulse:
              - id: r
                when: {platform: ios, app-version: 1.10}
                then: blok
                message: m

            """
        let folder = try makeTemporaryFolder("fix")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("p.yaml")
        try Data(policy.utf8).write(to: file)
        let linter = PolicyLinter(now: lintNow)
        let fixed = linter.fix(fileAt: file, path: "p.yaml")
        #expect(String(decoding: fixed.report.source, as: UTF8.self) == """
            policy: 1
            messages: {m: {default: "Closed."}}
            rules:
              - id: r
                when: {platform: ios, app-version: "1.10"}
                then: block
                message: m

            """)
        #expect(fixed.applied.map(\.message) == ["rename to \"rules\"", "quote it", "use \"block\""])
        #expect(fixed.changed)
        // What is left has no fix-it: a partial version is for a person to write in full.
        #expect(fixed.report.diagnostics.map(\.code) == [.lintAmbiguousVersion], "\(fixed.report.diagnostics)")
        #expect(try Data(contentsOf: file) == Data(policy.utf8), "fixing writes nothing")
        // One pass fixes only what the first lint found (the unquoted version is found in any key).
        let once = linter.fix(fileAt: file, path: "p.yaml", passes: 1)
        #expect(once.applied.map(\.message) == ["rename to \"rules\"", "quote it"])
        #expect(once.report.diagnostics.compactMap(\.fixIt).map(\.message) == ["use \"block\""])
        // A clean file is left as it is.
        try fixed.report.source.withUnsafeBytes { try Data($0).write(to: file) }
        #expect(!linter.fix(fileAt: file, path: "p.yaml").changed)
    }

    /// The bytes of a policy are fixed as a file of them is: an editor's buffer has no file.
    @Test func bytesAreFixedAsAFileOfThemIs() throws {
        let text = "policy: 1\nmessages: {m: {default: Hi.}}\n"
            + "rulse:\n  - {id: r, wehn: {app-version: 1.10}, then: block, message: m}\n"
        let file = try fix(text, as: "p.yaml")
        let bytes = PolicyLinter(now: lintNow).fix(Array(text.utf8), path: "p.yaml")
        #expect(file.applied.map(\.message) == ["rename to \"rules\"", "quote it", "rename to \"when\""])
        #expect(bytes.applied == file.applied)
        #expect(bytes.report.source == file.report.source && bytes.report.diagnostics == file.report.diagnostics)
        #expect(bytes.original == Array(text.utf8))
    }

    /// A report stops at 500 problems, but a fix looks at all of them: what comes after 500 that no fix-it resolves
    /// is fixed too, and the report returned is the one a lint of the fixed text makes.
    @Test func problemsPastTheFirst500AreFixedToo() throws {
        // Two problems a rule, the first without a fix-it (a notify rule needs a message), the second `wehn`.
        let text = "policy: 1\nrules:\n"
            + (0..<600).map { "  - {id: r\($0), then: notify, wehn: {platform: ios}}\n" }.joined()
        let linter = PolicyLinter(now: lintNow)
        let fixed = linter.fix(Array(text.utf8), path: "p.yaml", passes: 1)
        #expect(fixed.applied.count == 600)
        #expect(fixed.applied.allSatisfy { $0.message == "rename to \"when\"" })
        let codes = fixed.report.diagnostics.map(\.code)
        #expect(codes == Array(repeating: .policyMissingKey, count: 500) + [.policyTooManyProblems])
        #expect(fixed.report.diagnostics == linter.lint(fixed.report.source, path: "p.yaml").diagnostics)
        // The same from a file.
        let file = try fix(text, as: "p.yaml", passes: 1)
        #expect(file.applied == fixed.applied && file.report.diagnostics == fixed.report.diagnostics)
        // No pass asked for, none taken (a negative count is no range to loop over).
        #expect(!linter.fix(Array(text.utf8), path: "p.yaml", passes: -1).changed)
    }

    /// A test file's problems are looked at whole too.
    @Test func aTestFilesProblemsPastTheFirst500AreFixedToo() throws {
        let folder = try makeTemporaryFolder("fix")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("policy: 1\nrules: []\n".utf8).write(to: folder.appendingPathComponent("p.yaml"))
        // An invalid gate (no fix-it), then a misspelt `context`.
        let tests = "tests:\n"
            + (0..<600).map { "  - {name: t\($0), expect: {gate: zzz}, contxt: {platform: ios}}\n" }.joined()
        let file = folder.appendingPathComponent("p.tests.yaml")
        try Data(tests.utf8).write(to: file)
        let linter = PolicyLinter(now: lintNow)
        let fixed = linter.fix(fileAt: file, path: "p.tests.yaml", passes: 1)
        #expect(fixed.applied.count == 600)
        #expect(fixed.report.diagnostics.map(\.code)
            == Array(repeating: .policyInvalidValue, count: 500) + [.policyTooManyProblems])
    }

    /// Renamed to a key its mapping already has, an entry would be a key written twice: no such name is suggested.
    @Test func aKeyTheMappingHasIsNotSuggested() {
        let policy = """
            policy: 1
            messages: {m: {default: "Closed."}}
            rules: []
            rulse:
              - {id: r, when: {platform: ios, platfrom: android}, then: block, message: m}

            """
        let diagnostics = lint(policy)
        let unknown = findings(.policyUnknownKey, diagnostics)
        #expect(unknown.map(\.message) == [
            "a policy has no key \"rulse\"; known keys: policy, id, versioning, store, messages, rules, tests",
        ])
        #expect(unknown.allSatisfy { $0.fixIt == nil })
        let conditions = lint("policy: 1\nrules:\n  - {id: r, when: {platform: ios, platfrom: android}, then: block}\n")
        #expect(findings(.policyUnknownKey, conditions).map(\.fixIt?.replacement) == [nil])
        let alone = lint("policy: 1\nrules:\n  - {id: r, when: {platfrom: android}, then: block}\n")
        #expect(findings(.policyUnknownKey, alone).map(\.fixIt?.replacement) == ["platform"])
        // Two keys meant to be one: renaming both would write it twice, so neither is renamed.
        let twice = lint("policy: 1\nrules:\n  - {id: r, when: {platfrom: android, plattform: ios}, then: block}\n")
        #expect(findings(.policyUnknownKey, twice).map(\.fixIt?.replacement) == [nil, nil])
    }

    /// Quoting makes a file longer: a pass that would take it past the reader's limit, so that the reader refused
    /// the file as fixed, is not taken.
    @Test func aFixThatTheReaderWouldRefuseIsNotMade() throws {
        let policy = "policy: 1\nrules: []\ntests: []\nnotes: [1.10, 1.20, 1.30, 1.40, 1.50, 1.60, 1.70, 1.80]\n"
        let folder = try makeTemporaryFolder("fix")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("p.yaml")
        try Data(policy.utf8).write(to: file)
        var linter = PolicyLinter(now: lintNow)
        linter.limits.maximumInputBytes = policy.utf8.count + 10
        let fixed = linter.fix(fileAt: file, path: "p.yaml")
        #expect(!fixed.changed)
        #expect(fixed.report.source == Array(policy.utf8))
        #expect(findings(.lintRetypedScalar, fixed.report.diagnostics).count == 8)
        // With room for the quotes, the same file is fixed.
        linter.limits.maximumInputBytes = policy.utf8.count + 16
        #expect(linter.fix(fileAt: file, path: "p.yaml").applied.count == 8)
    }

    @Test func onlyWhatTheReportKeepsIsFixed() throws {
        let policy = """
            policy: 1
            rules:
              - id: r
                when: {platform: ios, app-version: 1.10}  # policy-lint: disable=lint.retyped-scalar
                then: blok

            """
        let fixed = try fix(policy, as: "p.yaml")
        #expect(fixed.applied.map(\.message) == ["use \"block\""])
        #expect(String(decoding: fixed.report.source, as: UTF8.self).contains("app-version: 1.10}"))
    }

    /// A misspelt code in a comment is fixed first, in a pass of its own: the check it meant to turn off then has
    /// nothing to fix on its line.
    @Test func aMisspeltCodeInACommentIsFixedBeforeWhatItTurnsOff() throws {
        let policy = """
            policy: 1
            rules:
              - id: r
                when: {platform: ios, app-version: 1.10}  # policy-lint: disable=lint.retyped-scalr
                then: notify
                message: m
            messages: {m: {default: "Hi"}}

            """
        let fixed = try fix(policy, as: "p.yaml")
        #expect(fixed.applied.map(\.message) == ["use \"lint.retyped-scalar\""])
        #expect(String(decoding: fixed.report.source, as: UTF8.self)
            == policy.replacingOccurrences(of: "scalr", with: "scalar"))
        #expect(findings(.lintRetypedScalar, fixed.report.diagnostics).isEmpty, "\(fixed.report.diagnostics)")
    }

    @Test func aJSONFileStaysJSON() throws {
        let policy = """
            {"policy": 1, "messages": {"m": "Update \\"now\\"."},
             "rules": [{"id": "r", "when": {"platfrom": ["ios"]}, "then": "notfy", "message": "m"}]}
            """
        let fixed = try fix(policy, as: "p.json")
        #expect(fixed.applied.count == 3)
        #expect(fixed.report.diagnostics.filter { $0.severity == .error }.isEmpty, "\(fixed.report.diagnostics)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(fixed.report.source)) as? [String: Any])
        #expect((object["messages"] as? [String: [String: String]])?["m"]?["default"] == "Update \"now\".")
        let rule = try #require((object["rules"] as? [[String: Any]])?.first)
        #expect(rule["then"] as? String == "notify")
        #expect((rule["when"] as? [String: Any])?["platform"] as? [String] == ["ios"])
    }

    /// LaunchPolicy reads an unquoted `1.10`, `no` or `010` as the text written; quoting them is for other YAML
    /// tools, and changes nothing the policy decides.
    @Test func quotingWhatOtherToolsRetypeChangesNoDecision() throws {
        let policy = """
            policy: 1
            id: ~
            messages:
              no: {default: "No.", fr: "Non."}
              010: {default: "Ten"}
              1e3: {default: "A thousand"}
            rules:
              - {id: on, when: {platform: ios, app-version: 1.10, locale: fr}, then: notify, message: no}
              - {id: 0x1F, when: {platform: ios, app-version: ">= 1.9"}, then: notify, message: 010, show: every-launch}
              - {id: +1, when: {platform: android, build: "< 010"}, then: block, message: 1e3}

            """
        let report = PolicyLinter(now: lintNow).lint(Array(policy.utf8), path: "p.yaml")
        let quotes = findings(.lintRetypedScalar, report.diagnostics).compactMap(\.fixIt)
        #expect(quotes.count == 11, "\(report.diagnostics.map(\.message))")
        let quoted = FixIt.apply(quotes, to: report.source)
        #expect(quoted.applied.count == quotes.count)
        #expect(findings(.lintRetypedScalar, PolicyLinter(now: lintNow).lint(quoted.text, path: "p.yaml").diagnostics)
            .isEmpty)
        let before = try #require(YAMLPolicyParser().parse(Data(report.source)).usablePolicy)
        let after = try #require(YAMLPolicyParser().parse(Data(quoted.text)).usablePolicy)
        #expect(after.id == "~")
        var decided: [String] = []
        for (platform, version, build, locale) in [
            (Platform.ios, "1.10.3", nil, "fr"), (.ios, "1.9", nil, "en"), (.ios, "1.11", nil, "fr"),
            (.android, "1.0", "9", "en"), (.android, "1.0", "10", "en"),
        ] as [(Platform, String, String?, String)] {
            let context = try LaunchContext(platform: platform, appVersion: version, build: build, locale: locale)
            // What the app acts on (the explanations place entries, which the quotes move).
            let expected = before.evaluate(context), quotedDecision = after.evaluate(context)
            #expect(quotedDecision.shown == expected.shown && quotedDecision.grants == expected.grants,
                "\(platform) \(version)")
            decided.append(expected.shown.map { "\($0.rule): \($0.text ?? "")" }.joined(separator: ", "))
        }
        // The decisions compared are not all alike: the texts are read through the ids quoting changes.
        #expect(decided == ["on: Non., 0x1F: Ten", "0x1F: Ten", "0x1F: Ten", "+1: A thousand", ""])
    }

    /// A configuration's misspelt codes are renamed to the codes they are nearest to, wherever the file names a
    /// code; a code nothing is near is left for a person.
    @Test func aConfigurationIsFixedToTheCodesItMeant() throws {
        let configuration = """
            severity:
              lint.unused-mesage: error
              "lint.lockot": warning
            disable: [lint.shadowed-rul, lint.nothing-like-this-at-all]

            """
        let fixed = LintConfiguration.fix(Array(configuration.utf8), path: ".policy-lint.yaml")
        #expect(String(decoding: fixed.report.source, as: UTF8.self) == """
            severity:
              lint.unused-message: error
              "lint.lockout": warning
            disable: [lint.shadowed-rule, lint.nothing-like-this-at-all]

            """)
        #expect(fixed.applied.count == 3)
        #expect(fixed.report.diagnostics.map(\.message)
            == ["\"lint.nothing-like-this-at-all\" is not a diagnostic code"])
        let read = LintConfiguration.parse(fixed.report.source).configuration
        #expect(read.severities == [.lintUnusedMessage: .error, .lintLockout: .warning])
        #expect(read.disabled == [.lintShadowedRule])
        // Through the linter, a file of that name is fixed as a configuration.
        let folder = try makeTemporaryFolder("fix")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(LintConfiguration.fileName)
        try Data(configuration.utf8).write(to: file)
        let throughLinter = PolicyLinter(now: lintNow).fix(fileAt: file, path: LintConfiguration.fileName)
        #expect(throughLinter.report.source == fixed.report.source)
        #expect(throughLinter.original == Array(configuration.utf8))
    }

    /// A tab on a line of blanks between nodes reads as YAML 1.2 reads it, as a blank line. Inside a block scalar,
    /// where it stands in the indentation before more text, libyaml refuses it: the error says so and offers to
    /// empty the line, and `--fix` does, a line a pass. A tab among other text is left to the author.
    @Test func aTabOnABlankLineIsReadOrSaidAndDeleted() throws {
        let between = "policy: 1\nmessages: {m: {default: \"x\"}}\n \t \nrules:\n"
            + "  - {id: a, then: notify, message: m}\n"
            + "\t\n  - {id: b, then: notify, message: m}\n"
        let read = PolicyLinter(now: lintNow).lint(Array(between.utf8), path: "tabs.yaml")
        #expect(read.diagnostics.isEmpty, "\(read.diagnostics.map(\.description))")

        let text = "policy: 1\nmessages:\n  m:\n    default: |\n      Hello,\n \t \n      there.\n\t\n"
            + "    fr: |\n      Bonjour\n\t\n      !\nrules:\n  - {id: a, then: notify, message: m}\n"
        let report = PolicyLinter(now: lintNow).lint(Array(text.utf8), path: "tabs.yaml")
        let error = try #require(report.diagnostics.first { $0.code == .yamlSyntaxError })
        #expect(error.message.hasSuffix(
            "; the line holds only blanks and a tab, inside a scalar, where a tab cannot indent a line"))
        let fixIt = try #require(error.fixIt)
        #expect((fixIt.range.start.line, fixIt.range.start.column, fixIt.range.end.column) == (6, 1, 4))
        #expect(fixIt.replacement.isEmpty)
        #expect(fixIt.summary == "delete the blanks")
        #expect(error.rendered(file: "tabs.yaml").contains("\ntabs.yaml:6:1: fix-it: delete the blanks\n"))

        // Both lines inside a scalar are emptied; the one after the first scalar's text is a comment, and kept.
        let fixed = try fix(text, as: "tabs.yaml")
        #expect(fixed.report.diagnostics.isEmpty, "\(fixed.report.diagnostics.map(\.description))")
        let emptied = text.replacingOccurrences(of: " \t \n", with: "\n")
            .replacingOccurrences(of: "Bonjour\n\t\n", with: "Bonjour\n\n")
        #expect(String(decoding: fixed.report.source, as: UTF8.self) == emptied)
        let messages = try #require(YAMLReader().read(fixed.report.source).root?["messages"]?["m"])
        #expect(messages["default"]?.text == "Hello,\n\nthere.\n")
        #expect(messages["fr"]?.text == "Bonjour\n\n!\n")

        for other in ["policy: 1\n\tmessages: {}\n", "policy: 1\nid: a\tb\n\tx\n"] {
            let refused = PolicyLinter(now: lintNow).lint(Array(other.utf8), path: "t.yaml").diagnostics
            #expect(refused.contains { $0.code == .yamlSyntaxError }, "\(other)")
            #expect(refused.allSatisfy { $0.fixIt == nil || $0.code != .yamlSyntaxError }, "\(other)")
        }
    }
}
