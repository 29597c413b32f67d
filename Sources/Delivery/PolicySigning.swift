import Crypto
import Foundation

/// Ed25519 keys and detached signatures of policy files.
///
/// The signature covers the exact bytes of the policy file as served. Keys and signatures are written as text: an
/// optional comment line starting with `#`, then the raw bytes in base64 (32 for a key, 64 for a signature), so that
/// they paste into a configuration, a header or an environment variable unchanged:
///
/// ```
/// # LaunchPolicy Ed25519 public key
/// 0fN3tJ9xk0Yv6m1Qz8a2m9Hn2q3Qv4c5Yl6e7s8t9u0=
/// ```
///
/// The private key signs in CI or on a release machine (`launch-policy keygen`, `launch-policy sign`); only the
/// public key ships in the app.
public enum PolicySigning {
    /// The comment line of a private key file.
    static let privateKeyHeading = "# LaunchPolicy Ed25519 private key: keep it secret, never ship it in an app"
    /// The comment line of a public key file.
    static let publicKeyHeading = "# LaunchPolicy Ed25519 public key"
    /// The comment line of a signature file.
    static let signatureHeading = "# LaunchPolicy Ed25519 signature"

    /// The base64 payload of a key or signature text: comment lines and whitespace dropped.
    static func payload(of text: String, expectedBytes: Int, what: String) throws(PolicyKeyError) -> Data {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        let encoded = lines.filter { !$0.isEmpty && !$0.hasPrefix("#") }.joined()
        guard !encoded.isEmpty else { throw PolicyKeyError("the \(what) is empty") }
        guard let bytes = Data(base64Encoded: encoded) else { throw PolicyKeyError("the \(what) is not base64") }
        guard bytes.count == expectedBytes else {
            throw PolicyKeyError("the \(what) has \(bytes.count) bytes; an Ed25519 \(what) has \(expectedBytes)")
        }
        return bytes
    }

    /// Whether the text's comment says it is a private key.
    static func isPrivateKeyText(_ text: String) -> Bool {
        text.split(whereSeparator: \.isNewline).contains { $0.hasPrefix("#") && $0.lowercased().contains("private key") }
    }
}

/// Why a key or signature could not be read.
public struct PolicyKeyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, in words.
    public let reason: String

    init(_ reason: String) { self.reason = reason }

    public var description: String { reason }
}

/// The private half of a signing key pair. Sign policies with it; never ship it in an app.
public struct PolicySigningKey: Sendable {
    private let key: Curve25519.Signing.PrivateKey

    private init(key: Curve25519.Signing.PrivateKey) { self.key = key }

    /// A new random key pair.
    public static func generate() -> PolicySigningKey { PolicySigningKey(key: Curve25519.Signing.PrivateKey()) }

    /// Reads a private key file's text.
    public init(text: String) throws(PolicyKeyError) {
        let raw = try PolicySigning.payload(of: text, expectedBytes: 32, what: "private key")
        do {
            key = try Curve25519.Signing.PrivateKey(rawRepresentation: raw)
        } catch {
            throw PolicyKeyError("the private key is not a valid Ed25519 key")
        }
    }

    /// The key as a private key file's text.
    public var text: String { PolicySigning.privateKeyHeading + "\n" + key.rawRepresentation.base64EncodedString() + "\n" }

    /// The public key that verifies this key's signatures.
    public var publicKey: PolicyPublicKey { PolicyPublicKey(key: key.publicKey) }

    /// The detached signature of a policy file's bytes.
    ///
    /// - Throws: what the cryptography library throws; Ed25519 signing fails only on a broken random source.
    public func signature(for policy: Data) throws -> PolicySignature {
        PolicySignature(bytes: try key.signature(for: policy))
    }
}

/// The public half of a signing key pair, which an app is configured with to reject unsigned or wrongly signed
/// policies.
public struct PolicyPublicKey: Sendable, Hashable {
    private let raw: Data

    fileprivate init(key: Curve25519.Signing.PublicKey) { raw = key.rawRepresentation }

    /// Reads a public key: a public key file's text, or the bare base64 of its 32 bytes.
    public init(text: String) throws(PolicyKeyError) {
        if PolicySigning.isPrivateKeyText(text) {
            throw PolicyKeyError("this is a private key; configure the app with the public key (the .pub file)")
        }
        raw = try PolicySigning.payload(of: text, expectedBytes: 32, what: "public key")
        guard (try? Curve25519.Signing.PublicKey(rawRepresentation: raw)) != nil else {
            throw PolicyKeyError("the public key is not a valid Ed25519 key")
        }
    }

    /// The key as a public key file's text.
    public var text: String { PolicySigning.publicKeyHeading + "\n" + base64 + "\n" }

    /// The base64 of the key's 32 bytes.
    public var base64: String { raw.base64EncodedString() }

    /// Whether `signature` is this key's signature of exactly these bytes.
    public func verifies(_ signature: PolicySignature, of policy: Data) -> Bool {
        guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: raw) else { return false }
        return key.isValidSignature(signature.bytes, for: policy)
    }
}

/// A detached Ed25519 signature of a policy file: a sidecar file (`policy.yaml.sig`) or a response header.
public struct PolicySignature: Sendable, Hashable {
    /// The signature's 64 bytes.
    public let bytes: Data

    init(bytes: Data) { self.bytes = bytes }

    /// Reads a signature: a signature file's text, or a header's bare base64.
    public init(text: String) throws(PolicyKeyError) {
        bytes = try PolicySigning.payload(of: text, expectedBytes: 64, what: "signature")
    }

    /// The base64 of the signature, as a response header carries it.
    public var base64: String { bytes.base64EncodedString() }

    /// The signature as a sidecar file's text.
    public var text: String { PolicySigning.signatureHeading + "\n" + base64 + "\n" }
}
