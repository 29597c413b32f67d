import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LaunchPolicy
import LaunchPolicyDelivery
import TestSupport
import Testing

/// A transport an app brings: it answers each request as the test says, and keeps the requests it was given.
final class ScriptedTransport: PolicyTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [PolicyRequest] = []
    private let answer: @Sendable (PolicyRequest) async throws -> PolicyResponse

    init(_ answer: @escaping @Sendable (PolicyRequest) async throws -> PolicyResponse) { self.answer = answer }

    func get(_ request: PolicyRequest) async throws -> PolicyResponse {
        lock.withLock { seen.append(request) }
        return try await answer(request)
    }

    /// The requests made so far, in order.
    var requests: [PolicyRequest] { lock.withLock { seen } }
}

/// The transport docs/delivery.md shows, as written there: an app's own URLSession.
struct DocumentedTransport: PolicyTransport {
    let session: URLSession   // its delegate checks the server's certificate

    func get(_ request: PolicyRequest) async throws -> PolicyResponse {
        var urlRequest = URLRequest(url: request.url, cachePolicy: .reloadIgnoringLocalAndRemoteCacheData,
            timeoutInterval: request.timeout)
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        let (body, response) = try await session.data(for: urlRequest)
        let http = response as! HTTPURLResponse
        return PolicyResponse(status: http.statusCode,
            headers: http.allHeaderFields as? [String: String] ?? [:], body: body)
    }
}

/// An error of an app's own HTTP client, with a description of its own.
private struct ClientError: LocalizedError {
    var errorDescription: String? { "the TLS handshake failed: certificate not pinned" }
}

@Suite struct TransportTests {
    static let url = URL(string: "https://policies.example.com/lantern/policy.yaml")!

    /// A source that fetches `url` through `transport`, with its cache in a new folder.
    private func source(_ transport: any PolicyTransport, headers: [String: String] = [:], timeout: TimeInterval = 60,
        maximumSize: Int = 1 << 20, publicKey: PolicyPublicKey? = nil) throws -> PolicySource
    {
        PolicySource(bundled: Data(bundledPolicy.utf8), remoteURL: Self.url,
            cacheDirectory: try makeTemporaryFolder("transport"), publicKey: publicKey, timeout: timeout,
            maximumSize: maximumSize, requestHeaders: headers, transport: transport)
    }

    private func cacheBytes(_ source: PolicySource) -> Data? { try? Data(contentsOf: source.cacheFile) }

