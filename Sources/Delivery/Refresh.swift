import Foundation
import LaunchPolicy

/// One refresh, top to bottom: a conditional request, then every check a fetched policy must pass before it may
/// replace the cache — status, decoding, signature — then the atomic write. Each failure returns at once with the
/// cache untouched.
struct Refresh {
    /// One GET, with a complete response or why there is none.
    typealias Fetch = @Sendable (PolicyRequest) async -> Result<PolicyResponse, PolicyTransportError>

    let source: PolicySource
    let clock: @Sendable () -> Date
    /// How requests reach the server: the source's transport, held to the request's deadline and size cap.
    var fetch: Fetch

    init(source: PolicySource, clock: @escaping @Sendable () -> Date, fetch: Fetch? = nil) {
        self.source = source
        self.clock = clock
        let transport = source.transport
        self.fetch = fetch ?? { request in await BoundedRequest.run(request, on: transport) }
    }

    /// The app's headers that go with every request: all but the validators, which are the cache's to send (the app's
    /// own would confirm a policy the cache does not hold).
    private var appHeaders: [String: String] {
        source.requestHeaders.filter { name, _ in !["if-none-match", "if-modified-since"].contains(name.lowercased()) }
    }

    /// The largest signature file accepted: a signature is 64 bytes, its text under 200.
    static let maximumSignatureSize = 4096

    func run() async -> RefreshResult {
        guard let url = source.remoteURL else {
            return RefreshResult(outcome: .notConfigured, status: nil, diagnostics: [])
        }
        let origin = url.absoluteString
        func failed(_ outcome: RefreshResult.Outcome, status: Int? = nil, _ code: DiagnosticCode,
            _ message: String) -> RefreshResult
        {
            RefreshResult(outcome: outcome, status: status, diagnostics: [DeliveryDiagnostic(source: origin,
                .error(code, message + "; the policy on hand is kept", at: .wholeInputStart))])
        }

        // The app's headers first: one that cannot be sent stops the refresh before anything is read or sent.
        for (name, value) in source.requestHeaders.sorted(by: { $0.key < $1.key }) {
            if let problem = PolicySource.requestHeaderProblem(name: name, value: value) {
                return failed(.failed, .deliveryInvalidRequestHeader, problem)
            }
        }

        // Validators only for a cached policy from this URL that is still usable; otherwise a 304 would confirm a
        // policy the app cannot use.
        let cache = PolicyCache(directory: source.cacheDirectory)
        let cached = (try? cache.load()).flatMap { $0 }.flatMap { entry in
            entry.url == origin && (try? entry.trustedPolicy(under: source).get()) != nil ? entry : nil
        }
        var headers = appHeaders
        if !headers.keys.contains(where: { $0.lowercased() == "accept" }) {
            headers["Accept"] = "application/yaml, application/json;q=0.9, */*;q=0.1"
        }
        // As the server sent them, unless a value could not be sent back: a line break in one (from a transport of the
        // app's, or a cache file edited by hand) would end its line and start another header.
        let validators = [("If-None-Match", cached?.etag), ("If-Modified-Since", cached?.lastModified)]
        for case let (name, value?) in validators {
            if PolicySource.requestHeaderProblem(name: name, value: value) == nil { headers[name] = value }
        }
        // What a 304 confirms: the cached policy, when the request named it. A request without validators asked for
        // the policy whole, and a 304 to it (a proxy's, or a server's that ignores the rules) says nothing about
        // what the cache holds, which may have been fetched from a server that sent no ETag and no Last-Modified.
        let named = headers["If-None-Match"] != nil || headers["If-Modified-Since"] != nil ? cached : nil

        // One deadline for the whole refresh: a sidecar signature gets what the policy's request left of it.
        let deadline = Date().addingTimeInterval(source.timeout)
        let response: PolicyResponse
        let request = PolicyRequest(url: url, headers: headers, timeout: source.timeout,
            maximumSize: source.maximumSize)
        switch await fetch(request) {
        case .success(let fetched): response = fetched
        case .failure(let failure):
            return failed(.failed, failure.code, failure.message(source, cap: request.maximumSize))
        }

        switch response.status {
        case 200:
            break
        case 304:
            guard var confirmed = named else {
                return failed(.failed, status: 304, .deliveryHTTPStatus,
                    "the server answered 304 Not Modified to a request that named no cached policy")
            }
            // The validators a 304 sends replace those kept, as an HTTP cache updates its stored response.
            confirmed.confirmedAt = clock()
            if let etag = response.header("ETag") { confirmed.etag = etag }
            if let lastModified = response.header("Last-Modified") { confirmed.lastModified = lastModified }
            do {
                try cache.save(confirmed)
            } catch {
                return failed(.failed, status: 304, .deliveryCacheWriteFailed,
                    "the server confirmed the cached policy, but the cache could not be updated: "
                        + AtomicFile.reason(error))
            }
            return RefreshResult(outcome: .notModified, status: 304, diagnostics: [])
        default:
            return failed(.failed, status: response.status, .deliveryHTTPStatus,
                "the server answered \(response.status) \(HTTPStatusText.text(response.status))")
        }

        let parsed = source.parser.parse(response.body)
        guard parsed.usablePolicy != nil else {
            let problems = parsed.diagnostics.filter { $0.severity == .error }
            return RefreshResult(outcome: .rejected, status: 200, diagnostics: [
                DeliveryDiagnostic(source: origin, .error(.deliveryInvalidPolicy,
                    "the fetched policy has \(problems.count) error\(problems.count == 1 ? "" : "s") and is not used; "
                        + "the policy on hand is kept", at: .wholeInputStart)),
            ] + parsed.diagnostics.map { DeliveryDiagnostic(source: origin, $0) })
        }

        var signature: PolicySignature?
        if let publicKey = source.publicKey {
            let found: PolicySignature
            switch await self.signature(in: response, before: deadline) {
            case .success(let value?): found = value
            case .success(nil):
                return failed(.rejected, status: 200, .deliveryUnsigned,
                    "the fetched policy is not signed (no \(source.signatureHeader) header and no "
                        + "\(source.signatureURL?.lastPathComponent ?? ".sig") file), and a public key is configured")
            case .failure(let problem):
                return failed(.rejected, status: 200, .deliveryBadSignature, problem.description)
            }
            guard publicKey.verifies(found, of: response.body) else {
                return failed(.rejected, status: 200, .deliveryBadSignature,
                    "the fetched policy's signature does not verify with the configured public key (a different key, "
                        + "or the policy was changed after signing)")
            }
            signature = found
        }

        let now = clock()
        let entry = PolicyCache.Entry(url: origin, policy: response.body.base64EncodedString(),
            etag: response.header("ETag"), lastModified: response.header("Last-Modified"), signature: signature?.base64,
            fetchedAt: now, confirmedAt: now)
        do {
            try cache.save(entry)
        } catch {
            return failed(.failed, status: 200, .deliveryCacheWriteFailed,
                "the fetched policy is good but could not be cached: \(AtomicFile.reason(error))")
        }
        return RefreshResult(outcome: .updated, status: 200, diagnostics: [])
    }

