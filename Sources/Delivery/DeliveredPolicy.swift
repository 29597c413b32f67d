import Foundation
import LaunchPolicy

/// The policy a launch decides with, where it came from, and why that one.
public struct DeliveredPolicy: Sendable {
    /// Where a delivered policy came from.
    public enum Origin: String, Sendable, Hashable {
        /// The last-known-good remote policy, from the cache.
        case cache
        /// The policy bundled with the app.
        case bundled
        /// No usable policy: no rule applies.
        case none
    }

    /// The policy; nil when there is none (every decision is then empty: the user is let in).
    public var policy: Policy?
    /// Where it came from.
    public var origin: Origin
    /// The URL it was fetched from, or the bundled policy's name.
    public var source: String?
    /// Why this policy, in words: "the last-known-good policy fetched from … at …".
    public var reason: String
    /// When it was fetched (cache only).
    public var fetchedAt: Date?
    /// When the server last confirmed it by sending it or answering 304 (cache only).
    public var confirmedAt: Date?
    /// The ETag it was served with (cache only).
    public var etag: String?
    /// Problems met on the way: a cache that could not be used, a bundled policy with errors, a lockout.
    public var diagnostics: [DeliveryDiagnostic] = []
    /// Fail-closed only: the message every launch is blocked with, when no policy was confirmed recently enough.
    public var lockout: String?

    /// Creates a delivered policy.
    public init(
        policy: Policy?, origin: Origin, source: String?, reason: String, fetchedAt: Date? = nil,
        confirmedAt: Date? = nil, etag: String? = nil, diagnostics: [DeliveryDiagnostic] = [], lockout: String? = nil
    ) {
        self.policy = policy
        self.origin = origin
        self.source = source
        self.reason = reason
        self.fetchedAt = fetchedAt
        self.confirmedAt = confirmedAt
        self.etag = etag
        self.diagnostics = diagnostics
        self.lockout = lockout
    }

    /// The rule id a fail-closed lockout is reported under.
    public static let lockoutRule = "launch-policy.delivery"

    /// What the app must do at this launch: the policy's decision; an empty decision when there is no policy (fail
    /// open); a block when fail-closed has locked the app.
    public func evaluate(_ context: LaunchContext, memory: DisplayMemory = DisplayMemory()) -> Decision {
        if let lockout {
            return Decision(gate: Directive(action: .block, rule: Self.lockoutRule, text: lockout))
        }
        return policy?.evaluate(context, memory: memory) ?? Decision()
    }
}

/// A delivery problem and the file or URL it concerns. A fetched policy's own diagnostics point into the fetched
/// bytes; a network problem points at the start of the URL's (absent) file.
public struct DeliveryDiagnostic: Sendable, Hashable {
    /// The URL or file the diagnostic is about.
    public var source: String
    /// The diagnostic.
    public var diagnostic: Diagnostic
    /// The code of the problem underneath, when the diagnostic's own code sums up one found elsewhere: for
    /// `delivery.cache-unusable`, the cache file's (`state.not-json`, `state.unsupported-format`, …), the signature's
    /// (`delivery.unsigned`, `delivery.bad-signature`) or the cached policy's first error's (`policy.unknown-key`, …).
    /// An app that logs it can tell a cache a newer version wrote from one a disk damaged.
    public var cause: DiagnosticCode?

    /// Creates one.
    public init(source: String, _ diagnostic: Diagnostic, cause: DiagnosticCode? = nil) {
        self.source = source
        self.diagnostic = diagnostic
        self.cause = cause
    }

    /// `SOURCE:LINE:COLUMN: SEVERITY: MESSAGE [CODE]`, as compilers write it.
    public var rendered: String { diagnostic.rendered(file: source) }
}

/// What one refresh did.
public struct RefreshResult: Sendable {
    /// What became of the fetch.
    public enum Outcome: String, Sendable, Hashable {
        /// A new policy was fetched, verified and cached.
        case updated
        /// The server confirmed the cached policy (304).
        case notModified = "not-modified"
        /// A policy arrived but was refused: errors, no signature, a bad signature. The cache is unchanged.
        case rejected
        /// No policy arrived: the network, a timeout, an HTTP error, a cap, a refused redirect, or the cache could not
        /// be written. The cache is unchanged.
        case failed
        /// No remote URL is configured.
        case notConfigured = "not-configured"
    }

    /// What became of the fetch.
    public var outcome: Outcome
    /// The HTTP status of the policy's response, when one arrived.
    public var status: Int?
    /// Why, when it was not updated or confirmed.
    public var diagnostics: [DeliveryDiagnostic]
}
