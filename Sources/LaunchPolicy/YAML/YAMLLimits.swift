/// Hard limits that keep the reader safe on hostile input.
///
/// A policy may come from a server, so the reader treats every input as untrusted. Each limit is enforced while the
/// input is consumed, not afterwards: an input over ``maximumInputBytes`` is refused before libyaml sees it, and the
/// reader stops pulling events from libyaml as soon as ``maximumDepth`` or ``maximumExpandedNodes`` is passed.
/// Memory and time therefore stay proportional to the limits, whatever the input.
public struct YAMLLimits: Hashable, Sendable {
    /// The largest input accepted, in bytes. Default: 1 MiB. Never more than ``largestInputBytes``, whatever this
    /// says.
    public var maximumInputBytes: Int
    /// The most any limits accept, in bytes: 4 GiB less two, as source positions are kept as 32-bit numbers, or
    /// `Int.max` less one where `Int` has 32 bits (Apple Watch). `Int(UInt32.max)` there was a trap at the first read.
    public static let largestInputBytes = Int(clamping: UInt32.max) - 1
    /// The deepest nesting of sequences and mappings, an alias counted as the nesting of the node it stands for.
    /// Default: 64.
    ///
    /// Counting aliases is what keeps a small file from nesting without bound: a chain of anchors, each holding an
    /// alias of the one before, is written a few levels deep but nests as deep as the chain is long.
    public var maximumDepth: Int
    /// The number of nodes a document may have with every alias expanded. Default: 100,000.
    ///
    /// This is what defeats "billion laughs": nine anchors of nine aliases each are refused as soon as the count
    /// passes the limit, without expanding anything.
    public var maximumExpandedNodes: Int
    /// The longest scalar, in bytes of its value. Default: 64 KiB.
    public var maximumScalarBytes: Int
    /// How many documents one input may hold. Default: 1 (a policy file is one document).
    public var maximumDocuments: Int

    /// Creates limits; every parameter has the documented default.
    public init(
        maximumInputBytes: Int = 1 << 20,
        maximumDepth: Int = 64,
        maximumExpandedNodes: Int = 100_000,
        maximumScalarBytes: Int = 64 << 10,
        maximumDocuments: Int = 1
    ) {
        self.maximumInputBytes = maximumInputBytes
        self.maximumDepth = maximumDepth
        self.maximumExpandedNodes = maximumExpandedNodes
        self.maximumScalarBytes = maximumScalarBytes
        self.maximumDocuments = maximumDocuments
    }

    /// How much of a file to read: one byte past the largest input accepted, so that a larger file is refused, with
    /// its size, without being held whole (policy-lint meets every `*.json` file of a repository, whatever its size).
    var readLimit: Int { min(maximumInputBytes, Self.largestInputBytes) + 1 }

    /// The defaults: 1 MiB, depth 64, 100,000 expanded nodes, 64 KiB scalars, one document.
    public static let `default` = YAMLLimits()
}
