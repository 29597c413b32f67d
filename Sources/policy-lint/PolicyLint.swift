import ArgumentParser
import CommandLineSupport
import Foundation
import LaunchPolicy

/// `policy-lint`: checks policy files for CI. Exit 0 when no file has an error, 1 when one has (or a warning, with
/// `--strict`), 2 on a usage or I/O problem.
@main
struct PolicyLint: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "policy-lint",
        abstract: "Check LaunchPolicy files and LaunchGate/Gandalf configurations.",
        discussion: """
            Folders are searched for *.yaml, *.yml and *.json files (links to files are checked under their own \
            names; links to folders are not followed); NAME.tests.yaml files run as tests of the policy NAME \
            beside them. Each file is checked with the nearest .policy-lint.yaml in its folder or \
            above (severity per code, disable, max-block-window), and lines can turn a check off with \
            "# policy-lint: disable=CODE". --fix applies the fix-its found (quoting, lists, suggested names) to \
            the files in place, and reports what is left. Exit status: 0 no errors, 1 errors found (or warnings, \
            with --strict), 2 usage or I/O problem (a path that does not exist, an unreadable file or folder, a \
            broken .policy-lint.yaml, a fixed file that could not be written).
            """)

    @Argument(help: "Policy files or folders to check.")
    var paths: [String] = ["."]

    @Option(help: "Output format: text, json, sarif or github. Default: github when GITHUB_ACTIONS=true, else text.")
    var format: LintOutputFormat?

    @Flag(help: "Exit 1 when there are warnings, not only errors.")
    var strict = false

    @Option(help: "Use this configuration file for every file, instead of the nearest .policy-lint.yaml.")
    var config: String?

    @Option(help: "The time to check date windows against and run tests at (ISO 8601), instead of now.")
    var now: String?

    @Option(name: .shortAndLong, help: """
        Check this many files at once (at most 256). Default: one per processor. The output is the same, in the \
        same order.
        """)
    var jobs: Int?

    @Flag(name: .shortAndLong, help: "Text format: print nothing for files without diagnostics, and no summary.")
    var quiet = false

    @Flag(help: """
        Apply the fix-its of what is found to the files, in place, and report what is left. A configuration is \
        fixed before the policies it applies to. Each fixed file is named on standard error.
        """)
    var fix = false

    /// Runs the command; usage errors exit 2.
    static func main() { mainWithUsageStatus() }

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be 1 or more, not \(jobs)") }
    }

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let format = format ?? (environment["GITHUB_ACTIONS"] == "true" ? .github : .text)
        let found: PolicyFiles.Found
        do {
            found = try PolicyFiles.collect(paths)
        } catch {
            throw usageError("policy-lint", "\(error)")
        }
        var linter = PolicyLinter()
        if let now {
            switch PolicyLinter.time(now) {
            case .success(let date): linter.now = date
            case .failure(let error): throw usageError("policy-lint", "--now: \(error)")
            }
        }

        // The configurations first, in order and on this thread (each file is read once, and its problems are
        // reported before the first policy it applies to); then the policies, on every processor.
        var configurations = Configurations(fixed: config.map { URL(fileURLWithPath: $0) }, fixing: fix)
        // What the search could not look into comes first: policies there went unchecked.
        var work = found.unreadable.map { LintWork.done(PolicyLinter.report(on: $0)) }
        for file in found.files {
            if file.lastPathComponent == LintConfiguration.fileName {
                // Named on its own (a pre-commit hook passes changed files): checked once, as a configuration.
                if let report = try configurations.report(on: file) { work.append(.done(report)) }
                continue
            }
            let configured = try configurations.configuration(for: file)
            if let problems = configured.problems { work.append(.done(problems)) }
            linter.configuration = configured.configuration
            work.append(.lint(file, linter))
        }
        let threads = jobs ?? ProcessInfo.processInfo.activeProcessorCount
        let colored = format == .text && isatty(STDOUT_FILENO) == 1 && environment["NO_COLOR"] == nil
        // Each report is printed as soon as it and those before it are made, and then let go: a run over a large
        // repository holds a few reports at a time, not every file's.
        var writer = LintOutputWriter(format: format, colored: colored, quiet: quiet)
        var output = StandardOutput()
        var ioProblem = configurations.writeFailed
        func show(_ report: LintReport) {
            ioProblem = ioProblem || report.diagnostics.contains { $0.code == .lintUnreadableFile }
            writer.write(report, to: &output)
        }
        if fix {
            Self.fix(work, threads: threads) { outcome in
                if let failure = outcome.failure {
                    Self.reportNotFixed(outcome.report.path, failure)
                    ioProblem = true
                } else if outcome.applied > 0 {
                    Self.reportFixed(outcome.report.path, outcome.applied)
                }
                show(outcome.report)
            }
        } else {
            work.concurrentMap(threads: threads) { work in
                switch work {
                case .done(let report): report
                case .lint(let file, let linter): linter.lint(fileAt: file, path: PolicyFiles.displayPath(file))
                }
            } inOrder: { show($0) }
        }
        writer.finish(to: &output)

        if ioProblem || configurations.broken { throw ExitCode(2) }
        if writer.count(.error) > 0 || (strict && writer.count(.warning) > 0) { throw ExitCode(1) }
    }
}

