import Foundation
import LaunchPolicy
import Testing
import TestSupport

/// `.policy-lint.yaml` and `# policy-lint: disable=` comments.
@Suite struct ConfigurationTests {
    private let unusedMessage = """
        policy: 1
        messages:
          used: {default: "Used."}
          forgotten: {default: "Forgotten."}
        rules:
          - {id: a, then: notify, message: used}
        """

    @Test func aConfigurationSetsSeveritiesDisablesCodesAndTheBlockWindow() throws {
        let parsed = LintConfiguration.parse(Array("""
            severity:
              lint.unused-message: error
              policy.ignored-key: note
            disable: [lint.lockout, lint.ambiguous-version]
            max-block-window: 3d
            """.utf8))
        #expect(parsed.diagnostics.isEmpty, "\(parsed.diagnostics.map(\.description))")
        let configuration = parsed.configuration
        #expect(configuration.severities[.lintUnusedMessage] == .error)
        #expect(configuration.severities[.policyIgnoredKey] == .note)
        #expect(configuration.disabled == [.lintLockout, .lintAmbiguousVersion])
        #expect(configuration.maximumBlockWindow == 3 * 86_400)
        expectOne(.lintUnusedMessage, at: 4, 3, severity: .error, in: lint(unusedMessage, configuration: configuration))
    }

    @Test func mistakesInTheConfigurationAreReportedWithPositions() {
        let parsed = LintConfiguration.parse(Array("""
            severity:
              lint.unused-mesage: warning
              lint.lockout: fatal
            disable: lint.nothing
            max-block-window: soon
            colour: always
            """.utf8))
        let problems = parsed.diagnostics
        #expect(problems.allSatisfy { $0.code == .lintInvalidConfiguration })
        #expect(problems.map(\.range.start.line) == [2, 3, 4, 5, 6], "\(problems.map(\.description))")
        #expect(problems[0].fixIt?.replacement == "lint.unused-message")
        #expect(problems[1].message.contains("use one of error, warning, note"))
        #expect(parsed.configuration.maximumBlockWindow == LintConfiguration.defaultMaximumBlockWindow)
    }

    @Test func errorsOfTheReaderAndDecoderCannotBeLoweredOrDisabled() {
        let configuration = LintConfiguration(
            severities: [.policyInvalidValue: .note], disabled: [.yamlDuplicateKey])
        let diagnostics = lint("policy: 1\npolicy: 1\nrules:\n  - {id: a, then: notfy}\n", configuration: configuration)
        #expect(diagnostics.contains { $0.code == .yamlDuplicateKey && $0.severity == .error })
        #expect(diagnostics.contains { $0.code == .policyInvalidValue && $0.severity == .error })
    }

