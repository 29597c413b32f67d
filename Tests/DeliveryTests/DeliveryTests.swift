import Foundation
import LaunchPolicy
@testable import LaunchPolicyDelivery
import TestSupport
import Testing

/// What the test server answers, changeable between requests.
final class Script: @unchecked Sendable {
    private let lock = NSLock()
    private var respond: TestHTTPServer.Handler

    init(_ respond: @escaping TestHTTPServer.Handler) { self.respond = respond }

    func set(_ respond: @escaping TestHTTPServer.Handler) { lock.withLock { self.respond = respond } }

    func reply(_ request: TestHTTPServer.Request) -> TestHTTPServer.Reply { lock.withLock { respond }(request) }
}

/// Each case of the issue against a real server on 127.0.0.1: the decision uses the right policy, the launch path
/// does not wait, and the cache is never corrupted.
@Suite struct DeliveryTests {
    /// A fixture whose server first serves `remotePolicy` with an ETag, and a delivery that has fetched it: the
    /// last-known-good every failure case must keep.
    private func fixtureWithCachedPolicy(
        publicKey: PolicyPublicKey? = nil, signature: PolicySignature? = nil, timeout: TimeInterval = unhurriedTimeout,
        maximumSize: Int = 1 << 20
    ) async throws -> (Fixture, Script, PolicyDelivery, Data) {
        let script = Script { _ in
            policyReply(remotePolicy, headers: [("ETag", "\"v1\"")]
                + (signature.map { [("X-Policy-Signature", $0.base64)] } ?? []))
        }
        let fixture = try Fixture(publicKey: publicKey, timeout: timeout, maximumSize: maximumSize) { script.reply($0) }
        let delivery = fixture.delivery()
        let first = await delivery.refresh()
        #expect(first.outcome == .updated, "\(first.diagnostics.map(\.rendered))")
        let cached = try #require(fixture.cacheBytes)
        #expect(delivery.gateRule() == "remote-gate")
        return (fixture, script, delivery, cached)
    }

    /// After a failed refresh: the cache file is byte for byte what it was, and the launch still uses it.
    private func expectKept(_ fixture: Fixture, _ delivery: PolicyDelivery, _ cached: Data) {
        #expect(fixture.cacheBytes == cached)
        let current = delivery.current()
        #expect(current.origin == .cache)
        #expect(current.diagnostics.isEmpty)
        #expect(delivery.gateRule() == "remote-gate")
    }

    @Test func beforeAnyFetchTheBundledPolicyDecides() throws {
        let fixture = try Fixture { _ in policyReply(remotePolicy) }
        defer { fixture.tearDown() }
        let current = fixture.delivery().current()
        #expect(current.origin == .bundled)
        #expect(current.reason.contains("nothing has been fetched yet"))
        #expect(current.evaluate(launch).gate?.rule == "bundled-gate")
        #expect(fixture.server.requests.isEmpty, "current() must not touch the network")
    }

    @Test(arguments: [TimeInterval.infinity, 1e300])
    func aFetchWithoutATimeLimitCompletes(timeout: TimeInterval) async throws {
        let (fixture, _, _, _) = try await fixtureWithCachedPolicy(timeout: timeout)
        fixture.tearDown()
    }

    @Test func aFetchedPolicyIsCachedAndUsed() async throws {
        let (fixture, _, delivery, _) = try await fixtureWithCachedPolicy()
        defer { fixture.tearDown() }
        let current = delivery.current()
        #expect(current.origin == .cache)
        #expect(current.etag == "\"v1\"")
        #expect(current.source == fixture.server.url("/policy.yaml").absoluteString)
        #expect(current.reason.contains("last-known-good"))
        // A second delivery over the same folder (the next launch) reads it too.
        #expect(fixture.delivery().gateRule() == "remote-gate")
    }

