import ArgumentParser
import CommandLineSupport
import Foundation
import LaunchPolicy
import LaunchPolicyDelivery

/// `launch-policy fetch`: the app's delivery code, run from the command line — one refresh into a cache folder, then
/// the policy a launch would use and why.
///
/// Exit status: 0 when a policy is in use (fetched, cached or bundled), 1 when none is (or, with --strict, when the
/// refresh did not update or confirm the cache), 2 for a usage error.
struct FetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Fetch a remote policy into a cache folder, and say which policy a launch would use and why.",
        discussion: """
            Runs the same code as the app: a conditional request (ETag, Last-Modified) within the timeout and size \
            cap; a policy that decodes without errors (and, with --public-key, carries a valid signature in the \
            X-Policy-Signature header or a URL.sig file) replaces the cached one atomically; anything else keeps it. \
            Exit status: 0 when a policy is in use, 1 when none is (with --strict, also when the refresh failed or \
            was rejected), 2 for a usage error.
            """)

    @Argument(help: "The policy's URL (http or https).")
    var url: String
    @Option(help: ArgumentHelp("The cache folder (created when needed).", valueName: "dir"))
    var cache: String
    @Option(name: .customLong("public-key"), help: ArgumentHelp("A public key file, or its base64: only policies signed by its private key are used.", valueName: "key"))
    var publicKey: String?
    @Option(help: ArgumentHelp("The policy bundled with the app, used when nothing usable is cached.", valueName: "file"))
    var bundled: String?
    @Option(help: "Seconds the whole fetch may take.")
    var timeout: Double = 10
    @Option(name: .customLong("max-size"), help: "The largest policy accepted, in bytes.")
    var maxSize: Int = 1 << 20
    @Option(name: .customLong("header"), help: ArgumentHelp(
        "A header to send with each request, as 'Name: value' (an API key, an Authorization); repeat for more.",
        valueName: "header"))
    var headers: [String] = []
    @Flag(help: "Exit 1 unless the refresh updated or confirmed the cached policy.")
    var strict = false
    @Option(help: "text (default) or json.")
    var format: ReportFormat = .text

    func validate() throws {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(), ["http", "https"].contains(scheme),
            parsed.host != nil
        else { throw ValidationError("the URL must be http:// or https:// with a host; got \"\(url)\"") }
        // Written so that NaN fails it too.
        guard timeout > 0 else { throw ValidationError("--timeout must be more than 0 seconds") }
        if maxSize <= 0 { throw ValidationError("--max-size must be more than 0 bytes") }
        _ = try requestHeaders()
    }

    /// The `--header` options by name; a usage error for one that is not `Name: value`, or that the refresh would
    /// refuse to send. A name given twice keeps its last value.
    func requestHeaders() throws -> [String: String] {
        var byName: [String: String] = [:]
        for header in headers {
            guard let colon = header.firstIndex(of: ":") else {
                throw ValidationError("--header needs 'Name: value'; got \(header.debugDescription)")
            }
            let name = String(header[..<colon])
            let value = header[header.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if let problem = PolicySource.requestHeaderProblem(name: name, value: value) {
                throw ValidationError("--header: \(problem)")
            }
            byName[name] = value
        }
        return byName
    }

    func run() async throws {
        let key = try publicKey.map { try readPublicKey($0, command: "launch-policy fetch") }
        var bundledBytes: Data?
        if let bundled {
            bundledBytes = try readParsedFile(bundled, what: "bundled policy", command: "launch-policy fetch",
                exitWhenTooLarge: 2)
        }
        let source = PolicySource(
            bundled: bundledBytes, bundledName: bundled ?? "bundled policy", remoteURL: URL(string: url),
            cacheDirectory: URL(fileURLWithPath: cache), publicKey: key, timeout: timeout, maximumSize: maxSize,
            requestHeaders: try requestHeaders())
        let delivery = PolicyDelivery(source: source)
        let refresh = await delivery.refresh()
        let current = delivery.current()

        // The local files the diagnostics point into are shown with the lines they point at, as a policy's are.
        for diagnostic in refresh.diagnostics + current.diagnostics {
            let text = switch diagnostic.source {
            case source.cacheFile.path: (try? StateFile.read(source.cacheFile)).flatMap { $0 }
            case bundled: bundledBytes
            default: Data?.none
            }
            printError(diagnostic.diagnostic.rendered(file: diagnostic.source, source: text.map { [UInt8]($0) }))
        }
        switch format {
        case .json:
            printJSON(.object([("refresh", refresh.json), ("policy", current.json)]))
        case .text:
            print(TerminalText.visible("refresh: \(refresh.summary)"))
            let rules = current.policy.map { " (\($0.rules.count) rule\($0.rules.count == 1 ? "" : "s"))" } ?? ""
            print(TerminalText.visible("policy: \(current.origin.rawValue)\(rules): \(current.reason)"))
        }
        if current.policy == nil { throw ExitCode(1) }
        if strict, ![.updated, .notModified].contains(refresh.outcome) { throw ExitCode(1) }
    }
}

