import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How a refresh's requests reach the server: one GET, answered with a complete response or an error.
///
/// The default, ``URLSessionPolicyTransport``, makes each request over a URLSession of its own. An app brings its
/// own transport to use a session it configured (certificate pinning, a proxy, a `URLProtocol` that answers in its
/// tests), or another HTTP client altogether:
///
/// ```swift
/// struct PinnedTransport: PolicyTransport {
///     let session: URLSession   // its delegate checks the server's certificate
///
///     func get(_ request: PolicyRequest) async throws -> PolicyResponse {
///         var urlRequest = URLRequest(url: request.url, cachePolicy: .reloadIgnoringLocalAndRemoteCacheData,
///             timeoutInterval: request.timeout)
///         for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
///         let (body, response) = try await session.data(for: urlRequest)
///         let http = response as! HTTPURLResponse
///         return PolicyResponse(status: http.statusCode,
///             headers: http.allHeaderFields as? [String: String] ?? [:], body: body)
///     }
/// }
/// ```
///
/// Whatever the transport, the refresh holds it to the source's limits: an answer that has not come by the deadline
/// is abandoned (the transport's task is cancelled, and the refresh fails with `delivery.timed-out` at once), and a
/// body over the size cap is refused (`delivery.too-large`). A transport that stops reading at
/// ``PolicyRequest/maximumSize`` spares the memory too; ``URLSessionPolicyTransport`` does.
///
/// Errors: a ``PolicyTransportError`` keeps its meaning and code; `URLError.timedOut` is `delivery.timed-out`; any
/// other error is `delivery.unreachable`, with its description.
public protocol PolicyTransport: Sendable {
    /// Makes one GET request and returns the whole response, whatever its status.
    func get(_ request: PolicyRequest) async throws -> PolicyResponse
}

/// One request of a refresh: the policy, or its sidecar signature.
public struct PolicyRequest: Sendable, Hashable {
    /// What to get.
    public var url: URL
    /// The headers to send: the source's ``PolicySource/requestHeaders``, `Accept`, and for a cached policy the
    /// validators (`If-None-Match`, `If-Modified-Since`).
    public var headers: [String: String]
    /// The seconds left before the refresh abandons the request; `.infinity` when the source sets no limit.
    public var timeout: TimeInterval
    /// The largest body the refresh accepts, in bytes; a larger one is refused.
    public var maximumSize: Int

    /// Creates a request.
    public init(url: URL, headers: [String: String] = [:], timeout: TimeInterval, maximumSize: Int) {
        self.url = url
        self.headers = headers
        self.timeout = timeout
        self.maximumSize = maximumSize
    }
}

/// A complete HTTP response, of any status.
public struct PolicyResponse: Sendable, Hashable {
    /// The HTTP status code.
    public var status: Int
    /// The header values, by name in lowercase (names are case-insensitive: ``init(status:headers:body:)`` lowers
    /// them).
    public var headers: [String: String]
    /// The body, as served.
    public var body: Data

    /// Creates a response. Header names are stored in lowercase; when two names differ only in case, one of their
    /// values is kept.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }) { kept, _ in kept }
        self.body = body
    }

    /// The value of a header, whatever the case of `name`.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// Why a transport produced no complete response. Each case has its delivery code.
public enum PolicyTransportError: Error, Sendable, Hashable {
    /// The server could not be reached (connection refused, no route, DNS, TLS): `delivery.unreachable`.
    case unreachable(String)
    /// No complete response within the time allowed: `delivery.timed-out`.
    case timedOut
    /// The body is larger than the size cap; `announced` is the Content-Length when it said so before the body came:
    /// `delivery.too-large`.
    case tooLarge(announced: Int64?)
    /// The connection closed after `received` of the `expected` bytes its Content-Length announced:
    /// `delivery.truncated`.
    case truncated(received: Int, expected: Int64)
    /// A redirect the transport did not follow: `delivery.redirect-refused`.
    case redirectRefused(to: String)
}

extension PolicyTransportError: LocalizedError {
    /// The failure in words, without the source's limits (a refresh's diagnostic names them).
    public var errorDescription: String? {
        switch self {
        case .unreachable(let why): "the server could not be reached (\(why))"
        case .timedOut: "no complete response in the time allowed"
        case .tooLarge(let announced?): "the response is larger than the size cap (\(announced) bytes announced)"
        case .tooLarge(nil): "the response is larger than the size cap"
        case .truncated(let received, let expected):
            "the connection closed after \(received) of the \(expected) bytes announced"
        case .redirectRefused(let target): "the server redirected to \(target), which is not followed"
        }
    }
}

