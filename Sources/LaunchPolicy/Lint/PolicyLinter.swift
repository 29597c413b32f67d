import Foundation

/// A time that is not written as policies write one.
public struct TimeSyntaxError: Error, Sendable, CustomStringConvertible {
    /// The text given.
    public var text: String
    /// What is wrong with it.
    public var reason: String
    public var description: String { "\"\(text)\" \(reason)" }
}

/// The diagnostics of one file.
public struct LintReport: Sendable {
    /// The path shown in diagnostics.
    public var path: String
    /// The bytes read, for rendering source excerpts.
    public var source: [UInt8]
    /// Every problem found, in source order.
    public var diagnostics: [Diagnostic]

    /// Creates a report.
    public init(path: String, source: [UInt8], diagnostics: [Diagnostic]) {
        self.path = path
        self.source = source
        self.diagnostics = diagnostics
    }
}

/// What ``PolicyLinter/fix(fileAt:path:passes:)`` made of one file.
public struct LintFix: Sendable {
    /// The report on the file as fixed: its `source` is the fixed text, and its diagnostics are what is left.
    public var report: LintReport
    /// The fix-its applied, over every pass.
    public var applied: [FixIt]
    /// The text as it was read, which the file should still hold when the fixed text is written.
    public var original: [UInt8]

    /// Whether the text changed, so that `report.source` is to be written in place of the file.
    public var changed: Bool { !applied.isEmpty }

    /// Creates one.
    public init(report: LintReport, applied: [FixIt], original: [UInt8]) {
        self.report = report
        self.applied = applied
        self.original = original
    }

    /// The passes of a fix, for policies and configurations alike: the fix-its of `report` applied to its source,
    /// the text as fixed checked again by `check` and fixed again, until nothing is left to fix or `passes` passes
    /// have run. A misspelt code in a `# policy-lint: disable=` comment is fixed in a pass of its own, first, as it
    /// changes what else is reported: the check it meant to turn off has nothing left to fix. A pass after which
    /// the reader refuses more than before is not taken: quoting can take a file past the size limit, a list a
    /// value past the depth limit.
    init(fixing report: LintReport, passes: Int, check: ([UInt8]) -> LintReport) {
        var report = report
        let original = report.source
        var applied: [FixIt] = []
        // A negative count is no passes, not a range to trap on.
        for _ in 0..<max(0, passes) {
            let directives = report.diagnostics.filter { $0.code == .lintInvalidConfiguration }.compactMap(\.fixIt)
            let fixed = FixIt.apply(directives.isEmpty ? report.diagnostics.compactMap(\.fixIt) : directives,
                to: report.source)
            guard !fixed.applied.isEmpty else { break }
            let again = check(fixed.text)
            guard Self.readerErrors(in: again) <= Self.readerErrors(in: report) else { break }
            applied += fixed.applied
            report = again
        }
        self.init(report: report, applied: applied, original: original)
    }

    /// How many of the report's errors are the reader's (`yaml.`): a file it refuses cannot be used at all.
    private static func readerErrors(in report: LintReport) -> Int {
        report.diagnostics.count { $0.severity == .error && $0.code.rawValue.hasPrefix("yaml.") }
    }
}

/// Checks policy files and reports every problem found, in one pass per file.
///
/// For each file, in this order:
/// 1. the YAML reader's diagnostics (encoding, syntax, limits, duplicate keys) and the decoder's (unknown keys, wrong
///    types, invalid ranges, unknown messages, …), or the LaunchGate/Gandalf parser's for such a file;
/// 2. unquoted values other YAML tools would change (`lint.retyped-scalar`), for YAML files;
/// 3. for a policy without errors, the semantic checks (``LintCheck/all``) and the policy's `tests:` run through the
///    interpreter (`test.failed`, `test.invalid-context`);
/// 4. the configuration's severities and disabled codes, then the file's `# policy-lint: disable=` comments.
///
/// A `*.tests.yaml` file is linted as the tests of the policy beside it (``PolicyTestFile``).
public struct PolicyLinter: Sendable {
    /// The reader's limits.
    public var limits: YAMLLimits
    /// Severities, disabled codes and the maximum block window.
    public var configuration: LintConfiguration
    /// The time date windows are checked against, and test cases without `now` run at.
    public var now: Date
    /// The most problems the decoder reports in a policy or a test file: ``DecodingSupport/maximumReported``, except
    /// in the passes of ``fix(fileAt:path:passes:)``, which look at every problem.
    var problemLimit = DecodingSupport.maximumReported

    /// Creates a linter.
    public init(limits: YAMLLimits = .default, configuration: LintConfiguration = LintConfiguration(), now: Date = Date()) {
        self.limits = limits
        self.configuration = configuration
        self.now = now
    }