    @Test func aNotModifiedAnswerConfirmsTheCachedPolicy() async throws {
        let fetchedAt = Date(timeIntervalSince1970: 1_790_000_000)
        let clock = Clock(fetchedAt)
        let script = Script { request in
            if request.headers["if-none-match"] == "\"v1\"" { return TestHTTPServer.Reply(status: 304) }
            return policyReply(remotePolicy, headers: [("ETag", "\"v1\""), ("Last-Modified", "Wed, 21 Oct 2026 07:28:00 GMT")])
        }
        let fixture = try Fixture { script.reply($0) }
        defer { fixture.tearDown() }
        let delivery = fixture.delivery(clock: clock.now)
        #expect(await delivery.refresh().outcome == .updated)
        #expect(fixture.server.requests[0].headers["if-none-match"] == nil)

        clock.advance(3_600)
        let second = await delivery.refresh()
        #expect(second.outcome == .notModified)
        #expect(second.status == 304)
        let request = fixture.server.requests[1]
        #expect(request.headers["if-none-match"] == "\"v1\"")
        #expect(request.headers["if-modified-since"] == "Wed, 21 Oct 2026 07:28:00 GMT")
        let current = delivery.current()
        #expect(current.origin == .cache)
        #expect(current.fetchedAt == fetchedAt)
        #expect(current.confirmedAt == fetchedAt + 3_600)
        #expect(delivery.gateRule() == "remote-gate")
    }

    @Test func aChangedPolicyReplacesTheCache() async throws {
        let (fixture, script, delivery, _) = try await fixtureWithCachedPolicy()
        defer { fixture.tearDown() }
        script.set { _ in policyReply(newerRemotePolicy, headers: [("ETag", "\"v2\"")]) }
        let result = await delivery.refresh()
        #expect(result.outcome == .updated, "\(result.diagnostics.map(\.rendered)) \(delivery.current().diagnostics.map(\.rendered))")
        #expect(delivery.gateRule() == "newer-remote-gate")
        #expect(delivery.current().etag == "\"v2\"")
    }

    @Test(arguments: [404, 500, 503])
    func anHTTPErrorKeepsTheCache(status: Int) async throws {
        let (fixture, script, delivery, cached) = try await fixtureWithCachedPolicy()
        defer { fixture.tearDown() }
        script.set { _ in TestHTTPServer.Reply(status: status, text: "<html>error page</html>") }
        let result = await delivery.refresh()
        #expect(result.outcome == .failed)
        #expect(result.status == status)
        #expect(result.codes == ["delivery.http-status"])
        #expect(result.diagnostics[0].rendered.contains("answered \(status)"))
        expectKept(fixture, delivery, cached)
    }

    @Test func anHTTPErrorBeforeAnyFetchLeavesTheBundledPolicy() async throws {
        let fixture = try Fixture { _ in TestHTTPServer.Reply(status: 404, text: "not found") }
        defer { fixture.tearDown() }
        let delivery = fixture.delivery()
        #expect(await delivery.refresh().codes == ["delivery.http-status"])
        #expect(fixture.cacheBytes == nil)
        #expect(delivery.current().origin == .bundled)
        #expect(delivery.gateRule() == "bundled-gate")
    }

    @Test func aNotModifiedAnswerToARequestWithoutValidatorsIsAnError() async throws {
        let fixture = try Fixture { _ in TestHTTPServer.Reply(status: 304) }
        defer { fixture.tearDown() }
        let delivery = fixture.delivery()
        let result = await delivery.refresh()
        #expect(result.outcome == .failed)
        #expect(result.codes == ["delivery.http-status"])
        #expect(fixture.cacheBytes == nil)
        #expect(delivery.gateRule() == "bundled-gate")
    }