    @Test func theNearestConfigurationAboveAFileApplies() throws {
        let root = try makeTemporaryFolder("lint-config")
        defer { try? FileManager.default.removeItem(at: root) }
        let nested = root.appendingPathComponent("team/policies")
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        try Data("disable: [lint.unused-message]\n".utf8).write(to: root.appendingPathComponent(".policy-lint.yaml"))
        let policy = nested.appendingPathComponent("a.yaml")
        #expect(LintConfiguration.find(for: policy)?.standardizedFileURL.path
            == root.appendingPathComponent(".policy-lint.yaml").standardizedFileURL.path)
        try Data("max-block-window: 2h\n".utf8).write(to: root.appendingPathComponent("team/.policy-lint.yaml"))
        #expect(LintConfiguration.find(for: policy)?.deletingLastPathComponent().lastPathComponent == "team")
    }

    @Test func aConfigurationFileNamedOnItsOwnIsCheckedAsOne() throws {
        let folder = try makeTemporaryFolder("lint-config")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent(".policy-lint.yaml")
        try Data("disable: [lint.lockot]\n".utf8).write(to: url)
        let report = PolicyLinter().lint(fileAt: url, path: ".policy-lint.yaml")
        #expect(report.diagnostics.map(\.code) == [.lintInvalidConfiguration])
        #expect(report.diagnostics.first?.fixIt?.replacement == "lint.lockout")
        try Data("disable: [lint.lockout]\n".utf8).write(to: url)
        #expect(PolicyLinter().lint(fileAt: url, path: ".policy-lint.yaml").diagnostics.isEmpty)
    }

    @Test func aFileOverTheLimitIsReadOnlyToOneBytePastItAndRefusedWithItsSize() throws {
        let folder = try makeTemporaryFolder("lint-large")
        defer { try? FileManager.default.removeItem(at: folder) }
        let linter = PolicyLinter(limits: YAMLLimits(maximumInputBytes: 64))
        // A policy, a test file and a configuration over the limit: each refused by the reader, whatever it is.
        for name in ["big.json", "big.tests.yaml", ".policy-lint.yaml"] {
            let url = folder.appendingPathComponent(name)
            try Data(("# line one\n" + String(repeating: "x", count: 10_000)).utf8).write(to: url)
            let report = linter.lint(fileAt: url, path: name)
            #expect(report.diagnostics.map(\.code) == [.yamlInputTooLarge], "\(name)")
            #expect(report.diagnostics.first?.message == "the input is 10011 bytes, more than the limit of 64 bytes")
            #expect(report.diagnostics.first?.range.start == SourceLocation(line: 2, column: 54, offset: 64))
            #expect(report.source.count == 65, "only the bytes up to the first past the limit are held")
        }
        // At the limit, the whole file is read and checked.
        let fits = folder.appendingPathComponent("fits.yaml")
        try Data("policy: 1\nid: a\nrules: []\n".utf8).write(to: fits)
        #expect(linter.lint(fileAt: fits, path: "fits.yaml").diagnostics.isEmpty)
    }

    @Test func aFileThatCannotBeReadSaysWhyInPlainWords() throws {
        let folder = try makeTemporaryFolder("lint-unreadable")
        defer { try? FileManager.default.removeItem(at: folder) }
        let named = folder.appendingPathComponent("looks-like-a-policy.yaml")
        try FileManager.default.createDirectory(at: named, withIntermediateDirectories: true)
        let report = PolicyLinter().lint(fileAt: named, path: "looks-like-a-policy.yaml")
        #expect(report.diagnostics.map(\.code) == [.lintUnreadableFile])
        // strerror's words, not Foundation's "(NSCocoaErrorDomain error 256.)"
        #expect(report.diagnostics.first?.message == "the file could not be read: is a directory")
        let missing = PolicyLinter().lint(fileAt: folder.appendingPathComponent("gone.yaml"), path: "gone.yaml")
        #expect(missing.diagnostics.first?.message == "the file could not be read: no such file or directory")

        let empty = folder.appendingPathComponent("empty.yaml")
        try Data().write(to: empty)
        #expect(PolicyLinter().lint(fileAt: empty, path: "empty.yaml").diagnostics.map(\.code) == [.yamlEmptyInput])
    }

    @Test func aCommentOnItsOwnLineCoversTheNextLineAndATrailingOneItsOwn() {
        let diagnostics = lint("""
            policy: 1
            messages:
              used: {default: "Used."}
              # policy-lint: disable=lint.unused-message
              forgotten: {default: "Forgotten."}
              spare: {default: "Spare."}  # policy-lint: disable=lint.unused-message,lint.retyped-scalar
              other: {default: "Other."}
            rules:
              - {id: a, then: notify, message: used}
            """)
        let unused = findings(.lintUnusedMessage, diagnostics)
        #expect(unused.map(\.range.start.line) == [7], "\(diagnostics.map(\.description))")
        #expect(findings(.lintInvalidConfiguration, diagnostics).isEmpty)
    }

    /// A directive turns codes off on the line a diagnostic names, however the file breaks its lines: CR alone (old
    /// Mac files), CR LF, and with an LS, PS or NEL in a text before it, which is not a line break (an editor shows
    /// the text on one line, and so do the positions). Before, directives counted LF alone: the codes went off on
    /// another line than the one named, or on none.
    @Test(arguments: ["\r", "\r\n", "\n"])
    func aDirectiveCoversTheLineItsDiagnosticNamesWhateverBreaksTheLines(lineBreak: String) {
        let text = [
            "policy: 1",
            "messages:",
            "  used: {default: \"Used,\u{2028}with a separator\u{85}and a NEL\u{2029}\"}",
            "  # policy-lint: disable=lint.unused-message",
            "  forgotten: {default: \"Forgotten.\"}",
            "  spare: {default: \"Spare.\"}  # policy-lint: disable=lint.unused-message",
            "  other: {default: \"Other.\"}",
            "rules:",
            "  - {id: a, then: notify, message: used}",
        ].joined(separator: lineBreak) + lineBreak
        let diagnostics = lint(text)
        let unused = findings(.lintUnusedMessage, diagnostics)
        #expect(unused.map(\.range.start.line) == [7], "\(diagnostics.map(\.description))")
        #expect(unused.map(\.range.start.column) == [3])
    }

    /// A byte-order mark is counted by offsets and not by columns, in a directive's problem as everywhere: the same
    /// file with and without one gives the same line and column, the offset 3 further on. Before, a directive on the
    /// first line counted the mark as a column.
    @Test func aDirectiveOnTheFirstLineBehindAByteOrderMarkIsPlacedAsWithoutIt() throws {
        let text = "policy: 1  # policy-lint: disable=lint.lockot\nmessages: {}\nrules: []\n"
        let plain = try #require(findings(.lintInvalidConfiguration, lint(text)).first)
        let marked = try #require(findings(.lintInvalidConfiguration, lint("\u{FEFF}" + text)).first)
        #expect(plain.range.start.line == 1 && plain.range.start.column > 1)
        #expect(marked.range.start.line == plain.range.start.line)
        #expect(marked.range.start.column == plain.range.start.column)
        #expect(marked.range.start.offset == plain.range.start.offset + 3)
    }

    @Test func aMistypedInlineCommentIsReported() {
        let diagnostics = lint("""
            policy: 1
            rules: []  # policy-lint: disabel=lint.lockout
            id: "a # policy-lint: not a comment"
            # policy-lint: disable=lint.unusd-message
            """)
        let problems = findings(.lintInvalidConfiguration, diagnostics)
        #expect(problems.map(\.range.start.line) == [2, 4], "\(diagnostics.map(\.description))")
        #expect(problems.first?.range.start.column == 14)
    }

    /// Each misspelt code of a comment is placed on itself, columns counted in characters and offsets in bytes,
    /// and its fix-it replaces only it: the comment stays a directive.
    @Test func aMisspeltCodeInACommentIsPlacedOnItself() throws {
        let policy = """
            policy: 1
            id: "é—ü"  # policy-lint: disable=lint.lockot,  lint.shadowed-rule , lint.unused-mesage
            rules: []
            """
        let problems = findings(.lintInvalidConfiguration, lint(policy))
        #expect(problems.map(\.message) == [
            "\"lint.lockot\" is not a diagnostic code; did you mean \"lint.lockout\"?",
            "\"lint.unused-mesage\" is not a diagnostic code; did you mean \"lint.unused-message\"?",
        ])
        let line = policy.split(separator: "\n")[1]
        let before = try ["lint.lockot", "lint.unused-mesage"].map { try #require(line.range(of: $0)) }
            .map { line[..<$0.lowerBound] }
        #expect(problems.map(\.range.start.line) == [2, 2])
        #expect(problems.map(\.range.start.column) == before.map { $0.unicodeScalars.count + 1 })
        let lineStart = "policy: 1\n".utf8.count
        #expect(problems.map(\.range.start.offset) == before.map { lineStart + $0.utf8.count })
        #expect(problems.map { $0.range.end.offset - $0.range.start.offset } == [11, 18])
        let fixed = FixIt.apply(problems.compactMap(\.fixIt), to: Array(policy.utf8))
        #expect(String(decoding: fixed.text, as: UTF8.self) == policy
            .replacingOccurrences(of: "lockot", with: "lockout").replacingOccurrences(of: "mesage", with: "message"))
    }

    @Test func aLineThatIsNotUTF8HoldsNoDirective() {
        var bytes = Array("policy: 1\nrules: []\nid: x  # policy-lint: disable=lint.nope ".utf8)
        bytes += [0xFF, 0xFE, 0x0A]
        let report = PolicyLinter(now: lintNow).lint(bytes, path: "bad.yaml")
        #expect(report.diagnostics.map(\.code) == [.yamlInvalidUTF8], "\(report.diagnostics.map(\.description))")
        #expect(report.diagnostics.allSatisfy { $0.range.end.offset <= bytes.count })
    }

    @Test func anInlineCommentCannotHideAnError() {
        let diagnostics = lint("""
            policy: 1
            rules:
              - {id: a, then: notfy}  # policy-lint: disable=policy.invalid-value
            """)
        #expect(diagnostics.contains { $0.code == .policyInvalidValue })
    }
}
