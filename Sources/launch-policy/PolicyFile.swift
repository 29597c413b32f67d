import ArgumentParser
import CommandLineSupport
import Foundation
import LaunchPolicy

/// The policy at `path` (YAML, or LaunchGate/Gandalf JSON for a `.json` file), its diagnostics printed on standard
/// error; exits 1 when it has errors and 2 when it cannot be read.
func readPolicyFile(_ path: String, command: String) throws -> Policy {
    let bytes = try readParsedFile(path, what: "policy", command: command, exitWhenTooLarge: 1)
    let parser = AutomaticPolicyParser(expectsLaunchGateJSON: path.lowercased().hasSuffix(".json"))
    let result = parser.parse(bytes)
    printDiagnostics(result.diagnostics, file: path, source: bytes)
    guard let usable = result.usablePolicy else { throw ExitCode(1) }
    return usable
}

/// Prints the diagnostics of one file on standard error, each with the line it points at. The file's bytes are made
/// an array once for all of them: made for each, as the commands did, a population of a million rows with errors
/// copied its 64 MiB a million times.
func printDiagnostics(_ diagnostics: [Diagnostic], file: String, source: Data) {
    guard !diagnostics.isEmpty else { return }
    let bytes = [UInt8](source)
    for diagnostic in diagnostics { printError(diagnostic.rendered(file: file, source: bytes)) }
}

/// The bytes of a file a command parses with the YAML reader (a policy, a context, a configuration), read no further
/// than one byte past the reader's limit. A larger file gets the reader's `yaml.input-too-large` on standard error and
/// exits `exitWhenTooLarge`, the status the command gives the file's other errors; one that cannot be read is a usage
/// error (exit 2): `cannot read the WHAT PATH: REASON`.
func readParsedFile(_ path: String, what: String, command: String, exitWhenTooLarge: Int32) throws -> Data {
    let file: YAMLInputFile
    do {
        file = try YAMLInputFile(contentsOf: URL(fileURLWithPath: path), limits: .default)
    } catch {
        throw usageError(command, "cannot read the \(what) \(path): \(AtomicFile.reason(error))")
    }
    if let tooLarge = file.tooLarge {
        printError(tooLarge.rendered(file: path, source: file.bytes))
        throw ExitCode(exitWhenTooLarge)
    }
    return Data(file.bytes)
}

/// The bytes of a file a command takes as they are (a key, a signature, a population), at most `limit` of them; a
/// usage error (exit 2) when it cannot be read or is larger: `cannot read the WHAT PATH: REASON`.
func readInputFile(_ path: String, what: String, command: String, limit: Int) throws -> Data {
    let read: (bytes: [UInt8], size: Int?)
    do {
        read = try AtomicFile.contents(of: URL(fileURLWithPath: path), readingAtMost: limit + 1)
    } catch {
        throw usageError(command, "cannot read the \(what) \(path): \(AtomicFile.reason(error))")
    }
    guard read.bytes.count <= limit else {
        let size = read.size.map { "\($0) bytes, more" } ?? "more"
        throw usageError(command, "cannot read the \(what) \(path): it is \(size) than the limit of \(limit) bytes")
    }
    return Data(read.bytes)
}

/// The most a key or a signature file may hold: both are a line of base64 and a few comment lines.
let keyFileLimit = 1 << 16

/// Prints a diagnostic about a state file (a memory file, a launch history) as policy diagnostics print, with the
/// line it points at when the file can still be read.
func printStateFileDiagnostic(_ diagnostic: Diagnostic, in file: URL) {
    let source = (try? StateFile.read(file)).flatMap { $0 }.map { [UInt8]($0) }
    printError(diagnostic.rendered(file: file.path, source: source))
}