    /// A policy served with no ETag and no Last-Modified is cached, and the next request cannot name it: a 304 to
    /// that request (a proxy's) confirms nothing, and neither its date nor its ETag is taken. Found by
    /// `DeliveryModelTests`: the 304 confirmed the policy and gave it an ETag it was never served with.
    @Test func aNotModifiedAnswerToARequestThatNamedNoValidatorConfirmsNothing() async throws {
        let clock = Clock(Date(timeIntervalSince1970: 1_790_000_000))
        let script = Script { _ in policyReply(remotePolicy) }
        let fixture = try Fixture { script.reply($0) }
        defer { fixture.tearDown() }
        let delivery = fixture.delivery(clock: clock.now)
        #expect(await delivery.refresh().outcome == .updated)
        let cached = try #require(fixture.cacheBytes)

        script.set { _ in TestHTTPServer.Reply(status: 304, headers: [("ETag", "\"v9\"")]) }
        clock.advance(3_600)
        let second = await delivery.refresh()
        #expect(fixture.server.requests[1].headers["if-none-match"] == nil)
        #expect(fixture.server.requests[1].headers["if-modified-since"] == nil)
        #expect(second.outcome == .failed)
        #expect(second.codes == ["delivery.http-status"])
        expectKept(fixture, delivery, cached)
        #expect(delivery.current().confirmedAt == Date(timeIntervalSince1970: 1_790_000_000))
    }

    /// A 304 that brings validators replaces those kept, as an HTTP cache updates what it stored (RFC 9111, 4.3.4).
    @Test func aNotModifiedAnswersValidatorsReplaceTheKeptOnes() async throws {
        let (fixture, script, delivery, _) = try await fixtureWithCachedPolicy()
        defer { fixture.tearDown() }
        script.set { _ in
            TestHTTPServer.Reply(status: 304,
                headers: [("ETag", "\"v2\""), ("Last-Modified", "Sat, 21 Nov 2026 00:00:00 GMT")])
        }
        #expect(await delivery.refresh().outcome == .notModified)
        #expect(delivery.current().etag == "\"v2\"")
        script.set { _ in TestHTTPServer.Reply(status: 304) }
        #expect(await delivery.refresh().outcome == .notModified)
        #expect(fixture.server.requests[2].headers["if-none-match"] == "\"v2\"")
        #expect(fixture.server.requests[2].headers["if-modified-since"] == "Sat, 21 Nov 2026 00:00:00 GMT")
    }

    @Test func aResponseSlowerThanTheTimeoutIsAbandonedAtTheTimeout() async throws {
        let (fixture, script, _, cached) = try await fixtureWithCachedPolicy()
        defer { fixture.tearDown() }
        fixture.source.timeout = 0.3
        let delivery = fixture.delivery()
        script.set { _ in
            var reply = policyReply(newerRemotePolicy)
            reply.delay = 60
            return reply
        }
        let started = Date()
        let result = await delivery.refresh()
        let elapsed = Date().timeIntervalSince(started)
        // Abandoned at the 0.3 s timeout: never before it, and not at the 60 s the server takes, or the newer
        // policy would have arrived. The time is no upper bound: it also counts the wait for a thread of the shared
        // pool, which the suite's heavy tests hold to the end of a parallel run.
        #expect(result.codes == ["delivery.timed-out"])
        #expect(elapsed >= 0.3, "the refresh waited \(elapsed) s")
        expectKept(fixture, delivery, cached)
    }

    @Test func aNotModifiedAnswerWithTheLengthOfWhatItStandsForConfirmsTheCachedPolicy() async throws {
        // A 304 may carry the Content-Length of the representation it stands for, and no body: not a truncated one.
        let (fixture, script, delivery, cached) = try await fixtureWithCachedPolicy()
        defer { fixture.tearDown() }
        script.set { _ in
            TestHTTPServer.Reply(
                raw: Data("HTTP/1.1 304 Not Modified\r\nETag: \"v1\"\r\nContent-Length: 180\r\n\r\n".utf8))
        }
        let result = await delivery.refresh()
        #expect(result.outcome == .notModified, "\(result.diagnostics.map(\.rendered))")
        #expect(fixture.cacheBytes != cached, "the confirmation is recorded")
        #expect(delivery.gateRule() == "remote-gate")
    }

