import Foundation
import LaunchPolicy

/// Where an app's policy comes from, configured once: a policy bundled with the app, a remote URL, a cache folder,
/// and optionally the public key that every remote policy must be signed with.
///
/// ```swift
/// let source = PolicySource(
///     bundled: try Data(contentsOf: Bundle.main.url(forResource: "policy", withExtension: "yaml")!),
///     remoteURL: URL(string: "https://config.example.com/lantern/policy.yaml"),
///     cacheDirectory: applicationSupport.appendingPathComponent("LaunchPolicy"),
///     publicKey: try PolicyPublicKey(text: "0fN3tJ9xk0Yv6m1Qz8a2m9Hn2q3Qv4c5Yl6e7s8t9u0="))
/// let delivery = PolicyDelivery(source: source)
/// ```
public struct PolicySource: Sendable {
    /// The policy shipped inside the app, used until a remote one has been fetched (YAML, or LaunchGate/Gandalf JSON).
    public var bundled: Data?
    /// What to call the bundled policy in diagnostics.
    public var bundledName: String
    /// The remote policy; nil for an app that only bundles its policy.
    public var remoteURL: URL?
    /// The folder the last-known-good remote policy is kept in (created when needed).
    public var cacheDirectory: URL
    /// When set, a remote policy is used only with a valid Ed25519 signature by this key's private half.
    public var publicKey: PolicyPublicKey?
    /// How long a fetch may take in all, in seconds; a slower one is abandoned. Default 10; `.infinity` sets no limit.
    public var timeout: TimeInterval
    /// The largest policy accepted, in bytes; a larger one is abandoned as soon as it is known. Default 1 MiB.
    public var maximumSize: Int
    /// The response header a signature may arrive in. When a key is set and the header is absent, the sidecar
    /// `URL.sig` (the policy's URL with `.sig` appended to its path) is fetched instead.
    public var signatureHeader: String
    /// What happens when no fresh, valid policy can be had: ``FailureMode/open`` (the default) or an explicit
    /// ``FailureMode/closed(maximumAge:message:)``.
    public var failureMode: FailureMode
    /// How fetched, cached and bundled bytes become a policy.
    public var parser: any PolicyParser
    /// Headers sent with every request of a refresh, the sidecar signature's included: an API key, an
    /// `Authorization`, the app's name. An `Accept` here replaces the library's; `If-None-Match` and
    /// `If-Modified-Since` are the cache's to send, and are not sent from here. A name that is not an HTTP token, or a
    /// value with a line break or another control character, fails the refresh (`delivery.invalid-request-header`)
    /// before anything is sent.
    public var requestHeaders: [String: String]
    /// How requests reach the server: ``URLSessionPolicyTransport`` by default; an app's own for a session it
    /// configured (certificate pinning, a proxy, a test's `URLProtocol`). The refresh holds any transport to
    /// ``timeout`` and ``maximumSize``.
    public var transport: any PolicyTransport

    /// Creates a source. Only the cache folder is required; everything else has a safe default.
    public init(
        bundled: Data? = nil, bundledName: String = "bundled policy", remoteURL: URL? = nil, cacheDirectory: URL,
        publicKey: PolicyPublicKey? = nil, timeout: TimeInterval = 10, maximumSize: Int = 1 << 20,
        signatureHeader: String = "X-Policy-Signature", failureMode: FailureMode = .open,
        parser: any PolicyParser = AutomaticPolicyParser(), requestHeaders: [String: String] = [:],
        transport: any PolicyTransport = URLSessionPolicyTransport()
    ) {
        self.bundled = bundled
        self.bundledName = bundledName
        self.remoteURL = remoteURL
        self.cacheDirectory = cacheDirectory
        self.publicKey = publicKey
        self.timeout = timeout
        self.maximumSize = maximumSize
        self.signatureHeader = signatureHeader
        self.failureMode = failureMode
        self.parser = parser
        self.requestHeaders = requestHeaders
        self.transport = transport
    }

    /// The file in ``cacheDirectory`` that holds the last-known-good policy, `launch-policy-cache.json`: the file its
    /// diagnostics name.
    public var cacheFile: URL { PolicyCache(directory: cacheDirectory).file }

    /// Why a request header cannot be sent, in words; nil when it can. A name must be an HTTP token (RFC 9110: letters,
    /// digits and ``!#$%&'*+-.^_`|~``); a value may hold no control character but a tab, so that it cannot end its
    /// line and start another header or the body. The message names the header, never its value, which may be a
    /// secret.
    public static func requestHeaderProblem(name: String, value: String) -> String? {
        let isToken = !name.isEmpty && name.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "A")...UInt8(ascii: "Z"):
                true
            default:
                "!#$%&'*+-.^_`|~".utf8.contains(byte)
            }
        }
        guard isToken else { return "the request header name \(name.debugDescription) is not an HTTP token" }
        if value.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7f }) {
            return "the value of the request header \(name) holds a line break or another control character"
        }
        return nil
    }

    /// The sidecar signature's URL: the policy's URL with `.sig` appended to its path, query kept.
    public var signatureURL: URL? {
        guard let remoteURL, var components = URLComponents(url: remoteURL, resolvingAgainstBaseURL: false) else {
            return nil
        }
        components.path += ".sig"
        return components.url
    }
}

/// What the app does when it cannot get a fresh, valid policy.
public enum FailureMode: Sendable, Hashable {
    /// The default: a failed fetch or verification never locks anyone out. The app decides with the last-known-good
    /// policy, else the bundled one, else lets the user in.
    case open
    /// An explicit opt-in for apps that must not run on an unconfirmed policy: unless a verified remote policy was
    /// fetched or confirmed (a 304) within `maximumAge` seconds, every decision is a block with `message`, until a
    /// refresh succeeds. A network outage then locks users out; choose the age with that in mind.
    case closed(maximumAge: TimeInterval, message: String)
}
