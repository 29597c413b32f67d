import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A real HTTP/1.1 server on 127.0.0.1 and a free port, for tests of code that fetches over the network. Each
/// connection is answered on its own thread by the handler's ``TestHTTPServer/Reply``, which can also misbehave the
/// ways networks do: answer late, hold its answer until the test releases it, or close before the body is complete.
public final class TestHTTPServer: @unchecked Sendable {
    /// A request as received.
    public struct Request: Sendable {
        public let method: String
        public let path: String
        /// Header values by lowercased name.
        public let headers: [String: String]
    }

    /// What to answer.
    public struct Reply: Sendable {
        public var status: Int
        public var headers: [(String, String)]
        public var body: Data
        /// Seconds to wait before answering.
        public var delay: TimeInterval
        /// Send the headers (with the full Content-Length) and only this many body bytes, then close.
        public var truncateAfter: Int?
        /// Wait for this gate to open before answering.
        public var gate: Gate?
        /// Whether to send a Content-Length; without one the body ends when the connection closes.
        public var announcesLength = true
        /// Bytes to send as they are, in place of the status line, the headers and the body: a response no server
        /// should send.
        public var raw: Data?

        public init(
            status: Int = 200, headers: [(String, String)] = [], body: Data = Data(), delay: TimeInterval = 0,
            truncateAfter: Int? = nil, gate: Gate? = nil
        ) {
            self.status = status
            self.headers = headers
            self.body = body
            self.delay = delay
            self.truncateAfter = truncateAfter
            self.gate = gate
        }

        public init(status: Int = 200, headers: [(String, String)] = [], text: String) {
            self.init(status: status, headers: headers, body: Data(text.utf8))
        }

        /// A reply of exactly these bytes, then the connection closed.
        public init(raw: Data) {
            self.init()
            self.raw = raw
        }
    }

    /// A gate that holds replies until the test opens it.
    public final class Gate: @unchecked Sendable {
        private let condition = NSCondition()
        private var isOpen = false
        private var waiting = 0

        public init() {}

        /// Lets every held reply go, now and later.
        public func open() {
            condition.withLock {
                isOpen = true
                condition.broadcast()
            }
        }

        /// How many replies are held at the gate now.
        public var waitingCount: Int { condition.withLock { waiting } }

        func pass() {
            condition.withLock {
                waiting += 1
                while !isOpen { condition.wait() }
                waiting -= 1
            }
        }
    }

    public typealias Handler = @Sendable (Request) -> Reply

    /// The port the server listens on.
    public let port: Int
    private let listener: Int32
    private let handler: Handler
    private let lock = NSLock()
    private var received: [Request] = []
    private var stopped = false

    /// Starts a server on 127.0.0.1 and a port the system picks.
    public init(handler: @escaping Handler) throws {
        self.handler = handler
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw POSIXError(.EMFILE) }
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(listener, 64) == 0 else {
            close(listener)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        self.listener = listener
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// `http://127.0.0.1:PORT` followed by `path`.
    public func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    /// The requests received so far, in order.
    public var requests: [Request] { lock.withLock { received } }

    /// Stops accepting connections; the accept loop then closes the socket. Only the first call acts: a second
    /// `shutdown` could hit another socket that reused the closed descriptor's number.
    public func stop() {
        let first = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        if first { shutdown(listener, Int32(SHUT_RDWR)) }
    }

    /// A port on 127.0.0.1 that nothing listens on (bound, then released), for "connection refused".
    public static func closedPort() -> Int {
        let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(probe) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(probe, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(probe, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else {
                if errno == EINTR { continue }
                close(listener)
                return
            }
            let thread = Thread { [self] in serve(connection) }
            thread.start()
        }
    }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        guard let request = readRequest(connection) else { return }
        lock.withLock { received.append(request) }
        let reply = handler(request)
        reply.gate?.pass()
        if reply.delay > 0 { Thread.sleep(forTimeInterval: reply.delay) }
        if let raw = reply.raw {
            transmit(connection, raw)
            return
        }
        var head = "HTTP/1.1 \(reply.status) Status\r\n"
        var names = Set<String>()
        for (name, value) in reply.headers {
            head += "\(name): \(value)\r\n"
            names.insert(name.lowercased())
        }
        if reply.announcesLength, !names.contains("content-length") { head += "Content-Length: \(reply.body.count)\r\n" }
        head += "Connection: close\r\n\r\n"
        let body = reply.truncateAfter.map { reply.body.prefix($0) } ?? reply.body
        transmit(connection, Data(head.utf8) + (request.method == "HEAD" ? Data() : Data(body)))
    }

    private func readRequest(_ connection: Int32) -> Request? {
        var bytes = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        let end = Array("\r\n\r\n".utf8)
        while bytes.count < 65_536 {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            bytes += buffer[0..<count]
            if let range = bytes.firstRange(of: end) {
                let lines = String(decoding: bytes[..<range.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
                let parts = lines[0].split(separator: " ")
                guard parts.count >= 2 else { return nil }
                var headers: [String: String] = [:]
                for line in lines.dropFirst() {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
                        .trimmingCharacters(in: .whitespaces)
                }
                return Request(method: String(parts[0]), path: String(parts[1]), headers: headers)
            }
        }
        return nil
    }

    /// A peer that closed early must not kill the test process with SIGPIPE.
    #if os(Linux)
    private static let noSignal = Int32(MSG_NOSIGNAL)
    #else
    private static let noSignal: Int32 = 0
    #endif

    private func transmit(_ connection: Int32, _ data: Data) {
        data.withUnsafeBytes { buffer in
            var sent = 0
            while sent < buffer.count {
                let count = send(connection, buffer.baseAddress! + sent, buffer.count - sent, Self.noSignal)
                if count <= 0 { return }
                sent += count
            }
        }
    }
}