/// `launch-policy keygen`: a new Ed25519 key pair for signing policies.
struct KeygenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keygen",
        abstract: "Make an Ed25519 key pair for signing policies.",
        discussion: """
            Writes PREFIX.key (the private key, readable by you alone: keep it in your CI's secrets, never in the app) \
            and PREFIX.pub (the public key, which the app is configured with), and prints the public key. Existing \
            files are not overwritten without --force. Exit status: 0, or 2 for a usage error.
            """)

    @Option(help: ArgumentHelp("Where to write the pair: PREFIX.key and PREFIX.pub.", valueName: "prefix"))
    var output = "launch-policy"
    @Flag(help: "Overwrite existing key files.")
    var force = false

    func run() throws {
        let privateFile = URL(fileURLWithPath: output + ".key")
        let publicFile = URL(fileURLWithPath: output + ".pub")
        for file in [privateFile, publicFile] where !force && FileManager.default.fileExists(atPath: file.path) {
            throw usageError("launch-policy keygen", "\(file.path) exists; use --force to replace it")
        }
        let key = PolicySigningKey.generate()
        do {
            // The private key is created readable by its owner only, before any secret is written into it.
            guard FileManager.default.createFile(atPath: privateFile.path, contents: nil,
                attributes: [.posixPermissions: 0o600])
            else { throw CocoaError(.fileWriteNoPermission) }
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: privateFile.path)
            try Data(key.text.utf8).write(to: privateFile)
            try Data(key.publicKey.text.utf8).write(to: publicFile, options: .atomic)
        } catch {
            throw usageError("launch-policy keygen", "the key files could not be written: \(AtomicFile.reason(error))")
        }
        print("private key: \(privateFile.path) (keep it secret)")
        print("public key: \(publicFile.path)")
        print(key.publicKey.base64)
    }
}

