import Foundation
import LaunchPolicy
import LaunchPolicyDelivery
import TestSupport
import Testing

@Suite struct SigningTests {
    let key = PolicySigningKey.generate()
    let policy = Data(remotePolicy.utf8)

    @Test func aSignatureVerifiesOnlyTheBytesItSignedWithItsOwnKey() throws {
        let signature = try key.signature(for: policy)
        #expect(signature.bytes.count == 64)
        #expect(key.publicKey.verifies(signature, of: policy))
        #expect(!key.publicKey.verifies(signature, of: policy + Data("\n".utf8)))
        #expect(!PolicySigningKey.generate().publicKey.verifies(signature, of: policy))
    }

    @Test func keysAndSignaturesRoundTripThroughTheirText() throws {
        let signature = try key.signature(for: policy)
        let publicKey = try PolicyPublicKey(text: key.publicKey.text)
        #expect(publicKey == key.publicKey)
        #expect(try PolicyPublicKey(text: key.publicKey.base64) == key.publicKey)
        let reread = try PolicySigningKey(text: key.text)
        #expect(reread.publicKey == key.publicKey)
        #expect(publicKey.verifies(try PolicySignature(text: signature.text), of: policy))
        #expect(publicKey.verifies(try PolicySignature(text: "  \(signature.base64)  "), of: policy))
    }

    /// Key and signature texts that cannot be read, each with the place its problem is expected at marked `⟦…⟧`
    /// in it, the code and the message.
    static let unreadable: [(kind: String, marked: String, code: String, reason: String)] = [
        ("public key", "⟦⟧", "signing.empty", "the public key is empty"),
        ("public key", "⟦⟧# LaunchPolicy Ed25519 public key\n  \n", "signing.empty", "the public key is empty"),
        ("public key", "# LaunchPolicy Ed25519 public key\n  xCsc8+Yiz⟦!⟧dKcRiAtLn0bDIN94pO9suos+K3QwL0nXqg=\n",
            "signing.not-base64", "the public key is not base64: \"!\" is not a base64 character"),
        // Columns count characters, and a byte order mark counts in none; CR LF breaks a line.
        ("public key", "\u{FEFF}# ключ\r\nxCsc8+Yiz⟦é⟧dKcRiAtLn0bDIN94pO9suos+K3QwL0nXqg=\r\n", "signing.not-base64",
            "the public key is not base64: \"é\" is not a base64 character"),
        ("public key", "# a quoted secret\n⟦\"⟧xCsc8+YizdKcRiAtLn0bDIN94pO9suos+K3QwL0nXqg=\"", "signing.not-base64",
            "the public key is not base64: \"\\\"\" is not a base64 character"),
        ("public key", "x⟦\u{7}⟧", "signing.not-base64",
            "the public key is not base64: \"\\u{07}\" is not a base64 character"),
        ("public key", "# key\n ⟦xCsc8+YizdKcRiAtLn0bDIN94\npO9suos+K3QwL0nXqg⟧\n", "signing.not-base64",
            "the public key is not base64: its length or its padding is wrong"),
        ("public key", "# key\n⟦\(Data(count: 31).base64EncodedString())⟧\n", "signing.wrong-length",
            "the public key has 31 bytes; an Ed25519 public key has 32"),
        ("public key", "⟦# LaunchPolicy Ed25519 private key: keep it secret⟧\nAAAA\n", "signing.private-key",
            "this is a private key; configure the app with the public key (the .pub file)"),
        ("signature", "  ⟦\(Data(count: 12).base64EncodedString())⟧  ", "signing.wrong-length",
            "the signature has 12 bytes; an Ed25519 signature has 64"),
        ("private key", "# private\n⟦\(Data(count: 33).base64EncodedString())⟧", "signing.wrong-length",
            "the private key has 33 bytes; an Ed25519 private key has 32"),
    ]

    @Test(arguments: unreadable)
    func unreadableKeysAndSignaturesArePlacedInTheirText(kind: String, marked: String, code: String, reason: String) {
        let (text, expected) = unmark(marked)
        do {
            switch kind {
            case "public key": _ = try PolicyPublicKey(text: text)
            case "private key": _ = try PolicySigningKey(text: text)
            default: _ = try PolicySignature(text: text)
            }
            Issue.record("\(text.debugDescription) was read as a \(kind)")
        } catch {
            #expect(error.code.rawValue == code)
            #expect(error.reason == reason)
            #expect(error.range == expected)
            #expect(error.diagnostic == .error(error.code, reason, at: expected))
            #expect(error.localizedDescription == reason)
        }
    }

