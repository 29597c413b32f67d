import Foundation
import LaunchPolicy

/// The last-known-good remote policy, kept in one file in the cache folder so that a policy and what is known about
/// it (where it came from, its validators, its signature, when it was last confirmed) are always replaced together:
/// the file is written to a temporary file and renamed over the old one, so a crash or a full disk leaves the old
/// file whole.
///
/// Only a policy that decoded without errors (and verified, when a key is set) is ever written; a cached policy is
/// nevertheless decoded and verified again when read, so a file altered on disk, or a cache written before a key was
/// configured, is not trusted.
struct PolicyCache {
    /// The cache file's name inside the cache folder.
    static let fileName = "launch-policy-cache.json"

    /// What the cache file holds.
    struct Entry: Equatable {
        /// The URL the policy was fetched from.
        var url: String
        /// The policy file's bytes, base64, exactly as served (the signature covers them).
        var policy: String
        /// The response's ETag, sent back as If-None-Match.
        var etag: String?
        /// The response's Last-Modified, sent back as If-Modified-Since.
        var lastModified: String?
        /// The signature that verified the policy, base64.
        var signature: String?
        /// When the policy was fetched.
        var fetchedAt: Date
        /// When the server last confirmed it, by sending it or by a 304.
        var confirmedAt: Date

        /// The policy's bytes.
        var bytes: Data? { Data(base64Encoded: policy) }
    }

    let file: URL

    init(directory: URL) {
        file = directory.appendingPathComponent(Self.fileName)
    }

    /// The cached entry, nil when there is none; throws when there is a file that cannot be read as one.
    func load() throws(StateFileProblem) -> Entry? {
        let data: Data?
        do {
            data = try StateFile.read(file)
        } catch {
            throw StateFileProblem(.stateUnreadable, "it cannot be read: \(AtomicFile.reason(error))")
        }
        guard let data else { return nil }
        return try Entry(fileData: data)
    }

    /// Replaces the cached entry in one step.
    func save(_ entry: Entry) throws {
        try AtomicFile.write(entry.fileData(), to: file)
    }
}

extension PolicyCache.Entry {
    /// The entry as the cache file holds it: `{"format": 1, "url", "policy", "etag", "lastModified", "signature",
    /// "fetchedAt", "confirmedAt"}`, unknown values left out.
    func fileData() -> Data {
        StateFile.encode([
            "url": .string(url), "policy": .string(policy), "etag": .string(etag),
            "lastModified": .string(lastModified), "signature": .string(signature),
            "fetchedAt": .string(Timestamp.text(fetchedAt)), "confirmedAt": .string(Timestamp.text(confirmedAt)),
        ])
    }

    /// Reads what ``fileData()`` wrote; throws what is wrong, and where, when the data is not such an entry.
    init(fileData data: Data) throws(StateFileProblem) {
        // A date that does not read makes the entry damaged, not a policy of unknown age: fail-closed ages the
        // policy by its confirmation.
        self = try StateFile.decode(data) { file throws(StateFileProblem) in
            let entry = PolicyCache.Entry(url: try file.string("url"), policy: try file.string("policy"),
                etag: try file.optionalString("etag"), lastModified: try file.optionalString("lastModified"),
                signature: try file.optionalString("signature"), fetchedAt: try file.date("fetchedAt"),
                confirmedAt: try file.date("confirmedAt"))
            guard entry.bytes != nil else { throw file.invalid("policy", "its policy is not base64") }
            return entry
        }
    }
}

extension PolicyCache.Entry {
    /// The cached policy if it may still be used under `source`: it verifies with the configured key (when one is
    /// set) and decodes without errors. Otherwise why not, in words. The launch path and the refresh both ask here,
    /// so a cache the app will not use is never confirmed by a 304.
    func trustedPolicy(under source: PolicySource) -> Result<Policy, Distrust> {
        let bytes = self.bytes ?? Data()
        if let publicKey = source.publicKey {
            guard let signature = signature.flatMap({ try? PolicySignature(text: $0) }) else {
                return .failure(Distrust(.deliveryUnsigned, "it has no signature, and a key is configured"))
            }
            guard publicKey.verifies(signature, of: bytes) else {
                return .failure(Distrust(.deliveryBadSignature, "it is not signed by the configured key"))
            }
        }
        let parsed = source.parser.parse(bytes)
        guard let policy = parsed.usablePolicy else {
            // The first error says what changed: most often a library update that reads the language more strictly.
            guard let error = parsed.diagnostics.first(where: { $0.severity == .error }) else {
                return .failure(Distrust(.deliveryInvalidPolicy, "it no longer decodes"))
            }
            return .failure(Distrust(error.code,
                "it no longer decodes without errors (\(error.range.start): \(error.message))"))
        }
        return .success(policy)
    }

    /// Why a cache entry that reads is still not used: the code of the problem underneath, and words.
    struct Distrust: Error {
        /// `delivery.unsigned` or `delivery.bad-signature`, or the code of the policy's first error.
        let code: DiagnosticCode
        let reason: String

        init(_ code: DiagnosticCode, _ reason: String) {
            self.code = code
            self.reason = reason
        }
    }
}