    /// A policy of no rules, gzipped (Python's `gzip.compress(b"policy: 1\nrules: []\n", mtime=0)`): 40 bytes for a
    /// body of 20.
    static let gzippedPolicy = Data(base64Encoded: "H4sIAAAAAAACAyvIz8lMrrRSMOQqKs1JLbZSiI7lAgDk0wCZFAAAAA==")!

    @Test func aPolicySentGzippedIsDecodedAndNotTakenForTruncated() async throws {
        // The Content-Length is the gzip's, 40; the body the client hands on is the policy's 20 bytes.
        let gzipped = Self.gzippedPolicy
        let fixture = try Fixture { _ in
            TestHTTPServer.Reply(status: 200, headers: [("Content-Encoding", "gzip")], body: gzipped)
        }
        defer { fixture.tearDown() }
        let delivery = fixture.delivery()
        let result = await delivery.refresh()
        #expect(result.outcome == .updated, "\(result.diagnostics.map(\.rendered))")
        #expect(delivery.current().origin == .cache)
        #expect(delivery.current().policy?.rules.count == 0)
    }

    @Test func aGzippedPolicyCutShortIsRefused() async throws {
        let (fixture, script, delivery, cached) = try await fixtureWithCachedPolicy()
        defer { fixture.tearDown() }
        let gzipped = Self.gzippedPolicy
        script.set { _ in
            var reply = TestHTTPServer.Reply(status: 200, headers: [("Content-Encoding", "gzip")], body: gzipped)
            reply.truncateAfter = 15
            return reply
        }
        let result = await delivery.refresh()
        #expect(result.outcome == .failed)
        #expect(result.codes.count == 1)
        expectKept(fixture, delivery, cached)
    }

    @Test func aTruncatedBodyIsRejected() async throws {
        let (fixture, script, delivery, cached) = try await fixtureWithCachedPolicy()
        defer { fixture.tearDown() }
        script.set { _ in
            var reply = policyReply(newerRemotePolicy)
            reply.truncateAfter = 40
            return reply
        }
        let result = await delivery.refresh()
        #expect(result.outcome == .failed)
        #expect(result.codes == ["delivery.truncated"])
        expectKept(fixture, delivery, cached)
    }

    @Test(arguments: [true, false])
    func aBodyOverTheCapIsAbandoned(announcesLength: Bool) async throws {
        let (fixture, script, delivery, cached) = try await fixtureWithCachedPolicy(maximumSize: 4_096)
        defer { fixture.tearDown() }
        // A valid policy, padded with a comment to 64 KiB.
        let padded = newerRemotePolicy + "\n# " + String(repeating: "x", count: 65_536) + "\n"
        script.set { _ in
            var reply = policyReply(padded)
            reply.announcesLength = announcesLength
            return reply
        }
        let result = await delivery.refresh()
        #expect(result.outcome == .failed)
        #expect(result.codes == ["delivery.too-large"])
        #expect(result.diagnostics[0].rendered.contains("4096-byte cap"))
        expectKept(fixture, delivery, cached)
    }

    @Test func invalidYAMLIsRejectedWithItsPositions() async throws {
        let (fixture, script, delivery, cached) = try await fixtureWithCachedPolicy()
        defer { fixture.tearDown() }
        script.set { _ in policyReply("policy: 1\nrules:\n  - id: broken\n    when: {app-version: \"< 2.0\"\n") }
        let result = await delivery.refresh()
        #expect(result.outcome == .rejected)
        #expect(result.codes.first == "delivery.invalid-policy")
        // The reader's own diagnostic follows, at its line and column in the fetched file.
        let reader = try #require(result.diagnostics.dropFirst().first)
        #expect(reader.source == fixture.server.url("/policy.yaml").absoluteString)
        #expect(reader.diagnostic.code.rawValue.hasPrefix("yaml."))
        #expect(reader.diagnostic.range.start.line >= 4)
        expectKept(fixture, delivery, cached)
    }

