import LaunchPolicy
import Testing

/// policy-lint's output formats, written from reports.
@Suite struct LintOutputTests {
    private let results: LintResults = {
        let diagnostic = Diagnostic.error(
            "test.code", "100% sure: a, b\nsecond line\r",
            at: SourceRange(
                start: SourceLocation(line: 2, column: 3, offset: 5),
                end: SourceLocation(line: 2, column: 6, offset: 8)),
            fixIt: FixIt(
                range: SourceRange(start: SourceLocation(line: 2, column: 3, offset: 5)), replacement: "x,y",
                message: "fix: it"),
            notes: [.init(message: "see, here", range: .wholeInputStart)])
        let note = Diagnostic(code: "test.other", severity: .note, message: "plain", range: .wholeInputStart)
        return LintResults(reports: [
            LintReport(path: "dir:a,b/p%.yaml", source: Array("a: 1\nbc: 234\n".utf8), diagnostics: [diagnostic, note]),
            LintReport(path: "clean.yaml", source: [], diagnostics: []),
        ])
    }()

    @Test func githubCommandsEscapeTheirPropertiesAndMessages() {
        #expect(results.formatted(.github) == """
            ::error file=dir%3Aa%2Cb/p%25.yaml,line=2,col=3,endLine=2,endColumn=6,title=test.code::\
            100%25 sure: a, b%0Asecond line%0D%0Afix-it: fix: it: replace with x,y%0Anote: dir:a,b/p%25.yaml:1:1: see, here
            ::notice file=dir%3Aa%2Cb/p%25.yaml,line=1,col=1,endLine=1,endColumn=1,title=test.other::plain
            """)
    }

    /// GitHub's log reads colours from escape sequences: a message, a note or a path holding one shows it visibly,
    /// line breaks still as GitHub's escapes.
    @Test func githubCommandsSendNoEscapeSequences() {
        let diagnostic = Diagnostic.error("test.code", "key \"\u{1B}[2J\u{9B}1m\n\"",
            at: .wholeInputStart, notes: [.init(message: "\u{202E}here", range: .wholeInputStart)])
        let output = LintResults(reports: [LintReport(path: "a\u{1B}.yaml", source: [], diagnostics: [diagnostic])])
            .formatted(.github)
        #expect(output == """
            ::error file=a\u{241B}.yaml,line=1,col=1,endLine=1,endColumn=1,title=test.code::\
            key "\u{241B}[2J\u{FFFD}1m%0A"%0Anote: a\u{241B}.yaml:1:1: \u{FFFD}here
            """)
    }

    @Test func textListsEachDiagnosticThenCleanFilesAndASummaryUnlessQuiet() {
        #expect(results.formatted(.text) == """
            dir:a,b/p%.yaml:2:3: error: 100% sure: a, b\u{240A}second line\u{240D} [test.code]
            bc: 234
              ^~~
            dir:a,b/p%.yaml:2:3: fix-it: fix: it: replace with x,y
            dir:a,b/p%.yaml:1:1: note: see, here
            a: 1
            ^
            dir:a,b/p%.yaml:1:1: note: plain [test.other]
            a: 1
            ^
            clean.yaml: ok
            checked 2 files: 1 error, 0 warnings, 1 note
            """)
        let quiet = results.formatted(.text, quiet: true).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(quiet.count == 10 && quiet.last == "^")
    }
}
