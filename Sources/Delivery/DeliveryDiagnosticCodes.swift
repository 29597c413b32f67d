import LaunchPolicy

/// The stable codes of remote delivery. A delivery problem never stops the launch: it is reported, and the app
/// decides with the best policy on hand.
extension DiagnosticCode {
    /// The server could not be reached: connection refused, no route, DNS, TLS.
    public static let deliveryUnreachable: DiagnosticCode = "delivery.unreachable"
    /// The response did not complete within the timeout.
    public static let deliveryTimedOut: DiagnosticCode = "delivery.timed-out"
    /// The server answered with a status other than 200 or 304.
    public static let deliveryHTTPStatus: DiagnosticCode = "delivery.http-status"
    /// The body is larger than the size cap.
    public static let deliveryTooLarge: DiagnosticCode = "delivery.too-large"
    /// The connection closed before the body announced by Content-Length arrived.
    public static let deliveryTruncated: DiagnosticCode = "delivery.truncated"
    /// A redirect to another host or from HTTPS to HTTP, which delivery does not follow.
    public static let deliveryRedirectRefused: DiagnosticCode = "delivery.redirect-refused"
    /// A header of the source's ``PolicySource/requestHeaders`` cannot be sent: its name is not an HTTP token, or its
    /// value holds a line break or another control character. Nothing is sent.
    public static let deliveryInvalidRequestHeader: DiagnosticCode = "delivery.invalid-request-header"
    /// The fetched file is not a policy without errors; its own diagnostics follow.
    public static let deliveryInvalidPolicy: DiagnosticCode = "delivery.invalid-policy"
    /// A public key is configured and the policy came with no signature.
    public static let deliveryUnsigned: DiagnosticCode = "delivery.unsigned"
    /// A public key is configured and the signature does not verify (wrong key, altered policy, malformed signature).
    public static let deliveryBadSignature: DiagnosticCode = "delivery.bad-signature"
    /// The cached policy could not be read or no longer verifies; it is not used.
    public static let deliveryCacheUnusable: DiagnosticCode = "delivery.cache-unusable"
    /// The fetched policy was good but could not be written to the cache.
    public static let deliveryCacheWriteFailed: DiagnosticCode = "delivery.cache-write-failed"
    /// The bundled fallback policy has errors.
    public static let deliveryBundledInvalid: DiagnosticCode = "delivery.bundled-invalid"
    /// Fail-closed only: no verified policy confirmed recently enough, so the app is locked until one arrives.
    public static let deliveryLockedOut: DiagnosticCode = "delivery.locked-out"

    // Keys and signatures as text (`PolicyKeyError`): a key file given to `launch-policy`, a configured public key, a
    // signature file or header.

    /// The key or signature text holds nothing but comments and whitespace.
    public static let signingEmpty: DiagnosticCode = "signing.empty"
    /// A character that is not base64, or base64 of the wrong length or padding.
    public static let signingNotBase64: DiagnosticCode = "signing.not-base64"
    /// The base64 decodes to the wrong number of bytes: 32 for a key, 64 for a signature.
    public static let signingWrongLength: DiagnosticCode = "signing.wrong-length"
    /// The 32 bytes are not an Ed25519 key.
    public static let signingInvalidKey: DiagnosticCode = "signing.invalid-key"
    /// A private key was given where the public key belongs.
    public static let signingPrivateKey: DiagnosticCode = "signing.private-key"
}
