import CFileAttributes
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes the small state files the library keeps (what was shown, launch history, the delivery cache) so that a crash
/// or a full disk never leaves a half-written file: the new contents go to a temporary file beside the old one, which
/// is then renamed over it. Every file the package reads, a state file, a policy or a key, is read here too, no
/// further than a limit, and a failure is told in one way (``reason(_:)``).
package enum AtomicFile {
    /// The bytes of a file, read no further than `limit` bytes, and the file's size: the size a regular file tells,
    /// or that of anything else (a pipe, a device, a file in `/proc`, which says it is empty) read to its end; nil
    /// when such a file was read only to the limit, as its size is then unknown (`/dev/zero` has none). Throws when
    /// there is no file, as when it cannot be read; ``reason(_:)`` says why in a few words.
    ///
    /// By `open`, `fstat` and `read`: a regular file is read in one call into a buffer of its size. Through
    /// `FileHandle.read(upToCount:)`, each file cost policy-lint about 9,000 instructions more than reading it whole;
    /// through `Data(contentsOf:)`, on Linux and Android, each empty file leaked a 4 KiB buffer (Foundation's path for
    /// files that report a size of 0), which the fuzzer found at the first empty history file an app would read.
    ///
    /// With `onlyRegular`, anything but a regular file (or a link to one) is refused, unread: ``NotRegularFile``, or
    /// `EISDIR` for a folder. It is then opened without waiting, as a pipe with no writer would keep `open` waiting.
    package static func contents(
        of url: URL, readingAtMost limit: Int, onlyRegular: Bool = false
    ) throws -> (bytes: [UInt8], size: Int?) {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC | (onlyRegular ? O_NONBLOCK : 0))
        guard descriptor >= 0 else { throw systemError() }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw systemError() }
        let regular = status.st_mode & S_IFMT == S_IFREG
        if onlyRegular, !regular {
            throw notRegularFile(isFolder: status.st_mode & S_IFMT == S_IFDIR)
        }
        // Clamped: `st_size` has 64 bits where `Int` may have 32 (Apple Watch), and a larger file is refused anyway.
        let size = regular ? max(Int(clamping: status.st_size), 0) : 0
        var bytes: [UInt8] = []
        // One byte more than a regular file's size, so that its end is seen in one call; 64 KiB at a time otherwise.
        var step = regular ? min(size, limit) + 1 : 1 << 16
        var ended = false
        while bytes.count < limit {
            let wanted = min(step, limit - bytes.count)
            // Read into new, uninitialised memory: a regular file's one read becomes the result as it is, and
            // zeroing each step first cost a stream a minute for 256 MiB in a debug build.
            var failure: Int32 = 0
            let chunk = [UInt8](unsafeUninitializedCapacity: wanted) { buffer, count in
                let got = read(descriptor, buffer.baseAddress!, wanted)
                if got < 0 { failure = errno }
                count = max(got, 0)
            }
            if failure == EINTR { continue }
            if failure != 0 { throw systemError(failure) }
            let got = chunk.count
            if bytes.isEmpty { bytes = chunk } else { bytes += chunk }
            // A file that told its size and gave all of it and less than asked for is at its end; anything else
            // (`/proc`'s files say 0 and give a page at a time) is read until a read gives nothing.
            if got == 0 || (size > 0 && bytes.count >= size && got < wanted) {
                ended = true
                break
            }
            step = 1 << 16
        }
        return (bytes, ended ? bytes.count : size > 0 ? size : nil)
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
            return reason(code: code.rawValue)
        }
        if nsError.domain == NSCocoaErrorDomain, nsError.code == CocoaError.fileReadNoSuchFile.rawValue {
            return "no such file"
        }
        return error.localizedDescription
    }

    /// `strerror`'s words for an error number, in lower case: `permission denied`.
    package static func reason(code: Int32) -> String {
        String(cString: strerror(code)).lowercased()
    }

    /// A file read with `onlyRegular` is a device, a pipe or a socket.
    /// A file that no longer holds the text a new one was made from (``replaceContents(of:with:ifStill:)``).
    package struct ChangedMeanwhile: LocalizedError {
        package var errorDescription: String? { "it changed while it was being fixed; run again" }
    }

    package struct NotRegularFile: LocalizedError {
        package var errorDescription: String? { "not a regular file" }
    }

    /// A file with more than one name (hard links), which ``replaceContents(of:with:ifStill:)`` leaves as it is: a
    /// new file renamed over one name would leave the others with the old text.
    package struct HardLinked: LocalizedError {
        /// How many names the file has.
        package var links: Int
        package var errorDescription: String? {
            "it has \(links) names (hard links), and the others would keep the old text; fix it by hand"
        }
    }

    /// What refuses a state file that is not a regular file: `EISDIR`, in the system's words, for a folder;
    /// ``NotRegularFile`` for anything else.
    package static func notRegularFile(isFolder: Bool) -> any Error {
        isFolder ? systemError(EISDIR) : NotRegularFile()
    }

    /// The error a system call set (`errno`), as Swift throws it.
    package static func systemError(_ code: Int32 = errno) -> POSIXError {
        POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
    }

    /// Replaces the file's contents in one step, creating its folder when needed.
    package static func write(_ data: Data, to url: URL) throws {
        try makingFolder(of: url) { try data.write(to: url, options: .atomic) }
    }

    /// Replaces the contents of a file the user keeps (a policy `policy-lint --fix` fixed) in one step, keeping what
    /// the file is: a link is written through, to the file it names, and the file keeps its permissions and, where
    /// the system allows, its owner and its extended attributes (``copyExtendedAttributes(from:to:)``). The text goes
    /// to a new file beside that one, which is flushed to the disk and renamed over it, so that a crash or a full
    /// disk leaves the old text or the new one, never part of either; on a failure the new file is removed. A file
    /// with other names (hard links) is refused (``HardLinked``), as they would keep the old text. With `original`,
    /// the text the new one was made from, the file is replaced only if it still holds that text just before the
    /// rename (``ChangedMeanwhile``): an edit saved while the file was being fixed is not written over.
    package static func replaceContents(of url: URL, with bytes: [UInt8], ifStill original: [UInt8]? = nil) throws {
        guard let target = FileStatus.resolved(url.path) else { throw systemError() }
        var status = stat()
        guard stat(target, &status) == 0 else { throw systemError() }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw notRegularFile(isFolder: status.st_mode & S_IFMT == S_IFDIR)
        }
        guard status.st_nlink <= 1 else { throw HardLinked(links: Int(clamping: status.st_nlink)) }
        let folder = target.lastIndex(of: "/").map { String(target[..<$0]) } ?? "."
        let name = target.lastIndex(of: "/").map { String(target[target.index(after: $0)...]) } ?? target
        var temporary = ""
        var descriptor: Int32 = -1
        for attempt in 0..<100 {
            temporary = "\(folder)/.\(name).\(getpid()).\(attempt).tmp"
            descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if descriptor >= 0 || errno != EEXIST { break }
        }
        guard descriptor >= 0 else { throw systemError() }
        do {
            defer { close(descriptor) }
            // The owner first, as changing it may clear the set-id bits the mode then restores; only root may give a
            // file to another user, so a failure leaves the file the writer's.
            _ = fchown(descriptor, status.st_uid, status.st_gid)
            guard fchmod(descriptor, status.st_mode & 0o7777) == 0 else { throw systemError() }
            copyExtendedAttributes(from: target, to: descriptor)
            var written = 0
            while written < bytes.count {
                let count = bytes.withUnsafeBytes { buffer in
                    systemWrite(descriptor, buffer.baseAddress! + written, bytes.count - written)
                }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw systemError()
                }
                written += count
            }
            guard fsync(descriptor) == 0 else { throw systemError() }
            if let original {
                let now = try contents(of: URL(fileURLWithPath: target), readingAtMost: original.count + 1).bytes
                guard now == original else { throw ChangedMeanwhile() }
            }
            guard rename(temporary, target) == 0 else { throw systemError() }
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// Each extended attribute of the file at `source` that this process may set, set on the open file
    /// `destination`: Finder's tags and colours and where a file was downloaded from on a Mac, user attributes and an
    /// access control list (`system.posix_acl_access`) on Linux. One the system does not let it set (an SELinux label
    /// it may not give, a `trusted.` one without root) is left as the new file has it, as `cp --preserve=xattr` does
    /// but without a word: the library never prints, and the text is what the user asked for.
    static func copyExtendedAttributes(from source: String, to destination: Int32) {
        for attribute in extendedAttributes(ofFileAt: source) {
            // An empty value still by a valid pointer, which not every system lets be null.
            let value = attribute.value.isEmpty ? [0] : attribute.value
            _ = value.withUnsafeBytes {
                launchpolicy_fsetxattr(destination, attribute.name, $0.baseAddress, attribute.value.count)
            }
        }
    }

    /// The extended attributes of the file at `path` that this process may read: each name as the system gives it,
    /// bytes ending in a NUL (not always UTF-8 on Linux), and its value. None for a file that cannot be opened or a
    /// system without them.
    package static func extendedAttributes(ofFileAt path: String) -> [(name: [CChar], value: [UInt8])] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return [] }
        defer { close(descriptor) }
        // Each list and value is asked for by size, then read; asked again (twice at most) if it grew in between.
        func read(_ call: (UnsafeMutableRawPointer?, Int) -> Int) -> [UInt8]? {
            for _ in 0..<3 {
                let size = call(nil, 0)
                guard size >= 0 else { return nil }
                var bytes = [UInt8](repeating: 0, count: size)
                let read = bytes.withUnsafeMutableBytes { call($0.baseAddress, size) }
                if read >= 0 { return Array(bytes[..<read]) }
                guard errno == ERANGE else { return nil }
            }
            return nil
        }
        // The names, each ending in a NUL.
        guard let names = read({ launchpolicy_flistxattr(descriptor, $0?.assumingMemoryBound(to: CChar.self), $1) })
        else { return [] }
        return names.split(separator: 0).compactMap { name in
            let name = name.map { CChar(bitPattern: $0) } + [0]
            guard let value = read({ launchpolicy_fgetxattr(descriptor, name, $0, $1) }) else { return nil }
            return (name, value)
        }
    }

    /// `attempt`, and when it fails because the folder `file` goes in is missing, the folder made and `attempt` once
    /// more. The folder is made when it is missing, not made sure of before every write: the launch history and its
    /// lock are written at every launch, and asking `FileManager` for the folder cost more than writing.
    package static func makingFolder<Result>(
        of file: @autoclosure () -> URL, _ attempt: () throws -> Result
    ) throws -> Result {
        do {
            return try attempt()
        } catch {
            let folder = file().deletingLastPathComponent()
            guard !FileManager.default.fileExists(atPath: folder.path) else { throw error }
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            return try attempt()
        }
    }
}

/// The system's `write`, which ``AtomicFile``'s own `write` hides inside it.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
