import Foundation

/// Why a version or a range was refused, and where in the text.
public struct VersionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text that was refused.
    public var input: String
    /// The kind it was read as.
    public var kind: VersionKind
    /// What is wrong, in a sentence that says what a valid one looks like.
    public var reason: String
    /// The offset, in characters from the start of `input`, of the first offending character, when known.
    public var position: Int?

    /// Whether the input was read as a range rather than a single version.
    public var isRange: Bool

    /// Creates an error.
    public init(input: String, kind: VersionKind, reason: String, position: Int? = nil, isRange: Bool = false) {
        self.input = input
        self.kind = kind
        self.reason = reason
        self.position = position
        self.isRange = isRange
    }

    /// `"1.2-beta" is not a valid marketing version: …`.
    public var description: String { "\"\(input)\" is not a valid \(kind) \(isRange ? "range" : "version"): \(reason)" }
}

extension VersionError: LocalizedError {
    /// The description, which Foundation's `localizedDescription` gives.
    public var errorDescription: String? { description }
}
