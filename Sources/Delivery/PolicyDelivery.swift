import Foundation
import LaunchPolicy

/// Remote policy delivery: the app decides at once with the best policy on hand, and refreshes it in the background.
///
/// ```swift
/// let delivery = PolicyDelivery(source: source)
/// let decision = delivery.current().evaluate(context)        // never waits on the network
/// Task { _ = await delivery.refresh() }                       // the next launch uses what this fetches
/// ```
///
/// - ``current(now:)`` reads the cached last-known-good policy, else the bundled one, and touches no network.
/// - ``refresh()`` makes one conditional request (ETag / Last-Modified) within the timeout and size cap. A fetched
///   policy replaces the cache only when it decodes without errors and, with a public key configured, carries a valid
///   signature; the cache file is replaced atomically. Anything else leaves the cache as it was and is reported.
/// - ``firstLaunchPolicy(waitingAtMost:)`` lets an app with nothing cached yet wait, up to a deadline, for a fetch;
///   ``firstLaunchPolicy(waitingAtMost:on:completion:)`` holds the deadline even while Swift's shared pool is busy.
///
/// Delivery fails open: no failure of the network, the server, the signature or the cache locks a user out unless
/// the app opts into ``FailureMode/closed(maximumAge:message:)``.
public actor PolicyDelivery {
    /// The configuration.
    public nonisolated let source: PolicySource
    private nonisolated let clock: @Sendable () -> Date
    private var inFlight: Task<RefreshResult, Never>?

    /// Creates the delivery of `source`; `clock` gives the time recorded in the cache (tests fix it).
    public init(source: PolicySource, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.source = source
        self.clock = clock
    }

    /// The best policy on hand, for the launch path: the cached last-known-good, else the bundled policy, else none
    /// (and then no rule applies). Reads one file; never touches the network.
    public nonisolated func current(now: Date? = nil) -> DeliveredPolicy {
        var diagnostics: [DeliveryDiagnostic] = []
        var delivered = cachedPolicy(&diagnostics) ?? bundledPolicy(&diagnostics)
        delivered.diagnostics = diagnostics
        if case .closed(let maximumAge, let message) = source.failureMode {
            let confirmed = delivered.origin == .cache ? delivered.confirmedAt : nil
            let age = confirmed.map { (now ?? clock()).timeIntervalSince($0) }
            if age.map({ $0 > maximumAge || $0 < -maximumAge }) ?? true {
                delivered.lockout = message
                let allowed = "the \(maximumAge.plainText) s allowed"
                let why = switch (confirmed, age) {
                case (let confirmed?, let age?) where age < 0:
                    "the policy was last confirmed \(Timestamp.text(confirmed)), further ahead of now than \(allowed) "
                        + "(the device's clock or the cache file is wrong)"
                case (let confirmed?, _):
                    "the policy was last confirmed \(Timestamp.text(confirmed)), longer ago than \(allowed)"
                default:
                    "no verified remote policy is on hand"
                }
                delivered.diagnostics.append(DeliveryDiagnostic(source: source.remoteURL?.absoluteString ?? "delivery",
                    .error(.deliveryLockedOut, "fail-closed: \(why); every launch is blocked until a refresh succeeds",
                        at: .wholeInputStart)))
            }
        }
        return delivered
    }

    /// How many calls of ``refresh()`` a refresh already in flight has answered: how a test knows that a second call
    /// has joined the first before it lets the first finish.
    private(set) var joinedRefreshes = 0

    /// Fetches the remote policy once, and keeps it if it is good. Concurrent calls share one request.
    public func refresh() async -> RefreshResult {
        if let inFlight {
            joinedRefreshes += 1
            return await inFlight.value
        }
        let source = self.source
        let clock = self.clock
        let task = Task { await Refresh(source: source, clock: clock).run() }
        inFlight = task
        let result = await task.value
        inFlight = nil
        return result
    }

    /// One refresh with `server` answering its requests at once, in place of a transport; the size cap holds as it
    /// does for a transport. Not for apps (they set ``PolicySource/transport``): the seam through which the fuzzer
    /// checks what any answer leaves in the cache. It neither joins a refresh in flight nor touches the actor's state,
    /// and it starts no task and no timer, so that it runs to its end without suspending and leaves nothing behind
    /// when it returns.
    @_spi(Fuzzing)
    public nonisolated func refresh(answeredBy server: @escaping @Sendable (PolicyRequest) -> PolicyResponse) async
        -> RefreshResult
    {
        await Refresh(source: source, clock: clock, fetch: { request in
            BoundedRequest.capped(.success(server(request)), for: request)
        }).run()
    }

    /// The policy for a launch that may wait: with a usable cached policy, that one at once; otherwise (a first
    /// launch, a cache that cannot be used, or a fail-closed lockout) a refresh is started and awaited for at most
    /// `seconds`, and the best policy on hand then is returned. A refresh that outlasts the wait goes on and serves the
    /// next launch. `.infinity` waits for the refresh however long it takes (the fetch's own timeout still ends it).
    ///
    /// An `await` goes on in a thread of Swift's shared pool when it is resumed (on Linux, for the main actor too), so
    /// while the app's own launch work holds every thread of that pool, this returns when one is free, past its
    /// deadline. An app whose launch must not wait on that uses ``firstLaunchPolicy(waitingAtMost:on:completion:)``.
    public func firstLaunchPolicy(waitingAtMost seconds: TimeInterval) async -> DeliveredPolicy {
        await withCheckedContinuation { continuation in
            firstLaunchPolicy(waitingAtMost: seconds, on: Self.deadlines) { continuation.resume(returning: $0) }
        }
    }

    /// ``firstLaunchPolicy(waitingAtMost:)`` for a caller that is not async, or that must not depend on Swift's
    /// shared pool: `completion` is called once, on `queue`, with the policy.
    ///
    /// The deadline is a timer on a dispatch queue of the library's own, and the policy then on hand is read there,
    /// so `completion` is called on time even while every thread of Swift's shared pool is busy and the refresh
    /// has not started yet. Only the refresh itself runs in that pool.
    ///
    /// ```swift
    /// delivery.firstLaunchPolicy(waitingAtMost: 2, on: .main) { delivered in
    ///     show(delivered.evaluate(context))
    /// }
    /// ```
    public nonisolated func firstLaunchPolicy(
        waitingAtMost seconds: TimeInterval, on queue: DispatchQueue,
        completion: @escaping @Sendable (DeliveredPolicy) -> Void
    ) {
        let now = current()
        guard now.origin != .cache || now.lockout != nil, source.remoteURL != nil else {
            queue.async { completion(now) }
            return
        }
        let once = Once()
        let finish: @Sendable () -> Void = {
            guard once.claim() else { return }
            let policy = self.current()
            queue.async { completion(policy) }
        }
        Task {
            _ = await self.refresh()
            Self.deadlines.async(execute: finish)
        }
        // A wait too long for a dispatch time (`.infinity`: as long as the refresh takes) sets no deadline; made a
        // count of nanoseconds, it stopped the app.
        if max(0, seconds) * 1_000_000_000 < Double(Int64.max) {
            Self.deadlines.asyncAfter(deadline: .now() + max(0, seconds), execute: finish)
        }
    }

    /// Where a first launch's wait ends: a queue of its own, as `DispatchQueue.global()` shares its threads with
    /// Swift's tasks on Linux.
    private static let deadlines = DispatchQueue(label: "LaunchPolicyDelivery.firstLaunch")

    // MARK: - What is on hand

    private nonisolated func cachedPolicy(_ diagnostics: inout [DeliveryDiagnostic]) -> DeliveredPolicy? {
        let cache = PolicyCache(directory: source.cacheDirectory)
        let entry: PolicyCache.Entry
        do {
            guard let loaded = try cache.load() else { return nil }
            entry = loaded
        } catch {
            // At the place the file stops being JSON, or at the field at fault; at its start otherwise.
            diagnostics.append(DeliveryDiagnostic(source: cache.file.path, .warning(.deliveryCacheUnusable,
                "the cached policy is not used: \(error.message)", at: error.range ?? .wholeInputStart),
                cause: error.code))
            return nil
        }
        let policy: Policy
        switch entry.trustedPolicy(under: source) {
        case .success(let trusted): policy = trusted
        case .failure(let problem):
            diagnostics.append(DeliveryDiagnostic(source: cache.file.path, .warning(.deliveryCacheUnusable,
                "the cached policy is not used: \(problem.reason)", at: .wholeInputStart), cause: problem.code))
            return nil
        }
        return DeliveredPolicy(policy: policy, origin: .cache, source: entry.url,
            reason: "the last-known-good policy fetched from \(entry.url) at \(Timestamp.text(entry.fetchedAt))"
                + (entry.confirmedAt == entry.fetchedAt ? "" : ", confirmed at \(Timestamp.text(entry.confirmedAt))"),
            fetchedAt: entry.fetchedAt, confirmedAt: entry.confirmedAt, etag: entry.etag)
    }

    private nonisolated func bundledPolicy(_ diagnostics: inout [DeliveryDiagnostic]) -> DeliveredPolicy {
        let noCache = diagnostics.isEmpty ? "nothing has been fetched yet" : "the cached policy cannot be used"
        guard let bundled = source.bundled else {
            return DeliveredPolicy(policy: nil, origin: .none, source: nil,
                reason: "\(noCache) and no policy is bundled: no rule applies, the user is let in")
        }
        let parsed = source.parser.parse(bundled)
        guard let policy = parsed.usablePolicy else {
            diagnostics.append(DeliveryDiagnostic(source: source.bundledName, .error(.deliveryBundledInvalid,
                "the bundled policy has errors and is not used", at: .wholeInputStart)))
            diagnostics += parsed.diagnostics.map { DeliveryDiagnostic(source: source.bundledName, $0) }
            return DeliveredPolicy(policy: nil, origin: .none, source: nil,
                reason: "\(noCache) and the bundled policy has errors: no rule applies, the user is let in")
        }
        return DeliveredPolicy(policy: policy, origin: .bundled, source: source.bundledName,
            reason: "the bundled policy: \(noCache)")
    }
}

/// A flag that can be claimed once, from any thread.
private final class Once: @unchecked Sendable {
    private let lock = NSLock()
    private var claimed = false

    func claim() -> Bool {
        lock.withLock {
            defer { claimed = true }
            return !claimed
        }
    }
}