extension PolicyLint {
    /// What `--fix` made of one file: the report on it as fixed, how many fix-its were applied, and why the fixed
    /// text could not be written, if it could not (the report is then on the file as it is).
    struct FixOutcome: Sendable {
        let report: LintReport
        let applied: Int
        let failure: String?
    }

    /// What `--fix` says on standard error of a file it wrote.
    static func reportFixed(_ path: String, _ applied: Int) {
        let fixes = applied == 1 ? "fix" : "fixes"
        printError(TerminalText.visible("policy-lint: fixed \(path): \(applied) \(fixes) applied"))
    }

    /// What `--fix` says on standard error of a file it could not write.
    static func reportNotFixed(_ path: String, _ reason: String) {
        printError(TerminalText.visible("policy-lint: \(path) could not be fixed: \(reason)"))
    }

    /// `--fix`: each file fixed and written, on every processor, and each outcome handed to `deliver` in the order
    /// of `work` as soon as it and those before it are made, as without `--fix`: a run holds a few reports at a
    /// time, not every file's. A test file runs against its policy as fixed: where the policy is among the files
    /// and has not been fixed yet (a folder lists `app.tests.yaml` before `app.yaml`), the test file's thread fixes
    /// it first, and the policy's turn hands on that outcome.
    fileprivate static func fix(_ work: [LintWork], threads: Int, deliver: (FixOutcome) -> Void) {
        let policies = PoliciesUnderTest(work)
        Array(work.indices).concurrentMap(threads: threads) { index -> FixOutcome in
            if case .lint(let file, _) = work[index], PolicyTestFile.isTestFile(file) {
                if let policy = policies.policy(testedBy: index) { policies.fix(policy) { fixed(work[policy]) } }
                return fixed(work[index])
            }
            return policies.outcome(of: index) { fixed(work[index]) }
        } inOrder: { deliver($0) }
    }

    /// The outcome of one piece of work: a report made already, or a file fixed and written.
    private static func fixed(_ work: LintWork) -> FixOutcome {
        let (file, linter): (URL, PolicyLinter)
        switch work {
        case .done(let report): return FixOutcome(report: report, applied: 0, failure: nil)
        case .lint(let url, let configured): (file, linter) = (url, configured)
        }
        let path = PolicyFiles.displayPath(file)
        let fixed = linter.fix(fileAt: file, path: path)
        guard fixed.changed else { return FixOutcome(report: fixed.report, applied: 0, failure: nil) }
        do {
            try AtomicFile.replaceContents(of: file, with: fixed.report.source, ifStill: fixed.original)
            return FixOutcome(report: fixed.report, applied: fixed.applied.count, failure: nil)
        } catch {
            // Reported as it is, so that lines and columns point into the file the user has.
            return FixOutcome(report: linter.lint(fileAt: file, path: path), applied: 0,
                failure: AtomicFile.reason(error))
        }
    }
}

/// Under `--fix`, the policies that test files among the files test, each fixed once by whichever thread comes to it
/// first (its test file's or its own), and its outcome kept until its own turn takes it. Its state is only read and
/// written under its condition's lock; a thread waits only for one that is fixing a policy, which waits for nothing.
private final class PoliciesUnderTest: @unchecked Sendable {
    private enum State {
        case waiting
        case fixing
        /// Fixed, with the outcome until the policy's own turn takes it.
        case fixed(PolicyLint.FixOutcome?)
    }

    /// The place in the work of the policy each test file tests, by the test file's place, where it is among them.
    private let policyOfTest: [Int: Int]
    /// The places of those policies, which never change: whether a place is here is asked without the lock.
    private let tracked: Set<Int>
    private var states: [Int: State] = [:]
    private let changed = NSCondition()

    init(_ work: [LintWork]) {
        // Files are known by their paths with every link resolved, so that two spellings of one file are one policy.
        var testedPolicy: [Int: String] = [:]
        for (index, item) in work.enumerated() {
            guard case .lint(let file, _) = item, PolicyTestFile.isTestFile(file) else { continue }
            testedPolicy[index] = PolicyTestFile.policy(for: file)?.resolvingSymlinksInPath().path
        }
        var policyAt: [String: Int] = [:]
        if !testedPolicy.isEmpty {
            for (index, item) in work.enumerated() {
                if case .lint(let file, _) = item, !PolicyTestFile.isTestFile(file) {
                    policyAt[file.resolvingSymlinksInPath().path] = index
                }
            }
        }
        policyOfTest = testedPolicy.compactMapValues { policyAt[$0] }
        tracked = Set(policyOfTest.values)
        for index in tracked { states[index] = .waiting }
    }

    /// The place in the work of the policy the test file at `index` tests, when that policy is among the files.
    func policy(testedBy index: Int) -> Int? { policyOfTest[index] }

