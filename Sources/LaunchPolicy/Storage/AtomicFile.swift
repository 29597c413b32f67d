import Foundation

/// Reads and writes the small state files the library keeps (what was shown, launch history) so that a crash or a
/// full disk never leaves a half-written file: the new contents go to a temporary file beside the old one, which is
/// then renamed over it.
package enum AtomicFile {
    /// The file's bytes, or nil when there is no file.
    package static func read(_ url: URL) throws -> Data? {
        do {
            return try Data(contentsOf: url)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            return nil
        } catch let error as NSError where error.domain == NSPOSIXErrorDomain && error.code == Int(ENOENT) {
            return nil
        }
    }

    /// Replaces the file's contents in one step, creating its folder when needed.
    package static func write(_ data: Data, to url: URL) throws {
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try data.write(to: url, options: .atomic)
    }
}
