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

/// What a path names, by `stat`, and the path with every symbolic link resolved, by `realpath`.
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

    /// What `path` names; nil when it names nothing (or, following links, a link to nothing or a loop of links).
    static func of(_ path: String, followingLinks: Bool) -> FileStatus? {
        var status = stat()
        guard (followingLinks ? stat(path, &status) : lstat(path, &status)) == 0 else { return nil }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .folder
        case S_IFLNK: return .link
        default: return .other
        }
    }

    /// The absolute path of what `path` names with every symbolic link resolved; nil when it names nothing.
    static func resolved(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