    /// Reads a time as policies write one (ISO 8601 with a time zone, `2026-12-01T02:00:00Z`), for a command's
    /// `--now`; the reason when the text is not one.
    public static func time(_ text: String) -> Result<Date, TimeSyntaxError> {
        ValueSyntax.date(text).mapError { TimeSyntaxError(text: text, reason: $0.reason) }
    }

    /// Lints the bytes of a policy; a path ending in `.json` is read as a LaunchGate/Gandalf configuration unless it
    /// has a `policy` key.
    public func lint(_ bytes: [UInt8], path: String) -> LintReport {
        let isJSON = path.lowercased().hasSuffix(".json")
        let read = YAMLReader(limits: limits).read(bytes)
        var parser = AutomaticPolicyParser(limits: limits, expectsLaunchGateJSON: isJSON)
        parser.problemLimit = problemLimit
        var result = parser.parse(read: read)
        let scalars = read.root.map(ScalarIndex.init(root:)) ?? ScalarIndex()
        let usablePolicy = result.usablePolicy
        // The parser's list taken out of its result, so that it is held once: shared with the result, it was copied
        // whole, each diagnostic retained, by the first finding appended to it.
        var diagnostics = result.diagnostics
        result.diagnostics = []
        if !isJSON { diagnostics += RetypedScalarChecks.findings(in: scalars) }
        if let policy = usablePolicy {
            diagnostics += PolicyChecks(policy: policy, format: result.format, now: now,
                maximumBlockWindow: configuration.maximumBlockWindow, scalars: scalars).run()
            diagnostics += PolicyTestRunner.failures(policy, defaultNow: now)
        }
        return configured(LintReport(path: path, source: bytes, diagnostics: diagnostics), scalars: scalars)
    }

    /// Lints the bytes of a test file against the policy it tests; failures note the policy's rules at `policyPath`.
    public func lintTests(_ bytes: [UInt8], path: String, policy: Policy, policyPath: String) -> LintReport {
        let read = YAMLReader(limits: limits).read(bytes)
        let decoded = PolicyTestFile.decode(read: read, rules: policy.rules, problemLimit: problemLimit)
        var diagnostics = decoded.diagnostics
        if !diagnostics.containsErrors {
            var tested = policy
            tested.tests = decoded.tests
            diagnostics += PolicyTestRunner.failures(tested, defaultNow: now).map { failure in
                var failure = failure
                failure.notes = failure.notes.map { Diagnostic.Note(message: $0.message, range: $0.range, path: policyPath) }
                return failure
            }
        }
        let scalars = read.root.map(ScalarIndex.init(root:)) ?? ScalarIndex()
        return configured(LintReport(path: path, source: bytes, diagnostics: diagnostics), scalars: scalars)
    }

    /// The report on what a folder search could not look into (``PolicyFiles/Found/unreadable``): one
    /// `lint.unreadable-file` error, as for a file that cannot be read, since policies there went unchecked.
    public static func report(on unreadable: PolicyFiles.Unreadable) -> LintReport {
        let what = unreadable.isFolder
            ? "the folder could not be searched (\(unreadable.reason)), so no policy in it was checked"
            : "the file the link names could not be read (\(unreadable.reason))"
        return LintReport(path: PolicyFiles.displayPath(URL(fileURLWithPath: unreadable.path)), source: [],
            diagnostics: [.error(.lintUnreadableFile, what, at: .wholeInputStart)])
    }

    /// Lints a file: a policy, a `*.tests.yaml` file with the policy beside it, or a `.policy-lint.yaml`
    /// configuration. A file that cannot be read gives one diagnostic, `lint.unreadable-file`; one larger than the
    /// reader's limit, `yaml.input-too-large`, read only to one byte past the limit.
    public func lint(fileAt url: URL, path: String) -> LintReport {
        let file: YAMLInputFile
        do {
            file = try YAMLInputFile(contentsOf: url, limits: limits)
        } catch {
            return LintReport(path: path, source: [], diagnostics: [.error(
                .lintUnreadableFile, "the file could not be read: \(AtomicFile.reason(error))",
                at: .wholeInputStart)])
        }
        return lint(file.bytes, tooLarge: file.tooLarge, of: url, path: path)
    }