    @Test func spacesAndLineBreaksInsideTheBase64AreDropped() throws {
        let base64 = key.publicKey.base64
        let split = "# the key, wrapped\n  " + base64.prefix(20) + " \t" + base64.dropFirst(20).prefix(10) + "\r\n"
            + base64.dropFirst(30) + "\n# end\n"
        #expect(try PolicyPublicKey(text: split) == key.publicKey)
    }

    @Test func aSignatureInTheHeaderIsVerified() async throws {
        let signature = try key.signature(for: policy)
        let fixture = try Fixture(publicKey: key.publicKey) { _ in
            policyReply(remotePolicy, headers: [("X-Policy-Signature", signature.base64)])
        }
        defer { fixture.tearDown() }
        let delivery = fixture.delivery()
        #expect(await delivery.refresh().outcome == .updated)
        #expect(delivery.gateRule() == "remote-gate")
        // The header answered: no sidecar was asked for.
        #expect(fixture.server.requests.map(\.path) == ["/policy.yaml"])
    }

    @Test func aSidecarSignatureIsFetchedWhenTheHeaderIsAbsent() async throws {
        let signature = try key.signature(for: policy)
        let fixture = try Fixture(publicKey: key.publicKey) { request in
            request.path == "/policy.yaml.sig"
                ? TestHTTPServer.Reply(text: signature.text) : policyReply(remotePolicy)
        }
        defer { fixture.tearDown() }
        let delivery = fixture.delivery()
        #expect(await delivery.refresh().outcome == .updated)
        #expect(fixture.server.requests.map(\.path) == ["/policy.yaml", "/policy.yaml.sig"])
        #expect(delivery.gateRule() == "remote-gate")
    }

    @Test func aSidecarIsHeldToTheRefreshDeadline() async throws {
        let signature = try key.signature(for: policy)
        // Two seconds, not less: the policy itself must arrive within the deadline for the signature to be the part
        // that runs out of it, and on a loaded run (the full suite on two cores) half a second was not always enough.
        let fixture = try Fixture(publicKey: key.publicKey, timeout: 2) { request in
            guard request.path.hasSuffix(".sig") else { return policyReply(remotePolicy) }
            var reply = TestHTTPServer.Reply(text: signature.text)
            reply.delay = 60
            return reply
        }
        defer { fixture.tearDown() }
        let started = Date()
        let result = await fixture.delivery().refresh()
        let elapsed = Date().timeIntervalSince(started)
        // Held to the refresh's deadline: not before 2 s, and not until the server's 60 s, or the signature would
        // have arrived and the policy been updated. The time is no upper bound: it also counts the wait for a thread
        // of the shared pool, which the suite's heavy tests hold to the end of a parallel run.
        #expect(elapsed >= 2, "\(elapsed) s")
        #expect(result.outcome == .rejected)
        #expect(result.codes == ["delivery.bad-signature"])
        #expect(result.diagnostics[0].diagnostic.message.contains("policy.yaml.sig could not be fetched: no complete response"), "\(result.diagnostics[0].rendered)")
        #expect(fixture.cacheBytes == nil)
    }

    @Test func anUnsignedPolicyIsRejectedWhenAKeyIsSet() async throws {
        let fixture = try Fixture(publicKey: key.publicKey) { request in
            request.path.hasSuffix(".sig") ? TestHTTPServer.Reply(status: 404, text: "no") : policyReply(remotePolicy)
        }
        defer { fixture.tearDown() }
        let delivery = fixture.delivery()
        let result = await delivery.refresh()
        #expect(result.outcome == .rejected)
        #expect(result.codes == ["delivery.unsigned"])
        #expect(fixture.cacheBytes == nil)
        #expect(delivery.gateRule() == "bundled-gate")
    }