    @Test func aPolicyWithSemanticErrorsIsRejected() async throws {
        let (fixture, script, delivery, cached) = try await fixtureWithCachedPolicy()
        defer { fixture.tearDown() }
        script.set { _ in policyReply(remotePolicy.replacingOccurrences(of: "then: block", with: "then: explode")) }
        let result = await delivery.refresh()
        #expect(result.outcome == .rejected)
        #expect(result.codes.first == "delivery.invalid-policy")
        #expect(result.codes.contains { $0.hasPrefix("policy.") })
        expectKept(fixture, delivery, cached)
    }

    @Test func aRedirectToAnotherHostIsNotFollowed() async throws {
        let (fixture, script, delivery, cached) = try await fixtureWithCachedPolicy()
        defer { fixture.tearDown() }
        let elsewhere = try TestHTTPServer { _ in policyReply(newerRemotePolicy) }
        defer { elsewhere.stop() }
        // Same machine, another host name: localhost is not 127.0.0.1.
        let target = "http://localhost:\(elsewhere.port)/policy.yaml"
        script.set { _ in TestHTTPServer.Reply(status: 302, headers: [("Location", target)]) }
        let result = await delivery.refresh()
        #expect(result.codes == ["delivery.redirect-refused"])
        #expect(result.diagnostics[0].rendered.contains(target))
        #expect(elsewhere.requests.isEmpty)
        expectKept(fixture, delivery, cached)
    }

    @Test func aRedirectOnTheSameHostIsFollowed() async throws {
        let (fixture, script, delivery, _) = try await fixtureWithCachedPolicy()
        defer { fixture.tearDown() }
        let moved = fixture.server.url("/v2/policy.yaml").absoluteString
        script.set { request in
            request.path == "/policy.yaml"
                ? TestHTTPServer.Reply(status: 301, headers: [("Location", moved)])
                : policyReply(newerRemotePolicy)
        }
        #expect(await delivery.refresh().outcome == .updated)
        #expect(delivery.gateRule() == "newer-remote-gate")
    }

    @Test func connectionRefusedKeepsTheCache() async throws {
        let (fixture, _, _, cached) = try await fixtureWithCachedPolicy()
        defer { fixture.tearDown() }
        // The same cache, now pointed at a port nothing listens on.
        fixture.source.remoteURL = URL(string: "http://127.0.0.1:\(TestHTTPServer.closedPort())/policy.yaml")
        let delivery = fixture.delivery()
        let result = await delivery.refresh()
        #expect(result.outcome == .failed)
        #expect(result.codes == ["delivery.unreachable"])
        #expect(fixture.cacheBytes == cached)
        #expect(delivery.current().origin == .cache)
        #expect(delivery.gateRule() == "remote-gate")
    }

    @Test func theLaunchPathDoesNotWaitForARefreshInFlight() async throws {
        let (fixture, script, delivery, cached) = try await fixtureWithCachedPolicy()
        defer { fixture.tearDown() }
        let gate = TestHTTPServer.Gate()
        script.set { _ in policyReply(newerRemotePolicy, heldBy: gate) }
        let refreshing = Task { await delivery.refresh() }
        // The server holds the request; the launch path answers meanwhile from the cache.
        while gate.waitingCount == 0 { try await Task.sleep(nanoseconds: 5_000_000) }
        #expect(delivery.gateRule() == "remote-gate")
        #expect(gate.waitingCount == 1, "the request is still held while the launch decided")
        #expect(fixture.cacheBytes == cached)
        gate.open()
        #expect(await refreshing.value.outcome == .updated)
        #expect(delivery.gateRule() == "newer-remote-gate")
    }

    @Test func concurrentRefreshesShareOneRequest() async throws {
        let gate = TestHTTPServer.Gate()
        let fixture = try Fixture { _ in policyReply(remotePolicy, heldBy: gate) }
        defer { fixture.tearDown() }
        let delivery = fixture.delivery()
        let first = Task { await delivery.refresh() }
        while gate.waitingCount == 0 { try await Task.sleep(nanoseconds: 5_000_000) }
        let second = Task { await delivery.refresh() }
        // The first request is held until the second call has joined it, however slow the machine.
        let deadline = Date().addingTimeInterval(unhurriedTimeout)
        while await delivery.joinedRefreshes == 0, Date() < deadline { try await Task.sleep(nanoseconds: 5_000_000) }
        gate.open()
        #expect(await first.value.outcome == .updated)
        #expect(await second.value.outcome == .updated)
        #expect(fixture.server.requests.count == 1)
    }

