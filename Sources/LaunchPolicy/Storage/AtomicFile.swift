import Foundation

/// Writes the small state files the library keeps (what was shown, launch history, the delivery cache) so that a crash
/// or a full disk never leaves a half-written file: the new contents go to a temporary file beside the old one, which
/// is then renamed over it. Every file the package reads whole, a state file or a policy, is read here too, and a
/// failure is told in one way (``reason(_:)``).
package enum AtomicFile {
    /// The file's bytes, or nil when there is no file.
    package static func read(_ url: URL) throws -> Data? {
        do {
            return try contents(of: url)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile || error.code == .fileNoSuchFile {
            return nil
        } catch let error as NSError where error.domain == NSPOSIXErrorDomain && error.code == Int(ENOENT) {
            return nil
        }
    }

    /// The bytes of any file the package reads whole: a state file, a policy, a configuration. Throws when there is
    /// no file, as when it cannot be read; ``reason(_:)`` says why in a few words.
    ///
    /// Read through a file handle: on Linux and Android `Data(contentsOf:)` leaks a 4 KiB buffer for every empty file
    /// it reads (Foundation's path for files that report a size of 0), which the fuzzer found at the first empty
    /// history file an app would read at launch.
    package static func contents(of url: URL) throws -> Data {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        return try handle.readToEnd() ?? Data()
    }

    /// Why a file could not be read or written, in the words of `strerror` ("no such file or directory", "is a
    /// directory"): Foundation's own description of most failures is "The operation could not be completed.
    /// (NSCocoaErrorDomain error 256.)".
    package static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        // On Linux the underlying error is often a Swift `POSIXError`, which `as? NSError` does not match.
        let underlying = (nsError.userInfo[NSUnderlyingErrorKey] as? any Error).map { $0 as NSError }
        let posix = [nsError, underlying].lazy.compactMap { $0 }.first { $0.domain == NSPOSIXErrorDomain }
        if let posix, let code = POSIXErrorCode(rawValue: Int32(posix.code)) {
            return String(cString: strerror(code.rawValue)).lowercased()
        }
        if nsError.domain == NSCocoaErrorDomain, nsError.code == CocoaError.fileReadNoSuchFile.rawValue {
            return "no such file"
        }
        return error.localizedDescription
    }

    /// Replaces the file's contents in one step, creating its folder when needed.
    package static func write(_ data: Data, to url: URL) throws {
        do {
            try data.write(to: url, options: .atomic)
        } catch {
            // The folder is made when it is missing, not made sure of before every write: the launch history is
            // written at every launch, and asking `FileManager` for the folder cost more than writing.
            let folder = url.deletingLastPathComponent()
            guard !FileManager.default.fileExists(atPath: folder.path) else { throw error }
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try data.write(to: url, options: .atomic)
        }
    }
}