    /// Lints the bytes read from the file at `url` as what that file is (``lint(fileAt:path:)``); `tooLarge` is the
    /// read's refusal of a file over the limit.
    private func lint(_ bytes: [UInt8], tooLarge: Diagnostic?, of url: URL, path: String) -> LintReport {
        if let tooLarge {
            // Over the limit, whatever the file is: the reader refuses it before anything else is looked at.
            return configured(LintReport(path: path, source: bytes, diagnostics: [tooLarge]))
        }
        if url.lastPathComponent == LintConfiguration.fileName {
            // Named on its own (a pre-commit hook passes changed files): checked as what it is.
            return LintReport(path: path, source: bytes, diagnostics: LintConfiguration.parse(bytes).diagnostics)
        }
        guard PolicyTestFile.isTestFile(url) else { return lint(bytes, path: path) }
        guard let policyURL = PolicyTestFile.policy(for: url) else {
            return configured(LintReport(path: path, source: bytes, diagnostics: [.error(.lintTestsWithoutPolicy,
                "no policy of the same name lies beside this test file; name it "
                    + "\(url.lastPathComponent.replacingOccurrences(of: ".tests.", with: ".")) or move the tests",
                at: .wholeInputStart)]))
        }
        let policyPath = PolicyFiles.displayPath(policyURL)
        let policyFile: YAMLInputFile
        do {
            policyFile = try YAMLInputFile(contentsOf: policyURL, limits: limits)
        } catch {
            return configured(LintReport(path: path, source: bytes, diagnostics: [.error(.lintTestsWithoutPolicy,
                "\(policyPath) could not be read (\(AtomicFile.reason(error))), so its tests cannot run",
                at: .wholeInputStart)]))
        }
        let parser = AutomaticPolicyParser(limits: limits,
            expectsLaunchGateJSON: policyURL.pathExtension.lowercased() == "json")
        guard policyFile.tooLarge == nil, let policy = parser.parse(Data(policyFile.bytes)).usablePolicy else {
            return configured(LintReport(path: path, source: bytes, diagnostics: [.error(.lintTestsWithoutPolicy,
                "\(policyPath) has errors, so its tests cannot run; lint it and fix them first", at: .wholeInputStart)]))
        }
        return lintTests(bytes, path: path, policy: policy, policyPath: policyPath)
    }

    /// What `policy-lint --fix` does to a file: the fix-its of what linting it reports are applied, the text as
    /// fixed is linted again and fixed again, until nothing is left to fix or `passes` passes have run (a fix may
    /// bring out another: a key renamed lets its value be read). The passes look at every problem, not the first
    /// 500 a report holds (`policy.too-many-problems`), so that what comes after 500 problems no fix-it resolves is
    /// fixed too; the report returned holds what a lint of the fixed text holds. Only diagnostics the report keeps
    /// are fixed, as configured and as inline directives leave them. A `.policy-lint.yaml` is fixed as a
    /// configuration (``LintConfiguration/fix(_:path:passes:)``). Nothing is written; the caller writes
    /// `report.source` when ``LintFix/changed``.
    public func fix(fileAt url: URL, path: String, passes: Int = 8) -> LintFix {
        let every = lookingAtEveryProblem
        let fix = LintFix(fixing: every.lint(fileAt: url, path: path), passes: passes) {
            every.lint($0, tooLarge: nil, of: url, path: path)
        }
        return reported(fix) { lint($0, tooLarge: nil, of: url, path: path) }
    }

    /// ``fix(fileAt:path:passes:)`` for the bytes of a policy, linted as ``lint(_:path:)`` lints them: for an editor's
    /// buffer, or a test, that has no file.
    public func fix(_ bytes: [UInt8], path: String, passes: Int = 8) -> LintFix {
        let every = lookingAtEveryProblem
        let fix = LintFix(fixing: every.lint(bytes, path: path), passes: passes) { every.lint($0, path: path) }
        return reported(fix) { lint($0, path: path) }
    }

    /// This linter with no limit on the decoder's problems, for the passes of a fix.
    private var lookingAtEveryProblem: PolicyLinter {
        var linter = self
        linter.problemLimit = .max
        return linter
    }

    /// `fix` with its report as this linter makes it: a report of more of the decoder's problems (`policy.` codes)
    /// than it reports is made again by `lint`, from the fixed text. A report of no more is the same either way.
    private func reported(_ fix: LintFix, lint: ([UInt8]) -> LintReport) -> LintFix {
        guard fix.report.diagnostics.count(where: { $0.code.rawValue.hasPrefix("policy.") }) > problemLimit else {
            return fix
        }
        var reported = fix
        reported.report = lint(fix.report.source)
        return reported
    }

    /// The report with the configuration and the file's inline directives applied, in source order. One list,
    /// changed in place: made anew at each step, a file's list was copied four times, its diagnostics retained and
    /// released with it.
    private func configured(_ report: consuming LintReport, scalars: ScalarIndex = ScalarIndex()) -> LintReport {
        var configured = report
        let directives = InlineDirectives(source: configured.source, scalars: scalars.ranges)
        configured.diagnostics += directives.problems
        configuration.apply(to: &configured.diagnostics)
        directives.apply(to: &configured.diagnostics)
        configured.diagnostics.sortBySource()
        return configured
    }
}

extension TimeSyntaxError: LocalizedError {
    /// The description, which Foundation's `localizedDescription` gives.
    public var errorDescription: String? { description }
}
