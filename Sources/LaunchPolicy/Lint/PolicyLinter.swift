import Foundation

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

/// Checks policy files and reports every problem found, in one pass per file.
///
/// It reports the YAML reader's diagnostics (encoding, syntax, limits, duplicate keys) and the policy decoder's
/// (unknown keys, wrong types, invalid ranges, unknown messages, …), then runs the policy's `tests:` through the
/// interpreter (`test.failed`, `test.invalid-context`). The semantic checks add theirs as they arrive.
public struct PolicyLinter: Sendable {
    /// The reader's limits.
    public var limits: YAMLLimits

    /// Creates a linter.
    public init(limits: YAMLLimits = .default) {
        self.limits = limits
    }

    /// Lints bytes; a path ending in `.json` is read as a LaunchGate/Gandalf configuration unless it has a `policy`
    /// key.
    public func lint(_ bytes: [UInt8], path: String) -> LintReport {
        let parser = AutomaticPolicyParser(limits: limits, expectsLaunchGateJSON: path.lowercased().hasSuffix(".json"))
        let result = parser.parse(Data(bytes))
        var diagnostics = result.diagnostics
        // A policy that decodes without errors runs its own test cases through the interpreter.
        if let policy = result.usablePolicy {
            diagnostics += PolicyTestRunner.run(policy).flatMap(\.diagnostics)
        }
        return LintReport(path: path, source: bytes, diagnostics: diagnostics.sortedBySource())
    }

    /// Lints a file; a file that cannot be read gives one diagnostic, `lint.unreadable-file`.
    public func lint(fileAt url: URL, path: String) -> LintReport {
        do {
            return lint([UInt8](try Data(contentsOf: url)), path: path)
        } catch {
            return LintReport(path: path, source: [], diagnostics: [.error(
                .lintUnreadableFile, "the file could not be read: \(error.localizedDescription)",
                at: .wholeInputStart)])
        }
    }
}

extension DiagnosticCode {
    /// A file named on the command line could not be read.
    public static let lintUnreadableFile: DiagnosticCode = "lint.unreadable-file"
}
