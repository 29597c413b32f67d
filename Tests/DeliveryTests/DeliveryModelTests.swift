import Foundation
import LaunchPolicy
@_spi(Fuzzing) import LaunchPolicyDelivery
import Testing
import TestSupport

/// Delivery against a model of docs/delivery.md: random runs of refreshes, each answered by a server that sends a
/// good, broken, unsigned or wrongly signed policy, a 304, an error status or too much, with the clock moving on and
/// the cache file damaged or removed between them. After every step the refresh's outcome, the validators it sent,
/// what the cache holds and what a launch would use (and whether a fail-closed app locks) are those the model says.
@Suite struct DeliveryModelTests {
    /// What the model knows of the cache file: the policy it holds (by name), its validators and dates.
    struct CachedEntry: Equatable {
        var policy: String
        var url: URL
        /// Whether it was fetched with the key configured, and so verified and kept with its signature.
        var signed: Bool
        var etag: String?
        var lastModified: String?
        var fetchedAt: Date
        var confirmedAt: Date
    }

    /// The policies a server may send, by name: three that decide differently and one with an error.
    static let policies: [String: String] = [
        "a": gatePolicy(rule: "a-gate", below: "2.0"),
        "b": gatePolicy(rule: "b-gate", below: "3.0"),
        "c": gatePolicy(rule: "c-gate", below: "4.0"),
        "broken": "policy: 1\nrules: 7\n",
    ]

    /// How a 200's policy is signed.
    enum Signing: CaseIterable { case header, sidecar, otherKey, garbage, none }