    @Test(arguments: ["wrong key", "altered policy", "garbage"])
    func aBadSignatureIsRejectedAndTheCacheKept(kind: String) async throws {
        let good = try key.signature(for: policy)
        let script = Script { _ in policyReply(remotePolicy, headers: [("X-Policy-Signature", good.base64)]) }
        let fixture = try Fixture(publicKey: key.publicKey) { script.reply($0) }
        defer { fixture.tearDown() }
        let delivery = fixture.delivery()
        #expect(await delivery.refresh().outcome == .updated)
        let cached = try #require(fixture.cacheBytes)

        let newer = Data(newerRemotePolicy.utf8)
        let header: String
        switch kind {
        case "wrong key": header = try PolicySigningKey.generate().signature(for: newer).base64
        case "altered policy": header = try key.signature(for: Data(remotePolicy.utf8)).base64  // signs other bytes
        default: header = "AAAA"
        }
        script.set { _ in policyReply(newerRemotePolicy, headers: [("X-Policy-Signature", header)]) }
        let result = await delivery.refresh()
        #expect(result.outcome == .rejected)
        #expect(result.codes == ["delivery.bad-signature"])
        #expect(fixture.cacheBytes == cached)
        #expect(delivery.gateRule() == "remote-gate")
    }

    @Test func aCacheWrittenBeforeAKeyWasConfiguredIsNotTrusted() async throws {
        let fixture = try Fixture { _ in policyReply(remotePolicy) }
        defer { fixture.tearDown() }
        #expect(await fixture.delivery().refresh().outcome == .updated)
        fixture.source.publicKey = key.publicKey
        let current = fixture.delivery().current()
        #expect(current.origin == .bundled)
        #expect(current.diagnostics.map(\.diagnostic.code) == [.deliveryCacheUnusable])
        #expect(current.diagnostics.map(\.cause) == [.deliveryUnsigned])
        #expect(current.diagnostics.first?.diagnostic.message
            == "the cached policy is not used: it has no signature, and a key is configured")
        // Signed, but by another key: the cache says so apart from no signature at all.
        fixture.source.publicKey = PolicySigningKey.generate().publicKey
        let cacheBytes = try #require(fixture.cacheBytes)
        var cache = try #require(try JSONSerialization.jsonObject(with: cacheBytes) as? [String: Any])
        cache["signature"] = try key.signature(for: Data(remotePolicy.utf8)).text
        try JSONSerialization.data(withJSONObject: cache).write(to: fixture.cacheFile)
        let otherKey = fixture.delivery().current()
        #expect(otherKey.origin == .bundled)
        #expect(otherKey.diagnostics.map(\.cause) == [.deliveryBadSignature])
        #expect(otherKey.diagnostics.first?.diagnostic.message
            == "the cached policy is not used: it is not signed by the configured key")
        let json = try #require(otherKey.diagnostics.first?.json.text)
        #expect(json.hasSuffix(#", "cause": "delivery.bad-signature"}"#), "\(json)")
    }
}

@Suite struct FailureModeTests {
    let message = "Lantern cannot check its settings. Connect to the internet and try again."

    @Test func failClosedLocksTheAppUntilAVerifiedPolicyArrives() async throws {
        let clock = Clock(Date(timeIntervalSince1970: 1_790_000_000))
        let script = Script { _ in TestHTTPServer.Reply(status: 500, text: "down") }
        let fixture = try Fixture(failureMode: .closed(maximumAge: 86_400, message: message)) { script.reply($0) }
        defer { fixture.tearDown() }
        let delivery = fixture.delivery(clock: clock.now)

        // Nothing fetched: the bundled policy is not enough.
        var current = delivery.current()
        #expect(current.lockout == message)
        #expect(current.diagnostics.map(\.diagnostic.code) == [.deliveryLockedOut])
        #expect(current.diagnostics.first?.diagnostic.message == "fail-closed: no verified remote policy is on hand; "
            + "every launch is blocked until a refresh succeeds")
        let gate = try #require(current.evaluate(launch).gate)
        #expect(gate.action == .block)
        #expect(gate.rule == DeliveredPolicy.lockoutRule)
        #expect(gate.text == message)
        #expect(await delivery.refresh().outcome == .failed)
        #expect(delivery.current().lockout != nil)

        // A good fetch unlocks it.
        script.set { _ in policyReply(remotePolicy) }
        #expect(await delivery.refresh().outcome == .updated)
        current = delivery.current()
        #expect(current.lockout == nil)
        #expect(current.evaluate(launch).gate?.rule == "remote-gate")

