import Foundation
import Testing
import TestSupport

/// keygen, sign, verify and fetch as a release script and a support engineer would run them.
@Suite struct DeliveryCommandTests {
    private let policy = """
        policy: 1
        messages:
          stop: {default: "Please update."}
        rules:
          - id: minimum
            when: {app-version: "< 2.0"}
            then: require-update
            message: stop
        """

    private func run(_ arguments: String..., in folder: URL) throws -> CommandResult {
        try Executables.run("launch-policy", arguments, in: folder)
    }

    @Test func keygenSignVerifyRoundTrip() throws {
        let folder = try makeTemporaryFolder("delivery-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(policy.utf8).write(to: folder.appendingPathComponent("policy.yaml"))

        let keygen = try run("keygen", "--output", "release", in: folder)
        #expect(keygen.status == 0, "\(keygen.standardError)")
        let privateKey = folder.appendingPathComponent("release.key").path
        let permissions = try FileManager.default.attributesOfItem(atPath: privateKey)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
        let publicKey = try String(contentsOf: folder.appendingPathComponent("release.pub"), encoding: .utf8)
        #expect(keygen.standardOutput.contains(publicKey.split(separator: "\n")[1]))

        // A second keygen does not overwrite the pair.
        #expect(try run("keygen", "--output", "release", in: folder).status == 2)

        let sign = try run("sign", "policy.yaml", "--key", "release.key", in: folder)
        #expect(sign.status == 0, "\(sign.standardError)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("policy.yaml.sig").path))

        #expect(try run("verify", "policy.yaml", "--public-key", "release.pub", in: folder).status == 0)
        // The header form: the base64 sign printed, given inline.
        let header = String(sign.standardOutput.split(separator: "\n").last ?? "")
        #expect(try run("verify", "policy.yaml", "--public-key", "release.pub", "--signature", header, in: folder).status == 0)

        // One changed byte, or another key: it does not verify.
        try Data((policy + "\n").utf8).write(to: folder.appendingPathComponent("policy.yaml"))
        let altered = try run("verify", "policy.yaml", "--public-key", "release.pub", in: folder)
        #expect(altered.status == 1)
        #expect(altered.standardOutput.contains("does NOT verify"))
        // A private key given where the public one belongs is a usage error that says so.
        let mixedUp = try run("verify", "policy.yaml", "--public-key", "release.key", in: folder)
        #expect(mixedUp.status == 2)
        #expect(mixedUp.standardError.contains("this is a private key"))
    }

    @Test func aKeyOrSignatureFileThatCannotBeReadIsPlacedInIt() throws {
        let folder = try makeTemporaryFolder("delivery-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(policy.utf8).write(to: folder.appendingPathComponent("policy.yaml"))
        #expect(try run("keygen", "--output", "release", in: folder).status == 0)
        let publicKey = try String(contentsOf: folder.appendingPathComponent("release.pub"), encoding: .utf8)
        let privateKey = try String(contentsOf: folder.appendingPathComponent("release.key"), encoding: .utf8)

        // A secret pasted with its quotes: the public key's line is shown, with the quote marked.
        let quoted = publicKey.replacingOccurrences(of: "\n", with: "\n\"", options: [], range:
            publicKey.range(of: "\n"))
        try Data(quoted.utf8).write(to: folder.appendingPathComponent("quoted.pub"))
        let line = quoted.split(separator: "\n")[1]
        let verify = try run("verify", "policy.yaml", "--public-key", "quoted.pub", in: folder)
        #expect(verify.status == 2)
        #expect(verify.standardError == """
            quoted.pub:2:1: error: the public key is not base64: "\\"" is not a base64 character [signing.not-base64]
            \(line)
            ^

            """)

        // Bytes that are not UTF-8 in the comment before it: the place counts in the text as read, repaired.
        try (Data("# k".utf8) + Data([0xFF, 0xFE, 0xFD]) + Data("\n!AAAA\n".utf8))
            .write(to: folder.appendingPathComponent("mangled.pub"))
        let mangled = try run("verify", "policy.yaml", "--public-key", "mangled.pub", in: folder)
        #expect(mangled.status == 2)
        #expect(mangled.standardError == """
            mangled.pub:2:1: error: the public key is not base64: "!" is not a base64 character [signing.not-base64]
            !AAAA
            ^

            """)

        // A private key is placed too, but its line, the secret, is not shown.
        let cut = String(privateKey.dropLast(6)) + "\n"
        try Data(cut.utf8).write(to: folder.appendingPathComponent("cut.key"))
        let sign = try run("sign", "policy.yaml", "--key", "cut.key", in: folder)
        #expect(sign.status == 2)
        #expect(sign.standardError.hasPrefix("cut.key:2:1: error: the private key is not base64: its length or its "
            + "padding is wrong [signing.not-base64]"))
        let secret = privateKey.split(separator: "\n")[1]
        #expect(!sign.standardError.contains(secret.prefix(20)), "\(sign.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("policy.yaml.sig").path))

        // A signature given inline is said in words, with its code.
        let inline = try run("verify", "policy.yaml", "--public-key", "release.pub", "--signature", "AAAA", in: folder)
        #expect(inline.status == 2)
        #expect(inline.standardError == "launch-policy verify: AAAA: the signature has 3 bytes; an Ed25519 signature "
            + "has 64 [signing.wrong-length]\n")
    }

    @Test func signRefusesAPolicyWithErrors() throws {
        let folder = try makeTemporaryFolder("delivery-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("policy: 1\nrules: [{id: x, then: nope}]\n".utf8).write(to: folder.appendingPathComponent("bad.yaml"))
        #expect(try run("keygen", in: folder).status == 0)
        let sign = try run("sign", "bad.yaml", "--key", "launch-policy.key", in: folder)
        #expect(sign.status == 1)
        #expect(sign.standardError.contains("bad.yaml:2:"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("bad.yaml.sig").path))
    }

    @Test func fetchSaysWhichPolicyIsUsedAndWhy() throws {
        let folder = try makeTemporaryFolder("delivery-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let policy = self.policy
        let server = try TestHTTPServer { request in
            if request.headers["if-none-match"] == "\"7\"" { return TestHTTPServer.Reply(status: 304) }
            if request.path == "/policy.yaml" {
                return TestHTTPServer.Reply(headers: [("ETag", "\"7\"")], text: policy)
            }
            return TestHTTPServer.Reply(status: 404, text: "not here")
        }
        defer { server.stop() }
        let url = server.url("/policy.yaml").absoluteString

        let first = try run("fetch", url, "--cache", "cache", in: folder)
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardOutput.contains("refresh: updated"))
        #expect(first.standardOutput.contains("policy: cache (1 rule): the last-known-good policy fetched from \(url)"))

        let second = try run("fetch", url, "--cache", "cache", "--format", "json", in: folder)
        #expect(second.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(second.standardOutput.utf8)) as? [String: Any])
        let refresh = try #require(json["refresh"] as? [String: Any])
        #expect(refresh["outcome"] as? String == "not-modified")
        #expect(refresh["status"] as? Int == 304)
        let used = try #require(json["policy"] as? [String: Any])
        #expect(Set(used.keys) == ["origin", "source", "reason", "fetched-at", "confirmed-at", "etag", "rules",
            "locked-out", "diagnostics"])
        #expect(used["origin"] as? String == "cache")
        #expect(used["etag"] as? String == "\"7\"")

        // Unsigned, with a key set: rejected, the diagnostic on standard error, the cached policy still used;
        // --strict turns the failed refresh into exit 1.
        #expect(try run("keygen", in: folder).status == 0)
        let unsigned = try run("fetch", url, "--cache", "fresh-cache", "--public-key", "launch-policy.pub",
            "--strict", in: folder)
        #expect(unsigned.status == 1)
        #expect(unsigned.standardError.contains("[delivery.unsigned]"))
        #expect(unsigned.standardOutput.contains("policy: none"))

        let missing = try run("fetch", server.url("/gone.yaml").absoluteString, "--cache", "cache", in: folder)
        #expect(missing.status == 0, "the cached policy is still in use")
        #expect(missing.standardError.contains("[delivery.http-status]"))

        // A damaged cache and a bundled policy with an error: each diagnostic shows the line it points at.
        let cacheFile = folder.appendingPathComponent("cache/launch-policy-cache.json")
        let cached = try String(contentsOf: cacheFile, encoding: .utf8)
        let policyLine = try #require(cached.split(separator: "\n").first { $0.contains("\"policy\":") })
        try Data(cached.replacingOccurrences(of: policyLine, with: #"  "policy": "!","#).utf8).write(to: cacheFile)
        try Data("policy: 1\nrules:\n  - id: x\n    then: block\n    gate: wrong\n".utf8)
            .write(to: folder.appendingPathComponent("bundled.yaml"))
        let damaged = try run("fetch", server.url("/gone.yaml").absoluteString, "--cache", "cache", "--bundled",
            "bundled.yaml", in: folder)
        #expect(damaged.standardError.contains("""
            :13: warning: the cached policy is not used: its policy is not base64 [delivery.cache-unusable]
              "policy": "!",
                        ^~~
            """), "\(damaged.standardError)")
        #expect(damaged.standardError.contains("""
            bundled.yaml:5:5: error: a rule has no key "gate"
            """), "\(damaged.standardError)")
        #expect(damaged.standardError.contains("""
            [policy.unknown-key]
                gate: wrong
                ^~~~
            """), "\(damaged.standardError)")
    }

    @Test func aFileThatCannotBeReadIsAUsageErrorNamingIt() throws {
        let folder = try makeTemporaryFolder("delivery-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let sign = try run("sign", "missing.yaml", "--key", "missing.key", in: folder)
        #expect(sign.status == 2)
        #expect(sign.standardError.contains("launch-policy sign: cannot read the policy missing.yaml: no such file"))
    }

    @Test func fetchSendsTheHeadersItIsGiven() throws {
        let folder = try makeTemporaryFolder("delivery-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let policy = self.policy
        // The server serves the policy only to a request with the key and the app's name.
        let server = try TestHTTPServer { request in
            request.headers["authorization"] == "Bearer t:0k=" && request.headers["x-app"] == "lantern"
                ? TestHTTPServer.Reply(text: policy) : TestHTTPServer.Reply(status: 401, text: "no key")
        }
        defer { server.stop() }
        let url = server.url("/policy.yaml").absoluteString

        let without = try run("fetch", url, "--cache", "cache", "--strict", in: folder)
        #expect(without.status == 1)
        #expect(without.standardOutput.hasPrefix("refresh: failed"))
        let with = try run("fetch", url, "--cache", "cache", "--strict", "--header", "Authorization:  Bearer t:0k=  ",
            "--header", "X-App:lantern", in: folder)
        #expect(with.status == 0, "\(with.standardError)")
        #expect(with.standardOutput.hasPrefix("refresh: updated"))
    }

    @Test(arguments: [
        ("X-Api-Key k", "--header needs 'Name: value'; got \"X-Api-Key k\""),
        ("X Api Key: k", "--header: the request header name \"X Api Key\" is not an HTTP token"),
        (": k", "--header: the request header name \"\" is not an HTTP token"),
    ])
    func fetchRefusesAHeaderItCannotSend(header: String, message: String) throws {
        let folder = try makeTemporaryFolder("delivery-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try run("fetch", "https://example.com/policy.yaml", "--cache", "cache", "--header", header,
            in: folder)
        #expect(result.status == 2)
        #expect(result.standardError.contains(message), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("cache").path))
    }

    /// A response cut before the blank line that ends its head, as a connection dropped by a proxy leaves it.
    /// FoundationNetworking (Linux, Android) stops the process on it with "Transfer completed, but there's no
    /// response" (swift-corelibs-foundation, NativeProtocol.swift), a fatal error no code around URLSession can catch;
    /// URLSession on Apple platforms reports an error. Run in a process of its own, so that the trap is seen and the
    /// suite goes on; the known issue turns into a failure here once a fixed Foundation no longer traps.
    @Test(arguments: ["HTTP/1.1 200 OK\r\n", "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n"])
    func fetchOfAResponseCutInItsHead(head: String) throws {
        let folder = try makeTemporaryFolder("delivery-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try TestHTTPServer { _ in TestHTTPServer.Reply(raw: Data(head.utf8)) }
        defer { server.stop() }
        let result = try Executables.run("launch-policy", ["fetch", server.url("/policy.yaml").absoluteString,
            "--cache", "cache", "--timeout", "5"], in: folder, environment: ["SWIFT_BACKTRACE": "enable=no"])
        #if canImport(FoundationNetworking)
        withKnownIssue("FoundationNetworking traps on a transfer that completes without a whole head") {
            #expect(!result.crashed, "\(result.standardError)")
        }
        #else
        #expect(!result.crashed, "\(result.standardError)")
        #endif
        if !result.crashed {
            #expect(result.status == 1)
            #expect(result.standardOutput.hasPrefix("refresh: failed"))
        }
    }

    @Test(arguments: ["0", "-1", "nan", "-inf"])
    func fetchRejectsATimeoutThatIsNotMoreThanZero(timeout: String) throws {
        let folder = try makeTemporaryFolder("delivery-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try run("fetch", "https://example.com/policy.yaml", "--cache", "cache", "--timeout=\(timeout)",
            in: folder)
        #expect(result.status == 2)
        #expect(result.standardError.contains("--timeout must be more than 0 seconds"), "\(result.standardError)")
    }

    @Test func fetchRejectsAURLItCannotUse() throws {
        let folder = try makeTemporaryFolder("delivery-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try run("fetch", "ftp://example.com/policy.yaml", "--cache", "cache", in: folder)
        #expect(result.status == 2)
        #expect(result.standardError.contains("http:// or https://"))
    }
}
