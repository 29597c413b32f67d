import Foundation
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
            checked 2 files: 1 error, 0 warnings, 1 note
            """)
        #expect(results.formatted(.github, quiet: true).split(separator: "\n").count == 2)
    }

    /// GitHub's log reads colours from escape sequences: a message, a note or a path holding one shows it visibly,
    /// line breaks still as GitHub's escapes.
    @Test func githubCommandsSendNoEscapeSequences() {
        let diagnostic = Diagnostic.error("test.code", "key \"\u{1B}[2J\u{9B}1m\n\"",
            at: .wholeInputStart, notes: [.init(message: "\u{202E}here", range: .wholeInputStart)])
        let output = LintResults(reports: [LintReport(path: "a\u{1B}.yaml", source: [], diagnostics: [diagnostic])])
            .formatted(.github, quiet: true)
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

    /// A report is written when it is handed over, not held for the end: text, GitHub's commands and JSON write each
    /// report before the next is linted, and SARIF, whose rules come first, writes only at the end.
    @Test(arguments: LintOutputFormat.allCases)
    func eachReportIsWrittenWhenItIsHandedOver(format: LintOutputFormat) throws {
        var writer = LintOutputWriter(format: format)
        var output = Writes()
        var writtenAfter: [String] = []
        for report in results.reports {
            writer.write(report, to: &output)
            writtenAfter.append(output.pieces.joined())
        }
        writer.finish(to: &output)
        let whole = output.pieces.joined()
        #expect(whole == results.formatted(format) + "\n")
        #expect(writtenAfter.allSatisfy(whole.hasPrefix))
        // The first report's diagnostics, once it is handed over; SARIF's only at the end.
        #expect(writtenAfter[0].contains("test.code") == (format != .sarif))
        #expect(writtenAfter[1].contains("clean.yaml") == (format == .text || format == .json))
        #expect(writer.count(.error) == 1 && writer.count(.note) == 1 && writer.files == 2)
        if format == .json || format == .sarif {
            _ = try JSONSerialization.jsonObject(with: Data(output.pieces.joined().utf8))
        }
    }

    /// JSON and SARIF documents of no file, and SARIF's rules: a code no check has gets a rule of its own, after the
    /// checks, the first time it appears, and every result names its rule by index.
    @Test func documentsOfNoFileAndRulesForCodesWithoutACheck() throws {
        let empty = try #require(JSONSerialization.jsonObject(
            with: Data(LintResults(reports: []).formatted(.json).utf8)) as? [String: Any])
        #expect((empty["files"] as? [Any])?.isEmpty == true)
        #expect((empty["summary"] as? [String: Int]) == ["files": 0, "errors": 0, "warnings": 0, "notes": 0])
        let sarif = try #require(JSONSerialization.jsonObject(
            with: Data(results.formatted(.sarif).utf8)) as? [String: Any])
        let run = try #require((sarif["runs"] as? [[String: Any]])?.first)
        let rules = try #require(((run["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"]
            as? [[String: Any]])
        let outcomes = try #require(run["results"] as? [[String: Any]])
        #expect(rules.count == LintCheck.all.count + 2)
        #expect(outcomes.map { $0["ruleId"] as? String } == ["test.code", "test.other"])
        for outcome in outcomes {
            let index = try #require(outcome["ruleIndex"] as? Int)
            #expect(rules[index]["id"] as? String == outcome["ruleId"] as? String)
        }
        #expect(LintResults(reports: []).formatted(.text) == "checked 0 files: 0 errors, 0 warnings, 0 notes")
        #expect(LintResults(reports: []).formatted(.github, quiet: true).isEmpty)
    }

    /// Output far larger than a piece is written in pieces, each a whole number of characters: SARIF's results, held
    /// as bytes until the end, are cut before a character, never inside one.
    @Test(arguments: LintOutputFormat.allCases)
    func longOutputIsWrittenInPiecesOfWholeCharacters(format: LintOutputFormat) throws {
        // 3,000 diagnostics whose messages are two- and three-byte characters: some piece boundary falls inside one.
        let diagnostics = (0..<3_000).map { index in
            Diagnostic.error("test.code", String(repeating: index % 2 == 0 ? "é" : "€", count: 7 + index % 5),
                at: .wholeInputStart)
        }
        var writer = LintOutputWriter(format: format)
        var output = Writes()
        writer.write(LintReport(path: "wide.yaml", source: Array("a: 1\n".utf8), diagnostics: diagnostics), to: &output)
        writer.finish(to: &output)
        #expect(output.pieces.count > 2)
        #expect(output.pieces.allSatisfy { $0.utf8.count < (1 << 16) + 4_096 })
        let whole = output.pieces.joined()
        #expect(!whole.contains("\u{FFFD}"))
        #expect(whole.components(separatedBy: "éééééé").count - 1 == 1_500)
        if format == .json || format == .sarif {
            _ = try JSONSerialization.jsonObject(with: Data(whole.utf8))
        }
    }
    /// GitHub code scanning rejects a SARIF run of more than 25,000 results: past its limit, SARIF keeps the most
    /// severe, in the order found, and says in the run's invocation how many it left out.
    @Test func sarifKeepsTheMostSevereResultsPastItsLimit() throws {
        func diagnostic(_ severity: Severity, _ message: String) -> Diagnostic {
            Diagnostic(code: severity == .error ? "test.code" : "test.other", severity: severity, message: message,
                range: .wholeInputStart)
        }
        let reports = [
            LintReport(path: "a.yaml", source: [], diagnostics: [
                diagnostic(.note, "n1"), diagnostic(.warning, "w1"), diagnostic(.error, "e1"),
                diagnostic(.warning, "w2"),
            ]),
            LintReport(path: "b.yaml", source: [], diagnostics: [
                diagnostic(.error, "e2"), diagnostic(.note, "n2"), diagnostic(.warning, "w3"),
            ]),
        ]
        func run(limit: Int, of reports: [LintReport] = reports) throws
            -> (messages: [String], notification: String?, run: [String: Any])
        {
            var writer = LintOutputWriter(format: .sarif, maximumSARIFResults: limit)
            var output = ""
            for report in reports { writer.write(report, to: &output) }
            writer.finish(to: &output)
            #expect(writer.files == reports.count)
            let document = try #require(JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
            let run = try #require((document["runs"] as? [[String: Any]])?.first)
            let results = try #require(run["results"] as? [[String: Any]])
            let rules = try #require(((run["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"]
                as? [[String: Any]])
            for result in results {
                let index = try #require(result["ruleIndex"] as? Int)
                #expect(rules[index]["id"] as? String == result["ruleId"] as? String)
            }
            let invocation = (run["invocations"] as? [[String: Any]])?.first
            let notification = (invocation?["toolExecutionNotifications"] as? [[String: Any]])?.first
            if invocation != nil { #expect(invocation?["executionSuccessful"] as? Bool == true) }
            return (results.compactMap { ($0["message"] as? [String: Any])?["text"] as? String },
                (notification?["message"] as? [String: Any])?["text"] as? String, run)
        }
        let all = try run(limit: 7)
        #expect(all.messages == ["n1", "w1", "e1", "w2", "e2", "n2", "w3"])
        #expect(all.notification == nil && all.run["invocations"] == nil)
        // Both errors, then the first two warnings; no note.
        let four = try run(limit: 4)
        #expect(four.messages == ["w1", "e1", "w2", "e2"])
        #expect(four.notification?.contains("found 7 results and leaves out 3") == true, "\(four.notification ?? "")")
        // Room for every error and warning, and the first note.
        #expect(try run(limit: 6).messages == ["n1", "w1", "e1", "w2", "e2", "w3"])
        // Room for one error only.
        let one = try run(limit: 1)
        #expect(one.messages == ["e1"])
        #expect(one.notification?.contains("leaves out 6") == true)
        #expect(try run(limit: 0).messages.isEmpty)
        // Results a limit's worth of as severe ones came before are left out as they come; the more severe found
        // after them still take their place.
        let late = [LintReport(path: "c.yaml", source: [], diagnostics: [
            diagnostic(.note, "n1"), diagnostic(.note, "n2"), diagnostic(.note, "n3"), diagnostic(.warning, "w1"),
            diagnostic(.warning, "w2"), diagnostic(.warning, "w3"), diagnostic(.error, "e1"), diagnostic(.error, "e2"),
        ])]
        #expect(try run(limit: 2, of: late).messages == ["e1", "e2"])
        #expect(try run(limit: 3, of: late).messages == ["w1", "e1", "e2"])
        #expect(try run(limit: 7, of: late).messages == ["n1", "n2", "w1", "w2", "w3", "e1", "e2"])
        #expect(try run(limit: 7, of: late).notification?.contains("found 8 results and leaves out 1") == true)
        #expect(LintOutputWriter(format: .sarif).maximumSARIFResults == 25_000)
    }

}

/// An output stream that keeps each write apart.
private struct Writes: TextOutputStream {
    var pieces: [String] = []
    mutating func write(_ string: String) { pieces.append(string) }
}