    /// The response's signature: its header, else the sidecar file; nil when there is neither, a message when one
    /// is there but unreadable or could not be fetched.
    private func signature(in response: PolicyResponse, before deadline: Date) async
        -> Result<PolicySignature?, SignatureProblem>
    {
        if let header = response.header(source.signatureHeader) {
            do {
                return .success(try PolicySignature(text: header))
            } catch {
                return .failure(SignatureProblem("the \(source.signatureHeader) header is unreadable: \(error.reason)"))
            }
        }
        guard let sidecar = source.signatureURL else { return .success(nil) }
        let remaining = deadline.timeIntervalSinceNow
        guard remaining > 0 else {
            let timedOut = PolicyTransportError.timedOut.message(source, cap: Self.maximumSignatureSize)
            return .failure(SignatureProblem("\(sidecar.lastPathComponent) could not be fetched: \(timedOut)"))
        }
        let request = PolicyRequest(url: sidecar, headers: appHeaders, timeout: remaining,
            maximumSize: Self.maximumSignatureSize)
        switch await fetch(request) {
        case .success(let file) where file.status == 200:
            do {
                return .success(try PolicySignature(text: String(decoding: file.body, as: UTF8.self)))
            } catch {
                return .failure(SignatureProblem("\(sidecar.lastPathComponent) is unreadable: \(error.reason)"))
            }
        case .success(let file) where file.status == 404 || file.status == 410:
            return .success(nil)
        case .success(let file):
            return .failure(SignatureProblem("\(sidecar.lastPathComponent) could not be fetched: the server answered \(file.status)"))
        case .failure(let failure):
            let why = failure.message(source, cap: Self.maximumSignatureSize)
            return .failure(SignatureProblem("\(sidecar.lastPathComponent) could not be fetched: \(why)"))
        }
    }
}

/// Why a signature could not be had, in words.
struct SignatureProblem: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension PolicyTransportError {
    /// The stable code of the failure.
    var code: DiagnosticCode {
        switch self {
        case .unreachable: .deliveryUnreachable
        case .timedOut: .deliveryTimedOut
        case .tooLarge: .deliveryTooLarge
        case .truncated: .deliveryTruncated
        case .redirectRefused: .deliveryRedirectRefused
        }
    }

    /// The failure in words, with the limits that ended it: the refresh's timeout, and `cap`, the size cap of the
    /// request (the policy's, or a signature's).
    func message(_ source: PolicySource, cap: Int) -> String {
        switch self {
        case .timedOut:
            return "no complete response within the \(source.timeout.plainText) s timeout"
        case .tooLarge(let announced):
            let size = announced.map { "\($0) bytes, " } ?? ""
            return "the response is larger than the \(cap)-byte cap (\(size)abandoned)"
        case .unreachable, .truncated, .redirectRefused:
            return localizedDescription
        }
    }
}

/// Reason phrases of the statuses a policy host is likely to send.
enum HTTPStatusText {
    static func text(_ status: Int) -> String {
        switch status {
        case 301: "Moved Permanently"
        case 302: "Found"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 410: "Gone"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "(HTTP status)"
        }
    }
}
