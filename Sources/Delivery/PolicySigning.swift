import Crypto
import Foundation
import LaunchPolicy

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

    /// The base64 payload of a key or signature text: comment lines and whitespace dropped. A problem is placed in
    /// the text: a character that is not base64 at itself, a payload of the wrong length at the payload.
    static func payload(of text: String, expectedBytes: Int, what: String) throws(PolicyKeyError)
        -> (bytes: Data, range: SourceRange)
    {
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBytes { raw in
            Result { () throws(PolicyKeyError) in try payload(in: raw, expectedBytes: expectedBytes, what: what) }
        }.get()
    }

    private static func payload(in raw: UnsafeRawBufferPointer, expectedBytes: Int, what: String)
        throws(PolicyKeyError) -> (bytes: Data, range: SourceRange)
    {
        var encoded: [UInt8] = []
        var payload: Range<Int>?
        for line in lines(of: raw) where !isComment(line, in: raw) {
            for index in line where raw[index] != UInt8(ascii: " ") && raw[index] != UInt8(ascii: "\t") {
                guard isBase64(raw[index]) else {
                    // The whole character, however many bytes it takes.
                    var end = index + 1
                    while end < line.upperBound, raw[end].isUTF8Continuation { end += 1 }
                    let character = String(decoding: UnsafeRawBufferPointer(rebasing: raw[index..<end]), as: UTF8.self)
                    throw PolicyKeyError(.signingNotBase64,
                        "the \(what) is not base64: \(character.debugDescription) is not a base64 character",
                        at: range(index..<end, in: raw))
                }
                encoded.append(raw[index])
                payload = (payload?.lowerBound ?? index)..<(index + 1)
            }
        }
        guard let payload else {
            throw PolicyKeyError(.signingEmpty, "the \(what) is empty", at: .wholeInputStart)
        }
        let placed = range(payload, in: raw)
        guard let decoded = Data(base64Encoded: Data(encoded)) else {
            throw PolicyKeyError(.signingNotBase64, "the \(what) is not base64: its length or its padding is wrong",
                at: placed)
        }
        guard decoded.count == expectedBytes else {
            throw PolicyKeyError(.signingWrongLength,
                "the \(what) has \(decoded.count) bytes; an Ed25519 \(what) has \(expectedBytes)", at: placed)
        }
        return (decoded, placed)
    }

    /// Where the text's comment says it is a private key: the comment line; nil when none does.
    static func privateKeyComment(in text: String) -> SourceRange? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { raw in
            lines(of: raw).first { line in
                isComment(line, in: raw)
                    && String(decoding: UnsafeRawBufferPointer(rebasing: raw[line]), as: UTF8.self).lowercased()
                        .contains("private key")
            }.map { line in range(line, in: raw) }
        }
    }

    /// The place of these bytes of the text.
    private static func range(_ bytes: Range<Int>, in text: UnsafeRawBufferPointer) -> SourceRange {
        SourceRange(start: SourceMap.location(ofByte: bytes.lowerBound, in: text),
            end: SourceMap.location(ofByte: bytes.upperBound, in: text))
    }

    /// The lines of the text, as byte ranges without their breaks, broken as policies' lines are; a byte order mark
    /// is not part of the first.
    private static func lines(of bytes: UnsafeRawBufferPointer) -> [Range<Int>] {
        var lines: [Range<Int>] = []
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var index = start
        while index < bytes.count {
            let breakLength = SourceMap.lineBreakLength(at: index, in: bytes)
            if breakLength > 0 {
                lines.append(start..<index)
                index += breakLength
                start = index
            } else {
                index += 1
            }
        }
        if start < bytes.count { lines.append(start..<bytes.count) }
        return lines
    }

    /// Whether the line's first character other than a space or tab is `#`.
    private static func isComment(_ line: Range<Int>, in bytes: UnsafeRawBufferPointer) -> Bool {
        let first = line.first { bytes[$0] != UInt8(ascii: " ") && bytes[$0] != UInt8(ascii: "\t") }
        return first.map { bytes[$0] == UInt8(ascii: "#") } ?? false
    }

    /// Whether the byte is a character of base64's alphabet, its padding included.
    private static func isBase64(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="):
            true
        default:
            false
        }
    }
}

/// Why a key or signature could not be read: what is wrong, its stable code, and where in the text.
public struct PolicyKeyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, in words.
    public let reason: String
    /// The stable code: a `signing.` code.
    public let code: DiagnosticCode
    /// Where in the key's or signature's text: the character that is not base64, the payload of the wrong length,
    /// the comment that says a private key is one; the text's start when it is empty.
    public let range: SourceRange

    init(_ code: DiagnosticCode, _ reason: String, at range: SourceRange) {
        self.code = code
        self.reason = reason
        self.range = range
    }

    /// The problem as an error diagnostic, to render with the file the text came from.
    public var diagnostic: Diagnostic { .error(code, reason, at: range) }

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
        let payload = try PolicySigning.payload(of: text, expectedBytes: 32, what: "private key")
        do {
            key = try Curve25519.Signing.PrivateKey(rawRepresentation: payload.bytes)
        } catch {
            throw PolicyKeyError(.signingInvalidKey, "the private key is not a valid Ed25519 key", at: payload.range)
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
        if let comment = PolicySigning.privateKeyComment(in: text) {
            throw PolicyKeyError(.signingPrivateKey,
                "this is a private key; configure the app with the public key (the .pub file)", at: comment)
        }
        let payload = try PolicySigning.payload(of: text, expectedBytes: 32, what: "public key")
        guard (try? Curve25519.Signing.PublicKey(rawRepresentation: payload.bytes)) != nil else {
            throw PolicyKeyError(.signingInvalidKey, "the public key is not a valid Ed25519 key", at: payload.range)
        }
        raw = payload.bytes
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
        bytes = try PolicySigning.payload(of: text, expectedBytes: 64, what: "signature").bytes
    }

    /// The base64 of the signature, as a response header carries it.
    public var base64: String { bytes.base64EncodedString() }

    /// The signature as a sidecar file's text.
    public var text: String { PolicySigning.signatureHeading + "\n" + base64 + "\n" }
}

extension PolicyKeyError: LocalizedError {
    /// The description, which Foundation's `localizedDescription` gives.
    public var errorDescription: String? { description }
}
