/// Staged rollout buckets: which of 10,000 buckets an install falls in for a rule.
///
/// The bucket is a documented, stable function of the rule id and the install id, so that every platform and every
/// language computes the same answer:
///
/// 1. Take the UTF-8 bytes of the rule id, a colon (`:`), and the install id: `rollout-5:6F1C…`.
/// 2. Compute their SHA-256 digest.
/// 3. Read the digest's first 8 bytes as an unsigned big-endian 64-bit integer.
/// 4. The bucket is that integer modulo 10,000.
///
/// A rule at `rollout: p%` matches the buckets below `p × 100`: 25 % matches buckets 0 to 2,499. Raising the
/// percentage only adds installs; each rule draws its own buckets, so two rules at 10 % reach different users;
/// renaming a rule draws again.
public enum Rollout {
    /// The number of buckets.
    public static let bucketCount = 10_000

    /// The bucket, from 0 to 9,999, of an install for a rule.
    public static func bucket(installID: String, ruleID: String) -> Int {
        // "rule:install" in a buffer on the stack, and only the digest's first two words: no allocation at launch.
        var rule = ruleID
        var install = installID
        let state = rule.withUTF8 { rule in
            install.withUTF8 { install in
                withUnsafeTemporaryAllocation(byteCount: rule.count + 1 + install.count, alignment: 1) { buffer in
                    // An empty id has no base address; buffer-to-buffer copies handle that.
                    UnsafeMutableRawBufferPointer(rebasing: buffer[..<rule.count]).copyMemory(from: UnsafeRawBufferPointer(rule))
                    buffer[rule.count] = UInt8(ascii: ":")
                    UnsafeMutableRawBufferPointer(rebasing: buffer[(rule.count + 1)...])
                        .copyMemory(from: UnsafeRawBufferPointer(install))
                    return SHA256.words(of: UnsafeRawBufferPointer(buffer))
                }
            }
        }
        let leading = UInt64(state.0) << 32 | UInt64(state.1)
        return Int(leading % UInt64(bucketCount))
    }

    /// Whether a bucket is inside a rollout of `percentage` (0 to 100).
    public static func includes(bucket: Int, percentage: Double) -> Bool {
        Double(bucket) < percentage * 100
    }
}
