import Foundation
import LaunchPolicy
import LaunchPolicyDelivery
import TestSupport
import Testing

/// Responses no server should send, over a real socket to the default transport (URLSession, FoundationNetworking's
/// on Linux): a refresh is the app's code too, and a crash or a hang there is one in the app. Whatever arrives, the
/// refresh returns by its deadline, and either keeps the cache byte for byte or caches a policy that decodes.
@Suite struct HostileServerTests {
    /// The deadline of these refreshes: short, as a response that stalls costs the suite its whole length.
    static let deadline: TimeInterval = 5
    static let policy = newerRemotePolicy

    /// A response written out: the head's lines, a blank line, the body.
    static func response(_ lines: [String], _ body: String = "") -> Data {
        Data((lines.joined(separator: "\r\n") + "\r\n\r\n" + body).utf8)
    }

    /// A well-formed answer with the policy: what the mutations start from.
    static let wellFormed = response(["HTTP/1.1 200 OK", "Content-Type: application/yaml", "ETag: \"v2\"",
        "Content-Length: \(policy.utf8.count)", "Connection: close"], policy)

    static let written: [(name: String, raw: Data)] = [
        ("nothing at all", Data()),
        ("not HTTP", Data("HELLO THERE\r\n\r\n".utf8)),
        // Not a head cut before its blank line: FoundationNetworking traps on it (DeliveryCommandTests runs it in
        // a process of its own).
        ("a status that is not a number", response(["HTTP/1.1 abc OK", "Content-Length: 0"])),
        ("a status of four digits", response(["HTTP/1.1 2000 OK", "Content-Length: 0"])),
        ("a negative Content-Length", response(["HTTP/1.1 200 OK", "Content-Length: -5"], policy)),
        ("a Content-Length past 64 bits", response(["HTTP/1.1 200 OK", "Content-Length: 99999999999999999999999"],
            policy)),
        ("two Content-Lengths that differ", response(["HTTP/1.1 200 OK", "Content-Length: 3",
            "Content-Length: \(policy.utf8.count)"], policy)),
        ("chunks of a size that is not hexadecimal", response(["HTTP/1.1 200 OK", "Transfer-Encoding: chunked"],
            "zz\r\nabc\r\n0\r\n\r\n")),
        ("a chunk of 2^64 - 1 bytes", response(["HTTP/1.1 200 OK", "Transfer-Encoding: chunked"],
            "FFFFFFFFFFFFFFFF\r\nabc\r\n")),
        ("chunks past the size cap", response(["HTTP/1.1 200 OK", "Transfer-Encoding: chunked"],
            String(repeating: "1000\r\n" + String(repeating: "#", count: 4096) + "\r\n", count: 300) + "0\r\n\r\n")),
        ("a body past the size cap with no length", response(["HTTP/1.1 200 OK"],
            String(repeating: "# pad\n", count: 250_000))),
        ("a header line of 200 KB", response(["HTTP/1.1 200 OK", "X-Long: " + String(repeating: "a", count: 200_000),
            "Content-Length: \(policy.utf8.count)"], policy)),
        ("5,000 headers", response(["HTTP/1.1 200 OK"] + (0..<5_000).map { "X-\($0): v" }
            + ["Content-Length: \(policy.utf8.count)"], policy)),
        ("a header with no colon", response(["HTTP/1.1 200 OK", "no colon here",
            "Content-Length: \(policy.utf8.count)"], policy)),
        ("a 100 Continue, then the answer", Data("HTTP/1.1 100 Continue\r\n\r\n".utf8) + wellFormed),
        ("a 304 with a body", response(["HTTP/1.1 304 Not Modified", "ETag: \"v1\"", "Content-Length: 5"], "hello")),
        ("a redirect to itself", response(["HTTP/1.1 302 Found", "Location: /policy.yaml", "Content-Length: 0"])),
        ("a redirect to no place", response(["HTTP/1.1 302 Found", "Location: ::::", "Content-Length: 0"])),
        ("a gzip body that is not gzip", response(["HTTP/1.1 200 OK", "Content-Encoding: gzip",
            "Content-Length: \(policy.utf8.count)"], policy)),
        ("HTTP/0.9", Data(policy.utf8)),
        ("HTTP/2 on a plain socket", Data([0x50, 0x52, 0x49, 0x20, 0x2A, 0x20, 0x48, 0x54, 0x54, 0x50, 0x2F, 0x32])),
        // Header values that are not UTF-8, and NUL bytes: the ETag is kept in the cache's JSON.
        ("an ETag that is not UTF-8", Data("HTTP/1.1 200 OK\r\nETag: \"".utf8) + Data([0xFF, 0xFE, 0x00, 0xC3])
            + Data("\"\r\nContent-Length: \(policy.utf8.count)\r\n\r\n\(policy)".utf8)),
        ("a NUL in the status line", Data("HTTP/1.1 200\0 OK\r\nContent-Length: 0\r\n\r\n".utf8)),
    ]

