import Foundation
import LaunchPolicy
import LaunchPolicyDelivery
import TestSupport

/// A policy that blocks every version below `below`, under a rule named `rule`, so that a decision tells which
/// policy it came from.
func gatePolicy(rule: String, below: String) -> String {
    """
    policy: 1
    messages:
      stop: {default: "Stopped by \(rule)"}
    rules:
      - id: \(rule)
        when: {app-version: "< \(below)"}
        then: block
        message: stop
    """
}

let bundledPolicy = gatePolicy(rule: "bundled-gate", below: "1.0")
let remotePolicy = gatePolicy(rule: "remote-gate", below: "2.0")
let newerRemotePolicy = gatePolicy(rule: "newer-remote-gate", below: "3.0")

/// A launch of version 0.5, which every test policy blocks: the gate's rule says which policy decided.
let launch = try! LaunchContext(platform: .ios, appVersion: "0.5")

/// The refresh timeout of a test that is not about time: a minute, which a local server never needs.
///
/// A refresh holds the policy's request and its sidecar signature to one deadline, and the test process runs every
/// suite at once on as many threads as the machine has cores. On two cores the command-line tests, which wait for the
/// executables they start, can hold both for seconds, and a refresh that was waiting to go on from the policy to its
/// sidecar went past a five-second deadline and never asked for the signature (the sidecar and unsigned-policy tests
/// failed once that way in a full run). Tests of the deadline itself set a short timeout of their own.
let unhurriedTimeout: TimeInterval = 60

/// The deadline of a first launch's wait that a test means to see its refresh finish within.
///
/// The deadline is a dispatch timer, on time whatever the pool does, but the refresh needs threads of Swift's shared
/// pool, which the suite's synchronous tests can hold for more than a minute under ThreadSanitizer: a wait of
/// `unhurriedTimeout` ended at its deadline there, before the refresh had run, which is what a deadline is for.
let unhurriedWait: TimeInterval = 600

/// A server, a cache folder and a source pointing at them. A test ends with `defer { fixture.tearDown() }`, which
/// also keeps the fixture alive to the end of the test (a delivery holds neither the server nor the folder).
final class Fixture: @unchecked Sendable {
    let server: TestHTTPServer
    let cacheDirectory: URL
    var source: PolicySource

    init(
        publicKey: PolicyPublicKey? = nil, timeout: TimeInterval = unhurriedTimeout, maximumSize: Int = 1 << 20,
        failureMode: FailureMode = .open, handler: @escaping TestHTTPServer.Handler
    ) throws {
        server = try TestHTTPServer(handler: handler)
        cacheDirectory = try makeTemporaryFolder("delivery")
        source = PolicySource(
            bundled: Data(bundledPolicy.utf8), remoteURL: server.url("/policy.yaml"), cacheDirectory: cacheDirectory,
            publicKey: publicKey, timeout: timeout, maximumSize: maximumSize, failureMode: failureMode)
    }

    func tearDown() {
        server.stop()
        try? FileManager.default.removeItem(at: cacheDirectory)
    }

    func delivery(clock: @escaping @Sendable () -> Date = { Date() }) -> PolicyDelivery {
        PolicyDelivery(source: source, clock: clock)
    }

    var cacheFile: URL { cacheDirectory.appendingPathComponent("launch-policy-cache.json") }

    /// The cache file's bytes, nil when there is none.
    var cacheBytes: Data? { try? Data(contentsOf: cacheFile) }
}

extension PolicyDelivery {
    /// The rule that gates `launch` under the current policy.
    nonisolated func gateRule() -> String? { current().evaluate(launch).gate?.rule }
}

extension RefreshResult {
    /// The codes of the diagnostics, in order.
    var codes: [String] { diagnostics.map(\.diagnostic.code.rawValue) }
}

/// A reply with a policy's text, held until `gate` opens when one is given.
func policyReply(_ text: String, headers: [(String, String)] = [], heldBy gate: TestHTTPServer.Gate? = nil)
    -> TestHTTPServer.Reply
{
    var reply = TestHTTPServer.Reply(status: 200, headers: [("Content-Type", "application/yaml")] + headers, text: text)
    reply.gate = gate
    return reply
}

/// Holds threads of Swift's shared pool, each in a task that blocks until ``release()``, to stand for an app whose
/// launch work keeps the pool busy. A task gives its thread back after `atMost` seconds in any case, and
/// ``anyGaveUp`` then tells that something waited for the pool past that.
final class PoolHold: @unchecked Sendable {
    private let released = DispatchSemaphore(value: 0)
    private let started = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var gaveUp = false
    private let count: Int

    /// Starts `count` blocking tasks, and waits (blocking the caller) until they run or `atMost` seconds pass. A
    /// caller in the pool counts itself out of `count`, or waits for a task that cannot start.
    init(threads count: Int, atMost seconds: TimeInterval = 30) {
        self.count = count
        for _ in 0 ..< count {
            Task.detached { [self] in
                started.signal()
                if released.wait(timeout: .now() + seconds) == .timedOut { lock.withLock { gaveUp = true } }
            }
        }
        // Other tests may hold threads for a while; a task that never starts leaves the pool no less busy.
        for _ in 0 ..< count where started.wait(timeout: .now() + seconds) == .timedOut { break }
    }

    /// Whether a task gave its thread back before ``release()``.
    var anyGaveUp: Bool { lock.withLock { gaveUp } }

    /// Lets every task end.
    func release() {
        for _ in 0 ..< count { released.signal() }
    }
}

/// A value handed over once from another thread, waited for by blocking.
final class Answer<Value: Sendable>: @unchecked Sendable {
    private let given = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var value: Value?

    func give(_ value: Value) {
        lock.withLock { self.value = value }
        given.signal()
    }

    /// The value, or nil when none is given within `seconds`.
    func wait(atMost seconds: TimeInterval) -> Value? {
        guard given.wait(timeout: .now() + seconds) == .success else { return nil }
        return lock.withLock { value }
    }
}