    @Test func aCacheThatCannotBeWrittenIsReportedAndNothingChanges() async throws {
        let fixture = try Fixture { _ in policyReply(remotePolicy) }
        defer { fixture.tearDown() }
        // The cache folder's place is taken by a file, so the folder cannot be made.
        let blocker = fixture.cacheDirectory.appendingPathComponent("file")
        try Data("x".utf8).write(to: blocker)
        fixture.source.cacheDirectory = blocker.appendingPathComponent("cache")
        let delivery = fixture.delivery()
        let result = await delivery.refresh()
        #expect(result.outcome == .failed)
        #expect(result.codes == ["delivery.cache-write-failed"])
        #expect(result.diagnostics.first?.diagnostic.message.contains("could not be cached: not a directory;") == true,
            "\(result.diagnostics)")
        #expect(delivery.gateRule() == "bundled-gate")
    }

    @Test func aCacheFileThatCannotBeReadIsNotUsedAndSaysWhy() async throws {
        let fixture = try Fixture { _ in policyReply(remotePolicy) }
        defer { fixture.tearDown() }
        try FileManager.default.createDirectory(at: fixture.cacheFile, withIntermediateDirectories: true)
        let current = fixture.delivery().current()
        #expect(current.origin == .bundled)
        #expect(current.diagnostics.map(\.diagnostic.message)
            == ["the cached policy is not used: it cannot be read: is a directory"])
        #expect(current.diagnostics.map(\.cause) == [.stateUnreadable])
        // A pipe in its place, with no writer: opening it waited for ever; now it is refused unread, and left.
        try FileManager.default.removeItem(at: fixture.cacheFile)
        #expect(mkfifo(fixture.cacheFile.path, 0o600) == 0)
        #expect(fixture.delivery().current().diagnostics.map(\.diagnostic.message)
            == ["the cached policy is not used: it cannot be read: not a regular file"])
        var status = stat()
        #expect(lstat(fixture.cacheFile.path, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
    }

    @Test func aCorruptedCacheFileIsSetAsideForTheBundledPolicyAndRepairedByTheNextFetch() async throws {
        let (fixture, _, delivery, cached) = try await fixtureWithCachedPolicy()
        defer { fixture.tearDown() }
        for damaged in [cached.prefix(cached.count / 2), Data(), Data("{\"format\": 1}".utf8)] {
            try damaged.write(to: fixture.cacheFile)
            let current = delivery.current()
            #expect(current.origin == .bundled)
            #expect(current.diagnostics.map(\.diagnostic.code.rawValue) == ["delivery.cache-unusable"])
            #expect(current.reason.contains("cannot be used"))
            #expect(delivery.gateRule() == "bundled-gate")
        }
        // Where the file stops being JSON, the diagnostic points: at the end of one cut short, at a stray byte. In a
        // file that is JSON but not a cache, at the field at fault, or at the object a key is missing from.
        let text = String(decoding: cached, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let cut = lines.prefix(3).joined(separator: "\n")
        let stray = lines.prefix(2).joined(separator: "\n") + "\n  ?" + lines.dropFirst(2).joined(separator: "\n")
        let policyLine = try #require(lines.firstIndex { $0.hasPrefix("  \"policy\": \"") })
        let notBase64 = text.replacingOccurrences(of: "\"policy\": \"", with: "\"policy\": \"!")
        let wrongType = text.replacingOccurrences(of: "\"policy\": \"", with: "\"policy\": 7, \"was\": \"")
        let newer = text.replacingOccurrences(of: "\"format\": 1", with: "\"format\": 2")
        for (text, line, column, message, cause) in [
            (cut, 3, lines[2].count + 1, "it is not valid JSON: it ends too soon (cut short?)",
                DiagnosticCode.stateNotJSON),
            (stray, 3, 3, #"it is not valid JSON: unexpected "?" where a key should start"#, .stateNotJSON),
            ("{\"format\": 1}", 1, 1, #"the key "url" is missing"#, .stateMissingKey),
            (notBase64, policyLine + 1, 13, "its policy is not base64", .stateInvalidValue),
            (wrongType, policyLine + 1, 13, "policy is a whole number, not a string", .stateWrongType),
            (newer, 2, 13, "it has format 2; this version of LaunchPolicy reads format 1", .stateUnsupportedFormat),
        ] {
            try Data(text.utf8).write(to: fixture.cacheFile)
            let found = try #require(delivery.current().diagnostics.first)
            #expect(found.cause == cause, "\(found)")
            let diagnostic = found.diagnostic
            #expect(diagnostic.code == .deliveryCacheUnusable)
            #expect(diagnostic.message == "the cached policy is not used: \(message)")
            #expect((diagnostic.range.start.line, diagnostic.range.start.column) == (line, column), "\(diagnostic)")
        }
        // A damaged cache sends no validators, so the next fetch brings the whole policy back.
        #expect(await delivery.refresh().outcome == .updated)
        #expect(fixture.server.requests.last?.headers["if-none-match"] == nil)
        #expect(delivery.gateRule() == "remote-gate")
    }

    /// Whatever the cache file holds (damaged on disk, written by another version, edited by hand), the launch path
    /// uses the cached policy only when its bytes verify, else sets the file aside for the bundled policy, and never
    /// stops, never leaves the app without a decision and never changes the file: the promise the fuzz target holds
    /// the policy reader and the launch history to, for the one file delivery reads at launch. Seeded edits of a
    /// signed cache, each field given values from the edges of what its type holds, then damaged bytes; read with the
    /// key and fail-closed, so that the signature, the dates and the lockout's age are all read.
    @Test func aCacheFileOfAnyContentIsUsedOnlyWhenItVerifies() async throws {
        let key = PolicySigningKey.generate()
        let signature = try key.signature(for: Data(remotePolicy.utf8))
        let (fixture, _, _, cached) = try await fixtureWithCachedPolicy(publicKey: key.publicKey, signature: signature)
        defer { fixture.tearDown() }
        fixture.source.failureMode = .closed(maximumAge: 86_400, message: "offline")
        let delivery = fixture.delivery()
        let entry = try #require(try JSONSerialization.jsonObject(with: cached) as? [String: Any])
        let edges: [Any] = [
            "", "0000-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "2026-02-30T00:00:00Z", "1e300", "AAAA", "====",
            Data(repeating: 0, count: 64).base64EncodedString(),
            Data(repeating: 0xFF, count: 100_000).base64EncodedString(),
            0, -1, 1, 2, Int.max, Int.min, 1e300, -0.0, true, NSNull(), [Any](), [String: Any](),
        ]
        var inputs: [Data] = []
        for field in entry.keys.sorted() {
            for value in edges {
                var edited = entry
                edited[field] = value
                inputs.append(try JSONSerialization.data(withJSONObject: edited))
            }
            var removed = entry
            removed[field] = nil
            inputs.append(try JSONSerialization.data(withJSONObject: removed))
        }
        // Another policy in the cache, under the signature of the first, none, or one by another key: never used.
        let newer = Data(newerRemotePolicy.utf8)
        for signature in [entry["signature"], nil, try PolicySigningKey.generate().signature(for: newer).base64] {
            var swapped = entry
            swapped["policy"] = newer.base64EncodedString()
            swapped["signature"] = signature ?? nil
            inputs.append(try JSONSerialization.data(withJSONObject: swapped))
        }
        var generator = SeededGenerator(seed: 8)
        for _ in 0..<200 {
            var bytes = [UInt8](cached)
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let at = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[at] = UInt8.random(in: 0...255, using: &generator)
                case 1: bytes.removeSubrange(at...)
                default: bytes.insert(contentsOf: Array("\\u0000\"}]9e999".utf8).shuffled(using: &generator), at: at)
                }
                if bytes.isEmpty { break }
            }
            inputs.append(Data(bytes))
        }

        var origins: [DeliveredPolicy.Origin: Int] = [:]
        for input in inputs {
            try input.write(to: fixture.cacheFile)
            let current = delivery.current()
            origins[current.origin, default: 0] += 1
            let decided = current.evaluate(launch).gate?.rule
            switch current.origin {
            case .cache:
                // Only the signed bytes verify, and they block 0.5 under "remote-gate"; an edited date may lock out.
                #expect(current.policy?.evaluate(launch).gate?.rule == "remote-gate",
                    "\(String(decoding: input, as: UTF8.self))")
                #expect(decided == (current.lockout == nil ? "remote-gate" : DeliveredPolicy.lockoutRule))
            case .bundled, .none:
                #expect(current.diagnostics.first?.diagnostic.code == .deliveryCacheUnusable,
                    "\(String(decoding: input, as: UTF8.self))")
                #expect(current.lockout != nil, "fail-closed: nothing verified is on hand")
            }
            #expect(fixture.cacheBytes == input, "the launch path never writes the cache")
        }
        // Both ways were taken: edits of fields the signature does not cover keep the policy in use.
        #expect(origins[.cache, default: 0] > 10 && origins[.bundled, default: 0] > 10, "\(origins)")
    }

    @Test func aCachedPolicyEditedOnDiskIsNotUsed() async throws {
        let (fixture, _, delivery, cached) = try await fixtureWithCachedPolicy()
        defer { fixture.tearDown() }
        var text = String(decoding: cached, as: UTF8.self)
        let encoded = Data(remotePolicy.utf8).base64EncodedString()
        text = text.replacingOccurrences(of: encoded, with: Data("policy: 1\nrules: oops\n".utf8).base64EncodedString())
        try Data(text.utf8).write(to: fixture.cacheFile)
        let current = delivery.current()
        #expect(current.origin == .bundled)
        #expect(current.diagnostics.map(\.diagnostic.code.rawValue) == ["delivery.cache-unusable"])
        // What is wrong with the policy, from its first error, where the policy's own lines count.
        #expect(current.diagnostics.map(\.cause) == [.policyWrongType])
        #expect(current.diagnostics.first?.diagnostic.message == "the cached policy is not used: it no longer decodes "
            + "without errors (2:8: rules must be a list, not a scalar)")
    }

    @Test func withoutABundledPolicyOrCacheNoRuleAppliesAndTheUserIsLetIn() throws {
        let fixture = try Fixture { _ in policyReply(remotePolicy) }
        defer { fixture.tearDown() }
        fixture.source.bundled = nil
        let current = fixture.delivery().current()
        #expect(current.origin == .none)
        #expect(current.policy == nil)
        #expect(current.evaluate(launch) == Decision())
    }

    @Test func aBundledPolicyWithErrorsIsReportedAndNotUsed() throws {
        let fixture = try Fixture { _ in policyReply(remotePolicy) }
        defer { fixture.tearDown() }
        fixture.source.bundled = Data("policy: 1\nrules: [{id: x, then: nope}]\n".utf8)
        let current = fixture.delivery().current()
        #expect(current.origin == .none)
        #expect(current.diagnostics.first?.diagnostic.code == .deliveryBundledInvalid)
        #expect(current.diagnostics.count > 1, "the bundled policy's own diagnostics follow")
        #expect(current.evaluate(launch).gate == nil)
    }
}

/// A clock tests move by hand.
final class Clock: @unchecked Sendable {
    private let lock = NSLock()
    private var date: Date

    init(_ date: Date) { self.date = date }

    func advance(_ seconds: TimeInterval) { lock.withLock { date += seconds } }

    var now: @Sendable () -> Date { { [self] in lock.withLock { date } } }
}