    /// The well-formed answer with a few bytes changed, added or dropped, the same every run (a fixed seed).
    static let mutated: [(name: String, raw: Data)] = {
        var generator = SplitMix(seed: 0x5EED_2026_1123)
        return (0..<48).map { index in
            var bytes = [UInt8](wellFormed)
            for _ in 0...Int(generator.next() % 4) {
                let at = Int(generator.next() % UInt64(bytes.count))
                switch generator.next() % 3 {
                case 0: bytes[at] = UInt8(truncatingIfNeeded: generator.next())
                case 1: bytes.insert(UInt8(truncatingIfNeeded: generator.next()), at: at)
                default: bytes.remove(at: at)
                }
            }
            return ("mutation \(index)", Data(bytes))
        }
    }()

    @Test(arguments: written + mutated)
    func aResponseNoServerShouldSendEndsTheRefreshByItsDeadline(name: String, raw: Data) async throws {
        let script = Script { _ in policyReply(remotePolicy, headers: [("ETag", "\"v1\"")]) }
        let fixture = try Fixture(timeout: Self.deadline, maximumSize: 64 * 1024) { script.reply($0) }
        defer { fixture.tearDown() }
        let delivery = fixture.delivery()
        #expect(await delivery.refresh().outcome == .updated)
        let cached = try #require(fixture.cacheBytes)

        script.set { _ in TestHTTPServer.Reply(raw: raw) }
        let started = Date()
        let result = await delivery.refresh()
        let elapsed = Date().timeIntervalSince(started)
        // The deadline, and room for a loaded machine to get there: what must not happen is a wait on the server.
        #expect(elapsed < Self.deadline + 10, "\(name): the refresh took \(elapsed) s")
        // A refresh that did not update says why, first with a delivery code; one that did says nothing.
        let codes = result.diagnostics.map(\.diagnostic.code.rawValue)
        if [.updated, .notModified].contains(result.outcome) {
            #expect(codes.isEmpty, "\(name): \(codes)")
        } else {
            #expect(codes.first?.hasPrefix("delivery.") == true, "\(name): \(codes)")
        }

        let current = delivery.current()
        #expect(current.diagnostics.isEmpty, "\(name): \(current.diagnostics.map(\.rendered))")
        switch result.outcome {
        case .updated:
            // Only the policy itself can have been cached: nothing else the server sent decodes.
            #expect(current.evaluate(launch).gate?.rule == "newer-remote-gate", "\(name)")
        case .notModified:
            #expect(current.evaluate(launch).gate?.rule == "remote-gate", "\(name)")
        case .failed, .rejected:
            #expect(fixture.cacheBytes == cached, "\(name): a refresh that did not update changed the cache")
            #expect(current.evaluate(launch).gate?.rule == "remote-gate", "\(name)")
        case .notConfigured:
            Issue.record("\(name): a configured source refreshed as not configured")
        }
    }

    @Test func theWrittenResponsesEndAsTheyMust() async throws {
        // The cases whose end does not depend on how an HTTP client reads a response.
        let expected: [String: [String]] = [
            "nothing at all": ["delivery.unreachable"],
            "chunks past the size cap": ["delivery.too-large"],
            "a body past the size cap with no length": ["delivery.too-large"],
            "a redirect to itself": ["delivery.unreachable"],
        ]
        for (name, raw) in Self.written where expected[name] != nil {
            let fixture = try Fixture(timeout: Self.deadline, maximumSize: 64 * 1024) { _ in
                TestHTTPServer.Reply(raw: raw)
            }
            defer { fixture.tearDown() }
            let result = await fixture.delivery().refresh()
            #expect(result.outcome == .failed, "\(name)")
            #expect(result.codes == expected[name], "\(name)")
        }
    }
}

/// SplitMix64: a generator whose numbers depend only on its seed.
struct SplitMix {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
