import Foundation

/// What ``YAMLReader`` made of an input: its documents and every problem found.
public struct YAMLReadResult: Sendable {
    /// The documents read, in order. Empty when reading failed before a document was complete.
    public var documents: [YAMLNode]
    /// The problems found, in the order found. Any error means the documents must not be trusted as complete.
    public var diagnostics: [Diagnostic]

    /// The first document, the one a policy file holds.
    public var root: YAMLNode? { documents.first }

    /// Creates a result.
    public init(documents: [YAMLNode], diagnostics: [Diagnostic]) {
        self.documents = documents
        self.diagnostics = diagnostics
    }
}

/// Turns YAML bytes into a tree of ``YAMLNode``s, exactly as libyaml reads them and safely on hostile input.
///
/// - Exact: scalars keep their text and style and are never typed (`1.10`, `no`, `~` stay text); every node has
///   its source range.
/// - Safe: composition is iterative, and every limit in ``YAMLLimits`` is enforced while the input is consumed.
///
/// ```swift
/// let result = YAMLReader().read(Data(contentsOf: url))
/// for diagnostic in result.diagnostics { print(diagnostic.rendered(file: path)) }
/// ```
public struct YAMLReader: Sendable {
    /// The limits in force.
    public var limits: YAMLLimits

    /// Creates a reader with the given limits.
    public init(limits: YAMLLimits = .default) {
        self.limits = limits
    }

    /// Reads bytes (a `Data`, a `[UInt8]`, …). The input must be UTF-8; a UTF-8 byte-order mark is allowed.
    public func read(_ bytes: some ContiguousBytes) -> YAMLReadResult {
        bytes.withUnsafeBytes { read(buffer: $0, size: $0.count, source: nil) }
    }

    /// Reads a `Data`, which the tree keeps as its source without a copy (an app reads its policy so at launch).
    public func read(_ data: Data) -> YAMLReadResult {
        data.withUnsafeBytes { read(buffer: $0, size: $0.count, source: .data(data)) }
    }

    /// Reads bytes, which the tree keeps as its source without a copy.
    public func read(_ bytes: [UInt8]) -> YAMLReadResult {
        bytes.withUnsafeBytes { read(buffer: $0, size: $0.count, source: .bytes(bytes)) }
    }

    /// Reads the first bytes of an input of `size` bytes (nil: unknown), read only so far because it is over the
    /// limit (``YAMLLimits/readLimit``): the input is refused, and the problem gives its whole size when known.
    func read(_ bytes: some ContiguousBytes, size: Int?) -> YAMLReadResult {
        bytes.withUnsafeBytes { read(buffer: $0, size: size, source: nil) }
    }

    /// Reads a string.
    public func read(_ text: String) -> YAMLReadResult {
        read(Array(text.utf8))
    }

    /// Reads `buffer`; the tree keeps `source`, or a copy of `buffer` when it is nil.
    private func read(buffer: UnsafeRawBufferPointer, size: Int?, source: YAMLTree.Source?) -> YAMLReadResult {
        var composer = YAMLComposer(limits: limits, inputBytes: buffer.count)
        let stop = YAMLEventReader(limits: limits).readEvents(buffer, size: size, into: &composer)
        var diagnostics = composer.diagnostics
        if let stop { diagnostics.append(stop) }
        let complete = stop == nil && !composer.diagnostics.contains {
            $0.code != .yamlDuplicateKey
        }
        return YAMLReadResult(
            documents: complete ? composer.documents(source: source ?? .copy(of: buffer)) : [],
            diagnostics: diagnostics)
    }
}