    /// Fixes the policy at `index` with `fixing`, unless that is done or being done; returns once it is done.
    func fix(_ index: Int, _ fixing: () -> PolicyLint.FixOutcome) {
        let mine: Bool = changed.withLock {
            while case .fixing = states[index] { changed.wait() }
            guard case .waiting = states[index] else { return false }
            states[index] = .fixing
            return true
        }
        guard mine else { return }
        let outcome = fixing()
        changed.withLock {
            states[index] = .fixed(outcome)
            changed.broadcast()
        }
    }

    /// The outcome of the work at `index`: made by `fixing` for a policy no test file tests, and otherwise as the
    /// first thread to come to it made it, taken out of this store.
    func outcome(of index: Int, _ fixing: () -> PolicyLint.FixOutcome) -> PolicyLint.FixOutcome {
        guard tracked.contains(index) else { return fixing() }
        fix(index, fixing)
        return changed.withLock {
            guard case .fixed(let outcome?) = states[index] else { preconditionFailure("a policy's turn comes once") }
            states[index] = .fixed(nil)
            return outcome
        }
    }
}

/// What is left to do for one report: a configuration's report is ready; a policy is to be linted with the linter
/// configured for it.
private enum LintWork: Sendable {
    case done(LintReport)
    case lint(URL, PolicyLinter)
}

/// The configuration of each folder, each file read once.
private struct Configurations {
    /// The file `--config` names, used for every policy.
    let fixed: URL?
    /// Each configuration file read, with its report until that report is handed out.
    private var loaded: [String: (configuration: LintConfiguration, report: LintReport?)] = [:]
    /// The configuration file found for each folder, nil where there is none: the files of one folder share it, and
    /// looking for it again from each file (a check for the file in every folder up to the root) was about 6% of
    /// linting a folder of a thousand policies.
    private var foundInFolder: [String: URL?] = [:]
    /// Whether each configuration file is fixed (`--fix`) before it is used.
    let fixing: Bool
    /// Whether a configuration file had errors.
    private(set) var broken = false
    /// Whether a fixed configuration file could not be written.
    private(set) var writeFailed = false

    init(fixed: URL?, fixing: Bool) {
        self.fixed = fixed
        self.fixing = fixing
    }

    /// The configuration for a policy file, and the configuration file's report the first time it has problems.
    mutating func configuration(for file: URL) throws -> (configuration: LintConfiguration, problems: LintReport?) {
        guard let url = fixed ?? find(for: file) else { return (LintConfiguration(), nil) }
        let configuration = try load(url)
        let report = take(url)
        return (configuration, report?.diagnostics.isEmpty == false ? report : nil)
    }

    /// The nearest configuration file for `file`, looked for once per folder.
    private mutating func find(for file: URL) -> URL? {
        // The folder as the path spells it, cut as text: standardizing the URL and taking its folder cost about
        // 100,000 instructions a file. Two spellings of one folder are only looked for twice.
        let path = file.path
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? path
        if let known = foundInFolder[folder] { return known }
        let found = LintConfiguration.find(for: file)
        foundInFolder[folder] = .some(found)
        return found
    }

    /// The report on a configuration file named on the command line; nil when it was already given.
    mutating func report(on url: URL) throws -> LintReport? {
        _ = try load(url)
        return take(url)
    }

    private mutating func load(_ url: URL) throws -> LintConfiguration {
        let key = url.standardizedFileURL.path
        if let known = loaded[key] { return known.configuration }
        let file: YAMLInputFile
        do {
            file = try YAMLInputFile(contentsOf: url, limits: .default)
        } catch {
            throw usageError("policy-lint", "cannot read the configuration \(url.path): \(AtomicFile.reason(error))")
        }
        let path = PolicyFiles.displayPath(url)
        let bytes = file.tooLarge == nil && fixing ? fixed(file.bytes, of: url, path: path) : file.bytes
        let parsed = file.tooLarge.map { (configuration: LintConfiguration(), diagnostics: [$0]) }
            ?? LintConfiguration.parse(bytes)
        broken = broken || parsed.diagnostics.containsErrors
        loaded[key] = (parsed.configuration, LintReport(path: path, source: bytes, diagnostics: parsed.diagnostics))
        return parsed.configuration
    }

    /// `--fix` for a configuration, before the policies it applies to are linted: the text as fixed and written,
    /// or as it is when nothing was fixed or the fixed text could not be written.
    private mutating func fixed(_ bytes: [UInt8], of url: URL, path: String) -> [UInt8] {
        let fix = LintConfiguration.fix(bytes, path: path)
        guard fix.changed else { return bytes }
        do {
            try AtomicFile.replaceContents(of: url, with: fix.report.source, ifStill: fix.original)
        } catch {
            PolicyLint.reportNotFixed(path, AtomicFile.reason(error))
            writeFailed = true
            return bytes
        }
        PolicyLint.reportFixed(path, fix.applied.count)
        return fix.report.source
    }

    /// The file's report, once.
    private mutating func take(_ url: URL) -> LintReport? {
        let key = url.standardizedFileURL.path
        defer { loaded[key]?.report = nil }
        return loaded[key]?.report
    }
}

extension LintOutputFormat: ExpressibleByArgument {}
