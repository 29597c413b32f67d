import Foundation

/// Reads and writes the small state files the library keeps (what was shown, launch history) so that a crash or a
/// full disk never leaves a half-written file: the new contents go to a temporary file beside the old one, which is
/// then renamed over it.
package enum AtomicFile {
    /// The file's bytes, or nil when there is no file.
    ///
    /// Read through a file handle: on Linux and Android `Data(contentsOf:)` leaks a 4 KiB buffer for every empty file
    /// it reads (Foundation's path for files that report a size of 0), which the fuzzer found at the first empty
    /// history file an app would read at launch.
    package static func read(_ url: URL) throws -> Data? {
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile || error.code == .fileNoSuchFile {
            return nil
        } catch let error as NSError where error.domain == NSPOSIXErrorDomain && error.code == Int(ENOENT) {
            return nil
        }
        defer { try? handle.close() }
        return try handle.readToEnd() ?? Data()
    }

    /// Replaces the file's contents in one step, creating its folder when needed.
    package static func write(_ data: Data, to url: URL) throws {
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try data.write(to: url, options: .atomic)
    }
}