        // A day later, with the server down, it locks again.
        clock.advance(86_401)
        script.set { _ in TestHTTPServer.Reply(status: 500, text: "down") }
        #expect(await delivery.refresh().outcome == .failed)
        current = delivery.current()
        #expect(current.lockout == message)
        #expect(current.diagnostics.first?.diagnostic.message == "fail-closed: the policy was last confirmed "
            + "2026-09-21T14:13:20.000Z, longer ago than the 86400 s allowed; every launch is blocked until a refresh "
            + "succeeds")

        // A clock set back to two days before the policy was confirmed: it locks too, and says so.
        clock.advance(-3 * 86_400 - 1)
        current = delivery.current()
        #expect(current.lockout == message)
        #expect(current.diagnostics.first?.diagnostic.message == "fail-closed: the policy was last confirmed "
            + "2026-09-21T14:13:20.000Z, further ahead of now than the 86400 s allowed (the device's clock or the "
            + "cache file is wrong); every launch is blocked until a refresh succeeds")

        // A confirmation date that does not read (the file edited by hand): the cache is not used, its warning says
        // why and where, and the lockout does not claim an age it cannot know.
        let cached = try String(contentsOf: fixture.cacheFile, encoding: .utf8)
        let edited = cached.replacingOccurrences(of: #""confirmedAt": "2026-09-21T14:13:20.000Z""#,
            with: #""confirmedAt": "last week""#)
        #expect(edited != cached)
        try Data(edited.utf8).write(to: fixture.cacheFile)
        current = delivery.current()
        #expect(current.lockout == message)
        #expect(current.origin != .cache)
        #expect(current.diagnostics.map(\.diagnostic.code) == [.deliveryCacheUnusable, .deliveryLockedOut])
        #expect(current.diagnostics.first?.diagnostic.message
            == #"the cached policy is not used: confirmedAt "last week" is not an ISO 8601 date and time"#)
        let line = edited.split(separator: "\n").firstIndex { $0.contains("last week") }.map { $0 + 1 }
        #expect(current.diagnostics.first.map { $0.diagnostic.range.start.line } == line)
        #expect(current.diagnostics.last?.diagnostic.message == "fail-closed: no verified remote policy is on hand; "
            + "every launch is blocked until a refresh succeeds")
    }

    /// A cached policy too old for fail-closed does not end the wait at once: the launch waits for the refresh that
    /// confirms it, and is let in.
    @Test func aLaunchLockedOutByAnOldCacheWaitsForTheRefresh() async throws {
        let clock = Clock(Date(timeIntervalSince1970: 1_790_000_000))
        let fixture = try Fixture(failureMode: .closed(maximumAge: 86_400, message: message)) { _ in
            policyReply(remotePolicy)
        }
        defer { fixture.tearDown() }
        let delivery = fixture.delivery(clock: clock.now)
        #expect(await delivery.refresh().outcome == .updated)
        clock.advance(86_401)
        #expect(delivery.current().lockout == message)
        let current = await delivery.firstLaunchPolicy(waitingAtMost: unhurriedWait)
        #expect(fixture.server.requests.count == 2, "the wait refreshed")
        #expect(current.lockout == nil)
        #expect(current.evaluate(launch).gate?.rule == "remote-gate")
    }

    @Test func failClosedWithNoAgeLimitLocksOnlyUntilTheFirstVerifiedPolicy() async throws {
        let clock = Clock(Date(timeIntervalSince1970: 1_790_000_000))
        let script = Script { _ in TestHTTPServer.Reply(status: 500, text: "down") }
        let fixture = try Fixture(failureMode: .closed(maximumAge: .infinity, message: message)) { script.reply($0) }
        defer { fixture.tearDown() }
        let delivery = fixture.delivery(clock: clock.now)
        let locked = delivery.current()
        #expect(locked.lockout == message)
        let diagnostic = try #require(locked.diagnostics.first?.diagnostic)
        #expect(diagnostic.message.contains("no verified remote policy is on hand"), "\(diagnostic.message)")
        script.set { _ in policyReply(remotePolicy) }
        #expect(await delivery.refresh().outcome == .updated)
        // Ages later, with the server down, it stays unlocked.
        clock.advance(1e15)
        script.set { _ in TestHTTPServer.Reply(status: 500, text: "down") }
        #expect(await delivery.refresh().outcome == .failed)
        #expect(delivery.current().lockout == nil)
    }

    @Test func failOpenNeverLocks() async throws {
        let fixture = try Fixture { _ in TestHTTPServer.Reply(status: 500, text: "down") }
        defer { fixture.tearDown() }
        fixture.source.bundled = nil
        let delivery = fixture.delivery()
        #expect(await delivery.refresh().outcome == .failed)
        let current = delivery.current()
        #expect(current.lockout == nil)
        #expect(current.evaluate(launch).gate == nil)
    }

    @Test func aFirstLaunchMayWaitForAFreshPolicy() async throws {
        let fixture = try Fixture { _ in policyReply(remotePolicy) }
        defer { fixture.tearDown() }
        let delivery = fixture.delivery()
        let current = await delivery.firstLaunchPolicy(waitingAtMost: unhurriedWait)
        #expect(current.origin == .cache)
        #expect(current.evaluate(launch).gate?.rule == "remote-gate")
        // With a policy cached, later launches do not wait or fetch.
        #expect(await delivery.firstLaunchPolicy(waitingAtMost: unhurriedWait).origin == .cache)
        #expect(fixture.server.requests.count == 1)
    }

    @Test(arguments: [TimeInterval.infinity, 1e300, 2e10])
    func aFirstLaunchMayWaitWithoutADeadline(seconds: TimeInterval) async throws {
        let fixture = try Fixture { _ in policyReply(remotePolicy) }
        defer { fixture.tearDown() }
        let current = await fixture.delivery().firstLaunchPolicy(waitingAtMost: seconds)
        #expect(current.origin == .cache)
        #expect(current.evaluate(launch).gate?.rule == "remote-gate")
    }

    @Test func theFirstLaunchWaitEndsAtItsDeadlineAndTheFetchServesTheNextLaunch() async throws {
        let gate = TestHTTPServer.Gate()
        let fixture = try Fixture { _ in policyReply(remotePolicy, heldBy: gate) }
        defer { fixture.tearDown() }
        let delivery = fixture.delivery()
        let current = await delivery.firstLaunchPolicy(waitingAtMost: 0.2)
        #expect(current.origin == .bundled)
        // The fetch goes on (it may not have reached the server yet, when the tests keep every thread busy).
        var deadline = Date().addingTimeInterval(unhurriedWait)
        while gate.waitingCount == 0, Date() < deadline { try await Task.sleep(nanoseconds: 10_000_000) }
        #expect(gate.waitingCount == 1, "the fetch is still in flight")
        gate.open()
        // The refresh the wait started completes on its own.
        deadline = Date().addingTimeInterval(unhurriedWait)
        while delivery.current().origin != .cache, Date() < deadline { try await Task.sleep(nanoseconds: 10_000_000) }
        #expect(delivery.gateRule() == "remote-gate")
    }

    /// An app's launch work can keep every thread of Swift's pool busy. The wait with a completion handler still
    /// ends at its deadline, though the refresh has no thread to start on.
    @Test func theFirstLaunchWaitEndsAtItsDeadlineWhileThePoolIsBusy() throws {
        let gate = TestHTTPServer.Gate()
        let fixture = try Fixture { _ in policyReply(remotePolicy, heldBy: gate) }
        defer { gate.open(); fixture.tearDown() }
        let delivery = fixture.delivery()
        // The pool has a thread for each processor the process may use, and this test's own thread, held while it
        // waits below, is one of them. (Where the pool is wider, as under a container's CPU quota, which the count
        // may reflect, the refresh may start; the test then proves less, but holds all the same.)
        let hold = PoolHold(threads: ProcessInfo.processInfo.activeProcessorCount - 1)
        defer { hold.release() }
        let answer = Answer<DeliveredPolicy>()
        delivery.firstLaunchPolicy(waitingAtMost: 0.2, on: DispatchQueue(label: "app")) { answer.give($0) }
        let current = answer.wait(atMost: unhurriedTimeout)
        #expect(!hold.anyGaveUp, "the wait ended while the pool was held")
        #expect(current?.origin == .bundled)
    }
}
