import Foundation

/// A file read for the reader, no further than one byte past its limit (``YAMLLimits/readLimit``): a file the reader
/// would refuse as too large is never held whole. The tools read every file they parse through this: policy-lint
/// meets every `*.json` and `*.yaml` of a repository whatever its size, and `launch-policy eval /dev/zero` would
/// otherwise read until memory ran out.
package struct YAMLInputFile: Sendable {
    /// The file's bytes: all of them, or the first ``YAMLLimits/readLimit`` when it is larger than the reader accepts.
    package let bytes: [UInt8]
    /// The reader's `yaml.input-too-large`, giving the file's whole size, when it is larger than the reader accepts;
    /// nil when ``bytes`` is the whole file.
    package let tooLarge: Diagnostic?

    /// Reads the file at `url`; throws when it cannot be read (``AtomicFile/reason(_:)`` says why).
    package init(contentsOf url: URL, limits: YAMLLimits) throws {
        let (bytes, size) = try AtomicFile.contents(of: url, readingAtMost: limits.readLimit)
        self.bytes = bytes
        tooLarge = bytes.count == limits.readLimit
            ? YAMLReader(limits: limits).read(bytes, size: size).diagnostics.first { $0.code == .yamlInputTooLarge }
            : nil
    }
}
