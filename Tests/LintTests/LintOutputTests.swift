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

    @Test func textListsEachDiagnosticThenCleanFilesAndASummaryUnlessQuiet() {
        #expect(results.formatted(.text) == """
            dir:a,b/p%.yaml:2:3: error: 100% sure: a, b
            second line\r [test.code]
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
        #expect(quiet.count == 11 && quiet.last == "^")
    }
}
