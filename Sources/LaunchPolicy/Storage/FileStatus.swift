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

/// What a path names, by `stat`, the names a folder holds, by `opendir`, and the path with every symbolic link
/// resolved, by `realpath`.
///
/// policy-lint asks this of every file in the folders it searches. Foundation's URL resource values and
/// `resolvingSymlinksInPath()` answer the same questions at about 300,000 and 40,000 instructions a file on Linux;
/// these cost a few hundred, and the system calls.
enum FileStatus: Equatable {
    /// A regular file.
    case file
    /// A folder.
    case folder
    /// A symbolic link (only when links are not followed).
    case link
    /// Anything else: a device, a pipe, a socket.
    case other
    /// Nothing: the path names nothing, or, following links, a link to nothing or a loop of links.
    case missing
    /// The system would not say what the path names (a folder on the way that cannot be searched), and why.
    case unknown(reason: String)

    /// What `path` names.
    static func of(_ path: String, followingLinks: Bool) -> FileStatus {
        var status = stat()
        guard (followingLinks ? stat(path, &status) : lstat(path, &status)) == 0 else {
            let code = errno
            return [ENOENT, ENOTDIR, ELOOP].contains(code) ? .missing : .unknown(reason: AtomicFile.reason(code: code))
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .folder
        case S_IFLNK: return .link
        default: return .other
        }
    }

    /// The names in the folder at `path`, without `.` and `..`, in the order the system gives them.
    static func names(in path: String) -> Result<[String], ListingFailure> {
        guard let folder = opendir(path) else {
            return .failure(ListingFailure(reason: AtomicFile.reason(code: errno)))
        }
        defer { closedir(folder) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(folder) else {
                let code = errno
                return code == 0 ? .success(names) : .failure(ListingFailure(reason: AtomicFile.reason(code: code)))
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
    }

    /// Why a folder could not be listed, as the system words it.
    struct ListingFailure: Error, Equatable {
        let reason: String
    }

    /// The absolute path of what `path` names with every symbolic link resolved; nil when it names nothing.
    static func resolved(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
