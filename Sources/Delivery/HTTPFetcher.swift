import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP GET with the limits delivery needs and URLSession alone does not give: a deadline for the whole
/// transfer, a size cap enforced while the body arrives (not after), a body shorter than its Content-Length reported
/// as truncated, and no redirect to another host or from HTTPS to HTTP. No HTTP cache is consulted: conditional
/// requests are the caller's, with the validators it keeps.
struct HTTPFetcher: Sendable {
    /// The deadline for the whole transfer, in seconds.
    var timeout: TimeInterval
    /// The longest backstop given to URLSession, in seconds: a billion, which its milliseconds still hold.
    static let longestBackstop: TimeInterval = 1_000_000_000
    /// The largest body accepted, in bytes.
    var maximumSize: Int

    /// Fetches `url` with the extra request headers.
    func get(_ url: URL, headers: [String: String] = [:]) async -> Result<PolicyResponse, PolicyTransportError> {
        // The transfer's own timer enforces `timeout` exactly. URLSession's timeouts are only a backstop, in whole
        // seconds: FoundationNetworking on Linux truncates them to whole seconds, and 0.5 became 0, an immediate
        // timeout. It also makes them whole milliseconds, and stopped the app on a timeout of `.infinity` (a fetch
        // that may take as long as it takes): the backstop is at most about 31 years, past which the timer alone
        // waits.
        let backstop = min(max(1, timeout.rounded(.up)), Self.longestBackstop)
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalAndRemoteCacheData, timeoutInterval: backstop)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        configuration.timeoutIntervalForRequest = backstop
        configuration.timeoutIntervalForResource = backstop
        let transfer = Transfer(origin: url, maximumSize: maximumSize)
        // The session holds its delegate until it is invalidated, which the transfer does when it finishes.
        let session = URLSession(configuration: configuration, delegate: transfer, delegateQueue: nil)
        let task = session.dataTask(with: request)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                transfer.start(task, session: session, timeout: timeout, continuation: continuation)
            }
        } onCancel: {
            transfer.fail(.timedOut, task: task)
        }
    }
}

/// The state of one transfer, shared between URLSession's delegate queue, the deadline timer and the caller.
private final class Transfer: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let origin: URL
    private let maximumSize: Int
    private let lock = NSLock()
    // Guarded by `lock`.
    private var body = Data()
    private var response: HTTPURLResponse?
    private var failure: PolicyTransportError?
    private var continuation: CheckedContinuation<Result<PolicyResponse, PolicyTransportError>, Never>?
    private var session: URLSession?

    init(origin: URL, maximumSize: Int) {
        self.origin = origin
        self.maximumSize = maximumSize
    }

    func start(
        _ task: URLSessionDataTask, session: URLSession, timeout: TimeInterval,
        continuation: CheckedContinuation<Result<PolicyResponse, PolicyTransportError>, Never>
    ) {
        lock.withLock {
            self.continuation = continuation
            self.session = session
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [weak self, weak task] in
            self?.expire(task)
        }
        task.resume()
    }

    /// Ends the transfer at its deadline: the caller has its answer now, whatever URLSession then makes of the
    /// cancel (FoundationNetworking's `cancel()` returns without acting on a task that is not running or suspended).
    /// A failure recorded before the deadline is the answer, if the transfer did not finish.
    private func expire(_ task: URLSessionTask?) {
        let (continuation, reason, session) = lock.withLock { () -> (
            CheckedContinuation<Result<PolicyResponse, PolicyTransportError>, Never>?, PolicyTransportError,
            URLSession?
        ) in
            guard let continuation = self.continuation else { return (nil, .timedOut, nil) }
            self.continuation = nil
            let reason = failure ?? .timedOut
            failure = reason
            let session = self.session
            self.session = nil
            return (continuation, reason, session)
        }
        guard let continuation else { return }
        continuation.resume(returning: .failure(reason))
        task?.cancel()
        session?.invalidateAndCancel()
    }

    /// Records the first failure; whatever completes the transfer then reports it.
    @discardableResult
    private func record(_ reason: PolicyTransportError) -> Bool {
        lock.withLock {
            guard failure == nil, continuation != nil else { return false }
            failure = reason
            return true
        }
    }

    /// Records the first failure and stops the transfer; URLSession then reports completion.
    func fail(_ reason: PolicyTransportError, task: URLSessionTask) {
        if record(reason) { task.cancel() }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let http = response as? HTTPURLResponse
        lock.withLock { self.response = http }
        if let announced = http.flatMap(Self.announcedBodyLength), announced > Int64(maximumSize) {
            // The disposition cancels the task; cancelling it here as well is one cancel too many.
            record(.tooLarge(announced: announced))
            completionHandler(.cancel)
            return
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let over = lock.withLock {
            body.append(data)
            return body.count > maximumSize
        }
        if over { fail(.tooLarge(announced: nil), task: dataTask) }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        let target = request.url
        let sameHost = target?.host?.lowercased() == origin.host?.lowercased() && target?.port == origin.port
        let downgrade = origin.scheme?.lowercased() == "https" && target?.scheme?.lowercased() != "https"
        if sameHost, !downgrade {
            completionHandler(request)
        } else {
            // Not followed: the redirect response itself completes the task. (Cancelling here as well makes
            // FoundationNetworking on Linux trap on a second redirect callback.)
            completionHandler(nil)
            record(.redirectRefused(to: target?.absoluteString ?? "an unreadable location"))
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        let (continuation, result, session) = lock.withLock { () -> (
            CheckedContinuation<Result<PolicyResponse, PolicyTransportError>, Never>?,
            Result<PolicyResponse, PolicyTransportError>, URLSession?
        ) in
            let continuation = self.continuation
            self.continuation = nil
            let session = self.session
            self.session = nil
            return (continuation, outcome(error: error), session)
        }
        session?.finishTasksAndInvalidate()
        continuation?.resume(returning: result)
    }

    /// The length of the body as the response announces it, when the body that arrives must have that length: a
    /// Content-Length, on a response that carries a body (not a 1xx, 204 or 304, whose Content-Length, if any, is the
    /// length of the representation they stand for), whose body is not encoded (URLSession decodes a gzip body, and
    /// the length announced is the encoded one's).
    private static func announcedBodyLength(_ response: HTTPURLResponse) -> Int64? {
        let status = response.statusCode
        guard response.expectedContentLength >= 0, status >= 200, status != 204, status != 304 else { return nil }
        let encoding = (response.value(forHTTPHeaderField: "Content-Encoding") ?? "identity")
            .trimmingCharacters(in: .whitespaces).lowercased()
        guard encoding == "identity" || encoding.isEmpty else { return nil }
        return response.expectedContentLength
    }

    /// What the transfer came to. Called with the lock held.
    private func outcome(error: Error?) -> Result<PolicyResponse, PolicyTransportError> {
        if let failure { return .failure(failure) }
        if let expected = response.flatMap(Self.announcedBodyLength), Int64(body.count) < expected {
            return .failure(.truncated(received: body.count, expected: expected))
        }
        if let error {
            if (error as? URLError)?.code == .timedOut { return .failure(.timedOut) }
            return .failure(.unreachable(error.localizedDescription))
        }
        guard let response else { return .failure(.unreachable("the server sent no HTTP response")) }
        var headers: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return .success(PolicyResponse(status: response.statusCode, headers: headers, body: body))
    }
}