    /// One random run; `seed` replays it.
    static func run(seed: UInt64) async throws {
        var random = SeededGenerator(seed: seed)
        let key = PolicySigningKey.generate()
        let otherKey = PolicySigningKey.generate()
        var keyed = Bool.random(using: &random)
        let maximumAge: TimeInterval = [60, 3_600, .infinity].randomElement(using: &random)!
        let closed = Bool.random(using: &random)
        let hasBundled = Int.random(in: 0..<4, using: &random) > 0
        let folder = try makeTemporaryFolder("delivery-model")
        defer { try? FileManager.default.removeItem(at: folder) }
        // An app update may move the policy: the cache keeps the policy fetched from the old URL.
        let urls = ["https://policies.example.com/app/policy.yaml", "https://cdn.example.com/v2/policy.yaml"]
            .map { URL(string: $0)! }
        var url = urls[0]
        func source(_ url: URL, keyed: Bool) -> PolicySource {
            PolicySource(
                bundled: hasBundled ? Data(bundledPolicy.utf8) : nil, remoteURL: url, cacheDirectory: folder,
                publicKey: keyed ? key.publicKey : nil, maximumSize: 4_096,
                failureMode: closed ? .closed(maximumAge: maximumAge, message: "Locked") : .open)
        }
        let clock = ModelClock(Date(timeIntervalSince1970: 1_795_219_200))
        var delivery = PolicyDelivery(source: source(url, keyed: keyed), clock: { clock.now })
        let cacheFile = delivery.source.cacheFile
        var model: CachedEntry?
        var log: [String] = ["seed \(seed): keyed \(keyed), closed \(closed) (\(maximumAge)), bundled \(hasBundled)"]

        for step in 0..<24 {
            switch Int.random(in: 0..<12, using: &random) {
            case 10:
                url = url == urls[0] ? urls[1] : urls[0]
                delivery = PolicyDelivery(source: source(url, keyed: keyed), clock: { clock.now })
                log.append("\(step): the app now asks \(url.host ?? "")")
            case 11 where !keyed:
                // An app update configures a key: a policy cached without a signature is no longer used.
                keyed = true
                delivery = PolicyDelivery(source: source(url, keyed: keyed), clock: { clock.now })
                if model?.signed == false { model = nil }
                log.append("\(step): the app now has a key")
            case 0:
                let seconds = [-120.0, 30, 61, 600, 4_000].randomElement(using: &random)!
                clock.advance(seconds)
                log.append("\(step): clock \(seconds)")
            case 1:
                // A damaged cache file is not used; a removed one is not there. Either way nothing is cached.
                if Bool.random(using: &random) {
                    try Data("{\"format\": 1, \"url\": ".utf8).write(to: cacheFile)
                    log.append("\(step): cache damaged")
                } else {
                    try? FileManager.default.removeItem(at: cacheFile)
                    log.append("\(step): cache removed")
                }
                model = nil
            default:
                let answer = ServerAnswer.random(using: &random)
                log.append("\(step): \(answer)")
                let recorder = Recorder()
                let body = Data((answer.policy.map { Self.policies[$0]! } ?? "").utf8)
                    + (answer.oversized ? Data(repeating: 0x23, count: 5_000) : Data())
                let result = await delivery.refresh(answeredBy: { request in
                    recorder.record(request)
                    if request.url.path.hasSuffix(".sig") {
                        return answer.signing == .sidecar
                            ? PolicyResponse(status: 200, body: Data((try! key.signature(for: body)).text.utf8))
                            : PolicyResponse(status: 404)
                    }
                    var headers: [String: String] = [:]
                    if let etag = answer.etag { headers["etag"] = etag }
                    if let lastModified = answer.lastModified { headers["last-modified"] = lastModified }
                    switch answer.signing {
                    case .header: headers["x-policy-signature"] = try! key.signature(for: body).base64
                    case .otherKey: headers["x-policy-signature"] = try! otherKey.signature(for: body).base64
                    case .garbage: headers["x-policy-signature"] = "not a signature"
                    case .sidecar, .none: break
                    }
                    return PolicyResponse(status: answer.status, headers: headers, body: body)
                })
                let context = log.joined(separator: "\n")

                // The validators sent are those of the policy the cache holds, when it came from this URL.
                let sent = try #require(recorder.requests.first, "\(context)")
                let named = model?.url == url ? model : nil
                #expect(sent.url == url, "\(context)")
                #expect(sent.headers["If-None-Match"] == named?.etag, "\(context)")
                #expect(sent.headers["If-Modified-Since"] == named?.lastModified, "\(context)")

                // The outcome, and what the cache holds after it.
                let expected: RefreshResult.Outcome
                let validated = named?.etag != nil || named?.lastModified != nil
                switch (answer.status, answer.policy) {
                case (200, _) where answer.oversized: expected = .failed
                case (200, "broken"?): expected = .rejected
                case (200, let policy?):
                    if keyed && ![.header, .sidecar].contains(answer.signing) {
                        expected = .rejected
                    } else {
                        expected = .updated
                        model = CachedEntry(
                            policy: policy, url: url, signed: keyed, etag: answer.etag,
                            lastModified: answer.lastModified,
                            fetchedAt: clock.now, confirmedAt: clock.now)
                    }
                case (304, _) where validated:
                    expected = .notModified
                    model!.confirmedAt = clock.now
                    if let etag = answer.etag { model!.etag = etag }
                    if let lastModified = answer.lastModified { model!.lastModified = lastModified }
                default: expected = .failed
                }
                #expect(result.outcome == expected, "\(context)\n\(result.diagnostics.map(\.rendered))")
                // The sidecar signature is asked for when a good policy comes without a signature header.
                let asksSidecar = keyed && [.sidecar, .none].contains(answer.signing) && answer.status == 200
                    && answer.policy != "broken" && !answer.oversized
                #expect(recorder.requests.map(\.url.lastPathComponent)
                    == ["policy.yaml"] + (asksSidecar ? ["policy.yaml.sig"] : []), "\(context)")
            }

            // What a launch uses now.
            let context = log.joined(separator: "\n")
            let current = delivery.current(now: clock.now)
            let rule = current.evaluate(launch).gate?.rule
            if let model {
                #expect(current.origin == .cache, "\(context)\n\(current.diagnostics.map(\.rendered))")
                #expect(current.etag == model.etag && current.fetchedAt == model.fetchedAt
                    && current.confirmedAt == model.confirmedAt, "\(context)")
                let age = clock.now.timeIntervalSince(model.confirmedAt)
                let locked = closed && (age > maximumAge || age < -maximumAge)
                #expect((current.lockout != nil) == locked, "\(context)")
                #expect(rule == (locked ? DeliveredPolicy.lockoutRule : "\(model.policy)-gate"), "\(context)")
            } else {
                #expect(current.origin == (hasBundled ? .bundled : DeliveredPolicy.Origin.none), "\(context)")
                #expect((current.lockout != nil) == closed, "\(context)")
                let expected = closed ? DeliveredPolicy.lockoutRule : hasBundled ? "bundled-gate" : nil
                #expect(rule == expected, "\(context)")
            }
        }
    }

    /// A server's answer to a refresh.
    struct ServerAnswer: CustomStringConvertible {
        var status: Int
        var policy: String?
        var etag: String?
        var lastModified: String?
        var signing: Signing
        var oversized: Bool

        static func random(using random: inout SeededGenerator) -> ServerAnswer {
            let status = [200, 200, 200, 304, 304, 404, 500].randomElement(using: &random)!
            return ServerAnswer(
                status: status,
                policy: status == 200 ? ["a", "b", "c", "broken"].randomElement(using: &random)! : nil,
                etag: [nil, "\"1\"", "\"2\"", "W/\"3\""].randomElement(using: &random)!,
                lastModified: [nil, "Sat, 21 Nov 2026 00:00:00 GMT"].randomElement(using: &random)!,
                signing: Signing.allCases.randomElement(using: &random)!,
                oversized: status == 200 && Int.random(in: 0..<8, using: &random) == 0)
        }

        var description: String {
            "\(status) \(policy ?? "-") etag \(etag ?? "-") last-modified \(lastModified == nil ? "-" : "yes") "
                + "\(signing)\(oversized ? " oversized" : "")"
        }
    }

    @Test(arguments: 0..<40)
    func eachStepLeavesWhatTheModelSays(seed: Int) async throws {
        try await Self.run(seed: UInt64(seed))
    }
}

/// The requests a refresh made.
private final class Recorder: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [PolicyRequest] = []
    func record(_ request: PolicyRequest) { lock.withLock { list.append(request) } }
    var requests: [PolicyRequest] { lock.withLock { list } }
}

/// A clock the test moves.
private final class ModelClock: @unchecked Sendable {
    private let lock = NSLock()
    private var date: Date
    init(_ date: Date) { self.date = date }
    var now: Date { lock.withLock { date } }
    func advance(_ seconds: TimeInterval) { lock.withLock { date += seconds } }
}