/// The default transport: URLSession on Apple platforms, `FoundationNetworking`'s on Linux and Android, a session of
/// its own for each request, with no HTTP cache, no cookies and no stored credentials.
///
/// It adds the limits URLSession alone does not give: an exact deadline (URLSession on Linux keeps whole seconds), a
/// size cap enforced while the body arrives, a body shorter than its Content-Length reported as
/// ``PolicyTransportError/truncated(received:expected:)``, and no redirect to another host or port, or from HTTPS to
/// HTTP.
public struct URLSessionPolicyTransport: PolicyTransport {
    /// Creates the transport.
    public init() {}

    /// Makes the request; throws a ``PolicyTransportError``.
    public func get(_ request: PolicyRequest) async throws -> PolicyResponse {
        try await HTTPFetcher(timeout: request.timeout, maximumSize: request.maximumSize)
            .get(request.url, headers: request.headers).get()
    }
}

extension PolicyTransportError {
    /// What a transport's error means for delivery.
    init(_ error: any Error) {
        if let known = error as? PolicyTransportError {
            self = known
        } else if (error as? URLError)?.code == .timedOut {
            self = .timedOut
        } else {
            self = .unreachable((error as? LocalizedError)?.errorDescription ?? String(describing: error))
        }
    }
}

/// A transport's request held to its deadline and size cap, whether or not the transport keeps them.
enum BoundedRequest {
    /// Runs `request` on `transport`. The answer comes by the deadline: at it, the transport's task is cancelled
    /// and its answer, whenever it comes, is dropped.
    static func run(_ request: PolicyRequest, on transport: any PolicyTransport) async
        -> Result<PolicyResponse, PolicyTransportError>
    {
        let race = Race()
        let work = Task {
            do {
                race.finish(.success(try await transport.get(request)))
            } catch {
                race.finish(.failure(PolicyTransportError(error)))
            }
        }
        let answer = await withCheckedContinuation { continuation in
            race.wait(continuation)
            // A deadline too far for a dispatch time (`.infinity`: as long as the transport takes) sets no timer.
            let seconds = max(0, request.timeout)
            if seconds * 1_000_000_000 < Double(Int64.max) {
                DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
                    // The transport's task is told before the caller has the answer.
                    race.finish(.failure(.timedOut), first: { work.cancel() })
                }
            }
        }
        return capped(answer, for: request)
    }

    /// The answer, unless its body is over the request's size cap.
    static func capped(_ answer: Result<PolicyResponse, PolicyTransportError>, for request: PolicyRequest)
        -> Result<PolicyResponse, PolicyTransportError>
    {
        if case .success(let response) = answer, response.body.count > request.maximumSize {
            return .failure(.tooLarge(announced: nil))
        }
        return answer
    }

    /// The first of the transport's answer and the deadline; the other is dropped. The answer is held only until the
    /// caller has it: the deadline's timer keeps the race alive to its end, and a body should not live as long.
    private final class Race: @unchecked Sendable {
        typealias Answer = Result<PolicyResponse, PolicyTransportError>
        private let lock = NSLock()
        // Guarded by `lock`.
        private var isFinished = false
        private var undelivered: Answer?
        private var continuation: CheckedContinuation<Answer, Never>?

        /// Sets the answer if none is set yet and, after `first`, hands it to the waiting caller.
        func finish(_ result: Answer, first: () -> Void = {}) {
            let (isFirst, waiting) = lock.withLock { () -> (Bool, CheckedContinuation<Answer, Never>?) in
                guard !isFinished else { return (false, nil) }
                isFinished = true
                defer { continuation = nil }
                if continuation == nil { undelivered = result }
                return (true, continuation)
            }
            guard isFirst else { return }
            first()
            waiting?.resume(returning: result)
        }

        /// Hands the answer to `continuation` now if it is set, else when it is.
        func wait(_ continuation: CheckedContinuation<Answer, Never>) {
            let ready = lock.withLock { () -> Answer? in
                guard isFinished else {
                    self.continuation = continuation
                    return nil
                }
                defer { undelivered = nil }
                return undelivered
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