    @Test func anAppsTransportCarriesTheRefreshWithTheAppsHeaders() async throws {
        let transport = ScriptedTransport { request in
            request.headers["If-None-Match"] == "\"v1\""
                ? PolicyResponse(status: 304)
                // The names in the case a server may send them: the refresh reads them whatever their case.
                : PolicyResponse(status: 200, headers: ["etag": "\"v1\"", "LAST-MODIFIED": "Fri, 20 Nov 2026"],
                    body: Data(remotePolicy.utf8))
        }
        let source = try source(transport, headers: ["Authorization": "Bearer abc", "if-none-match": "\"forged\""],
            timeout: 7, maximumSize: 5000)
        defer { try? FileManager.default.removeItem(at: source.cacheDirectory) }
        let delivery = PolicyDelivery(source: source)

        #expect(await delivery.refresh().outcome == .updated)
        #expect(delivery.gateRule() == "remote-gate")
        #expect(delivery.current().etag == "\"v1\"")
        #expect(await delivery.refresh().outcome == .notModified)

        let accept = "application/yaml, application/json;q=0.9, */*;q=0.1"
        // The first request names no cached policy: the app's own validator is not sent. The second names the
        // cached one's.
        #expect(transport.requests == [
            PolicyRequest(url: Self.url, headers: ["Authorization": "Bearer abc", "Accept": accept], timeout: 7,
                maximumSize: 5000),
            PolicyRequest(url: Self.url, headers: ["Authorization": "Bearer abc", "Accept": accept,
                "If-None-Match": "\"v1\"", "If-Modified-Since": "Fri, 20 Nov 2026"], timeout: 7, maximumSize: 5000),
        ])
    }

    @Test func aValidatorThatCannotBeSentBackIsNotSent() async throws {
        // An ETag with a line break, as a transport of the app's may hand on: sent back, it would start a header.
        let transport = ScriptedTransport { _ in
            PolicyResponse(status: 200, headers: ["ETag": "\"v1\"\r\nX-Injected: 1", "Last-Modified": "today"],
                body: Data(remotePolicy.utf8))
        }
        let source = try source(transport, headers: ["Accept": "*/*"])
        defer { try? FileManager.default.removeItem(at: source.cacheDirectory) }
        let delivery = PolicyDelivery(source: source)
        #expect(await delivery.refresh().outcome == .updated)
        #expect(delivery.current().etag == "\"v1\"\r\nX-Injected: 1")
        #expect(await delivery.refresh().outcome == .updated)
        #expect(transport.requests.map(\.headers) == [
            ["Accept": "*/*"], ["Accept": "*/*", "If-Modified-Since": "today"],
        ])
    }

    @Test(arguments: [60, TimeInterval.infinity])
    func theDocumentedTransportRefreshesOverAnAppsSession(timeout: TimeInterval) async throws {
        let fixture = try Fixture(timeout: timeout) { request in
            request.headers["x-api-key"] == "k-1" && request.headers["if-none-match"] == nil
                ? policyReply(remotePolicy, headers: [("ETag", "\"v1\"")])
                : TestHTTPServer.Reply(status: request.headers["if-none-match"] == "\"v1\"" ? 304 : 401)
        }
        defer { fixture.tearDown() }
        fixture.source.transport = DocumentedTransport(session: URLSession(configuration: .ephemeral))
        fixture.source.requestHeaders = ["X-Api-Key": "k-1"]
        let delivery = fixture.delivery()
        #expect(await delivery.refresh().outcome == .updated)
        #expect(delivery.gateRule() == "remote-gate")
        #expect(delivery.current().etag == "\"v1\"")
        #expect(await delivery.refresh().outcome == .notModified)
    }

    @Test func anAcceptTheAppSetsReplacesTheLibrarys() async throws {
        let transport = ScriptedTransport { _ in PolicyResponse(status: 200, body: Data(remotePolicy.utf8)) }
        let source = try source(transport, headers: ["accept": "application/x-lantern-policy"])
        defer { try? FileManager.default.removeItem(at: source.cacheDirectory) }
        #expect(await PolicyDelivery(source: source).refresh().outcome == .updated)
        #expect(transport.requests.map(\.headers) == [["accept": "application/x-lantern-policy"]])
    }

    @Test func theSidecarSignatureIsFetchedThroughTheTransportWithTheAppsHeaders() async throws {
        let key = PolicySigningKey.generate()
        let body = Data(remotePolicy.utf8)
        let signature = try key.signature(for: body)
        let transport = ScriptedTransport { request in
            request.url.path.hasSuffix(".sig")
                ? PolicyResponse(status: 200, body: Data(signature.base64.utf8))
                : PolicyResponse(status: 200, body: body)
        }
        let source = try source(transport, headers: ["X-Api-Key": "k-123", "If-None-Match": "\"forged\""],
            publicKey: key.publicKey)
        defer { try? FileManager.default.removeItem(at: source.cacheDirectory) }
        let delivery = PolicyDelivery(source: source)

        #expect(await delivery.refresh().outcome == .updated)
        #expect(delivery.gateRule() == "remote-gate")
        let requests = transport.requests
        #expect(requests.map(\.url) == [Self.url, source.signatureURL])
        // The sidecar's request carries the app's headers, but not a validator of its own.
        #expect(requests.map { $0.headers["X-Api-Key"] } == ["k-123", "k-123"])
        #expect(requests.last?.headers == ["X-Api-Key": "k-123"])
        // A signature is under 200 bytes of text: its request allows 4 KiB, not the policy's cap.
        #expect(requests.map(\.maximumSize) == [1 << 20, 4096])
        #expect(requests[1].timeout <= 60 && requests[1].timeout > 0)
    }

    @Test func aSidecarOverItsCapIsRefusedWithItsOwnCapNamed() async throws {
        let key = PolicySigningKey.generate()
        let transport = ScriptedTransport { request in
            request.url.path.hasSuffix(".sig")
                ? PolicyResponse(status: 200, body: Data(repeating: UInt8(ascii: "A"), count: 5000))
                : PolicyResponse(status: 200, body: Data(remotePolicy.utf8))
        }
        let source = try source(transport, publicKey: key.publicKey)
        defer { try? FileManager.default.removeItem(at: source.cacheDirectory) }
        let result = await PolicyDelivery(source: source).refresh()
        #expect(result.outcome == .rejected)
        #expect(result.codes == ["delivery.bad-signature"])
        #expect(result.diagnostics.map(\.diagnostic.message) == ["policy.yaml.sig could not be fetched: the response "
            + "is larger than the 4096-byte cap (abandoned); the policy on hand is kept"])
    }

    @Test func aTransportThatDoesNotAnswerIsAbandonedAtTheDeadlineAndCancelled() async throws {
        let cancelled = Flag()
        let released = Release()
        defer { released.open() }
        let transport = ScriptedTransport { _ in
            // Ignores cancellation, as a careless client would, and answers only when the test ends.
            await withTaskCancellationHandler {
                await released.wait()
            } onCancel: {
                cancelled.set()
            }
            return PolicyResponse(status: 200, body: Data(remotePolicy.utf8))
        }
        let source = try source(transport, timeout: 0.3)
        defer { try? FileManager.default.removeItem(at: source.cacheDirectory) }
        let delivery = PolicyDelivery(source: source)

        let started = Date()
        let result = await delivery.refresh()
        let elapsed = Date().timeIntervalSince(started)
        #expect(result.outcome == .failed)
        #expect(result.codes == ["delivery.timed-out"])
        #expect(elapsed >= 0.3, "the refresh gave up after \(elapsed) s")
        #expect(cancelled.isSet)
        #expect(cacheBytes(source) == nil)
        #expect(delivery.gateRule() == "bundled-gate")
    }

    @Test(arguments: [(0, true), (1, false)])
    func aBodyOverTheCapIsRefusedWhateverTheTransportReads(over: Int, accepted: Bool) async throws {
        let cap = 400
        // The policy padded with a comment to the cap, or one byte past it.
        let padding = cap + over - remotePolicy.utf8.count - 3
        let body = Data((remotePolicy + "\n# " + String(repeating: "x", count: padding)).utf8)
        #expect(body.count == cap + over)
        let transport = ScriptedTransport { _ in PolicyResponse(status: 200, body: body) }
        let source = try source(transport, maximumSize: cap)
        defer { try? FileManager.default.removeItem(at: source.cacheDirectory) }
        let delivery = PolicyDelivery(source: source)

        let result = await delivery.refresh()
        #expect(result.outcome == (accepted ? .updated : .failed))
        #expect(result.codes == (accepted ? [] : ["delivery.too-large"]))
        #expect(delivery.gateRule() == (accepted ? "remote-gate" : "bundled-gate"))
    }

    @Test(arguments: [
        (PolicyTransportError.truncated(received: 3, expected: 10) as any Error, "delivery.truncated",
            "the connection closed after 3 of the 10 bytes announced; the policy on hand is kept"),
        (PolicyTransportError.redirectRefused(to: "http://elsewhere.example/p.yaml"), "delivery.redirect-refused",
            "the server redirected to http://elsewhere.example/p.yaml, which is not followed; the policy on hand is "
                + "kept"),
        (URLError(.timedOut), "delivery.timed-out",
            "no complete response within the 60 s timeout; the policy on hand is kept"),
        (ClientError(), "delivery.unreachable",
            "the server could not be reached (the TLS handshake failed: certificate not pinned); the policy on hand "
                + "is kept"),
    ])
    func aTransportsErrorIsReportedWithItsCode(error: any Error, code: String, message: String) async throws {
        let transport = ScriptedTransport { _ in throw error }
        let source = try source(transport)
        defer { try? FileManager.default.removeItem(at: source.cacheDirectory) }
        let delivery = PolicyDelivery(source: source)

        let result = await delivery.refresh()
        #expect(result.outcome == .failed)
        #expect(result.codes == [code])
        #expect(result.diagnostics.map(\.diagnostic.message) == [message])
        #expect(result.diagnostics.map(\.source) == [Self.url.absoluteString])
        #expect(cacheBytes(source) == nil)
    }

    @Test(arguments: [
        (["X Api Key": "k"], "the request header name \"X Api Key\" is not an HTTP token"),
        (["": "k"], "the request header name \"\" is not an HTTP token"),
        (["X-Ключ": "k"], "the request header name \"X-Ключ\" is not an HTTP token"),
        (["X-Api-Key": "k\r\nX-Injected: 1"],
            "the value of the request header X-Api-Key holds a line break or another control character"),
        (["X-Api-Key": "k\u{7f}"],
            "the value of the request header X-Api-Key holds a line break or another control character"),
    ])
    func aHeaderThatCannotBeSentFailsTheRefreshBeforeAnythingIsSent(headers: [String: String], message: String)
        async throws
    {
        let transport = ScriptedTransport { _ in PolicyResponse(status: 200, body: Data(remotePolicy.utf8)) }
        let source = try source(transport, headers: headers)
        defer { try? FileManager.default.removeItem(at: source.cacheDirectory) }

        let result = await PolicyDelivery(source: source).refresh()
        #expect(result.outcome == .failed)
        #expect(result.codes == ["delivery.invalid-request-header"])
        #expect(result.diagnostics.map(\.diagnostic.message) == [message + "; the policy on hand is kept"])
        #expect(transport.requests.isEmpty)
    }

    @Test func headerValuesWithTabsAndTokenPunctuationAreSent() async throws {
        let headers = ["X-Trace_Id!#$%&'*+.^`|~9": "a\tb ü"]
        let transport = ScriptedTransport { _ in PolicyResponse(status: 200, body: Data(remotePolicy.utf8)) }
        let source = try source(transport, headers: headers)
        defer { try? FileManager.default.removeItem(at: source.cacheDirectory) }

        #expect(await PolicyDelivery(source: source).refresh().outcome == .updated)
        #expect(transport.requests.first?.headers["X-Trace_Id!#$%&'*+.^`|~9"] == "a\tb ü")
    }

    @Test(arguments: [
        (PolicyTransportError.unreachable("no route to host"), "the server could not be reached (no route to host)"),
        (.timedOut, "no complete response in the time allowed"),
        (.tooLarge(announced: 5_000_000), "the response is larger than the size cap (5000000 bytes announced)"),
        (.tooLarge(announced: nil), "the response is larger than the size cap"),
        (.truncated(received: 3, expected: 10), "the connection closed after 3 of the 10 bytes announced"),
        (.redirectRefused(to: "http://elsewhere.example/"),
            "the server redirected to http://elsewhere.example/, which is not followed"),
    ])
    func aTransportErrorDescribesItself(error: PolicyTransportError, words: String) {
        #expect(error.localizedDescription == words)
    }

    @Test func aResponsesHeadersAreReadWhateverTheirCase() {
        let response = PolicyResponse(status: 200, headers: ["eTaG": "\"x\"", "X-Policy-Signature": "s"])
        #expect(response.header("ETag") == "\"x\"")
        #expect(response.header("x-policy-signature") == "s")
        #expect(response.headers == ["etag": "\"x\"", "x-policy-signature": "s"])
        #expect(response.header("Last-Modified") == nil)
    }
}

/// Holds its waiters until ``open()``; an open one holds none.
private final class Release: @unchecked Sendable {
    private let lock = NSLock()
    private var isOpen = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        await withCheckedContinuation { continuation in
            let now = lock.withLock {
                if !isOpen { waiting.append(continuation) }
                return isOpen
            }
            if now { continuation.resume() }
        }
    }

    func open() {
        let held = lock.withLock {
            isOpen = true
            defer { waiting = [] }
            return waiting
        }
        held.forEach { $0.resume() }
    }
}

/// A flag set once, from any thread.
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