/// `launch-policy sign`: a detached signature of a policy file.
struct SignCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign",
        abstract: "Sign a policy file with a private key.",
        discussion: """
            Writes the detached signature next to the policy (POLICY.sig; upload it beside the policy) or to \
            --output, and prints its base64 for an X-Policy-Signature response header. A policy with errors is not \
            signed: apps would refuse it anyway. Exit status: 0 when signed, 1 when the policy has errors, 2 for a \
            usage error.
            """)

    @Argument(help: "The policy file, exactly as it will be served.")
    var policy: String
    @Option(help: ArgumentHelp("The private key file from keygen.", valueName: "file"))
    var key: String
    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("Where to write the signature (default POLICY.sig).", valueName: "file"))
    var output: String?

    func run() throws {
        let bytes = try readParsedFile(policy, what: "policy", command: "launch-policy sign", exitWhenTooLarge: 1)
        let keyBytes = try readInputFile(key, what: "private key", command: "launch-policy sign", limit: keyFileLimit)
        let signingKey: PolicySigningKey
        do {
            signingKey = try PolicySigningKey(text: String(decoding: keyBytes, as: UTF8.self))
        } catch {
            // Placed, but without the line: it would print the secret.
            throw keyUsageError(error, in: key, isFile: true, shown: nil, command: "launch-policy sign")
        }
        let parsed = AutomaticPolicyParser(expectsLaunchGateJSON: policy.lowercased().hasSuffix(".json")).parse(bytes)
        printDiagnostics(parsed.diagnostics.filter { $0.severity == .error }, file: policy, source: bytes)
        guard parsed.usablePolicy != nil else {
            printError("launch-policy sign: \(policy) has errors and was not signed")
            throw ExitCode(1)
        }
        let destination = output ?? policy + ".sig"
        let signature: PolicySignature
        do {
            signature = try signingKey.signature(for: bytes)
            try Data(signature.text.utf8).write(to: URL(fileURLWithPath: destination), options: .atomic)
        } catch {
            throw usageError("launch-policy sign", "\(destination) could not be written: \(AtomicFile.reason(error))")
        }
        print("signature: \(destination)")
        print(signature.base64)
    }
}

/// `launch-policy verify`: whether a signature is a key's signature of a policy file.
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check a policy file's signature against a public key.",
        discussion: "Exit status: 0 when the signature verifies, 1 when it does not, 2 for a usage error.")

    @Argument(help: "The policy file.")
    var policy: String
    @Option(name: .customLong("public-key"), help: ArgumentHelp("The public key file, or its base64.", valueName: "key"))
    var publicKey: String
    @Option(help: ArgumentHelp("The signature file (default POLICY.sig), or its base64.", valueName: "sig"))
    var signature: String?

    func run() throws {
        let bytes = try readParsedFile(policy, what: "policy", command: "launch-policy verify", exitWhenTooLarge: 2)
        let key = try readPublicKey(publicKey, command: "launch-policy verify")
        let signatureArgument = signature ?? policy + ".sig"
        let signatureFile = FileManager.default.fileExists(atPath: signatureArgument)
            ? try readInputFile(signatureArgument, what: "signature", command: "launch-policy verify",
                limit: keyFileLimit)
            : nil
        let parsed: PolicySignature
        do {
            let text = signatureFile.map { String(decoding: $0, as: UTF8.self) } ?? signatureArgument
            parsed = try PolicySignature(text: text)
        } catch {
            throw keyUsageError(error, in: signatureArgument, isFile: signatureFile != nil, shown: signatureFile,
                command: "launch-policy verify")
        }
        if key.verifies(parsed, of: bytes) {
            print("\(policy): the signature verifies")
        } else {
            print("\(policy): the signature does NOT verify with this key")
            throw ExitCode(1)
        }
    }
}

/// A public key from a file, or given inline as base64.
private func readPublicKey(_ argument: String, command: String) throws -> PolicyPublicKey {
    let file = FileManager.default.fileExists(atPath: argument)
        ? try readInputFile(argument, what: "public key", command: command, limit: keyFileLimit)
        : nil
    do {
        return try PolicyPublicKey(text: file.map { String(decoding: $0, as: UTF8.self) } ?? argument)
    } catch {
        throw keyUsageError(error, in: argument, isFile: file != nil, shown: file, command: command)
    }
}

/// A key or signature that cannot be read, as a usage error. One read from a file is placed in it, in compiler
/// format, with the line it points at when `shown` holds the file's text; one given inline is said in words.
private func keyUsageError(_ error: PolicyKeyError, in argument: String, isFile: Bool, shown: Data?, command: String)
    -> ExitCode
{
    guard isFile else { return usageError(command, "\(argument): \(error.reason) [\(error.code.rawValue)]") }
    // The text as it was read, invalid UTF-8 repaired: the problem's place counts in it.
    printError(error.diagnostic.rendered(file: argument,
        source: shown.map { Array(String(decoding: $0, as: UTF8.self).utf8) }))
    return ExitCode(2)
}
