import Foundation

/// Finds the policy files that command-line paths name.
public enum PolicyFiles {
    /// The file endings searched for inside folders: policies in YAML, LaunchGate and Gandalf configurations in JSON.
    public static let searchedExtensions: Set<String> = ["yaml", "yml", "json"]

    /// A path that names nothing readable.
    public struct MissingPath: Error, Hashable, Sendable, CustomStringConvertible {
        /// The path as given.
        public let path: String
        public var description: String { "no such file or folder: \(path)" }
    }

    /// The files named by `paths`, each once: each file as given followed by its `*.tests.yaml` file
    /// (``PolicyTestFile``), and every file with a searched extension below each folder, sorted by path so that
    /// output is stable. Hidden files and folders are skipped inside folders.
    ///
    /// A file is known by the path it has with every symbolic link resolved, so that one reached by two names is
    /// found once. Inside folders, a link to a file is found under its own name, as the file would be, so that a
    /// policy a repository links in from elsewhere is checked, not skipped; links to folders are not followed, so
    /// that no link can make the search loop, and links to nothing are skipped.
    ///
    /// - Throws: ``MissingPath`` for the first path that does not exist.
    public static func collect(_ paths: [String]) throws(MissingPath) -> [URL] {
        var files: [URL] = []
        var seen: Set<String> = []
        func add(_ path: String, resolved: String? = nil) {
            if seen.insert(resolved ?? FileStatus.resolved(path) ?? path).inserted {
                files.append(URL(fileURLWithPath: path, isDirectory: false))
            }
        }
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw MissingPath(path: path)
            }
            let url = URL(fileURLWithPath: path)
            guard isDirectory.boolValue else {
                add(url.path)
                PolicyTestFile.testFile(for: url).map { add($0.path) }
                continue
            }
            let root = url.path
            var found: [Found] = []
            search(root, resolved: FileStatus.resolved(root) ?? root, into: &found)
            found.sorted { $0.path < $1.path }.forEach { add($0.path, resolved: $0.resolved) }
        }
        return files
    }

    /// A file found inside a folder: its path, and the path it has with every symbolic link resolved.
    private struct Found {
        let path: String
        let resolved: String
    }

    /// Every file below `folder` with a searched extension that is a regular file or a link to one, hidden names
    /// skipped and links to folders not followed, each with its resolved path.
    ///
    /// By `stat`, not through Foundation's directory enumerator and URL resource values, which cost about 330,000
    /// instructions a file on Linux: over a folder of a thousand policies, more than reading and checking a tenth of
    /// them. A folder searched is a real one (links to folders are not followed), so a file in it that is not a link
    /// resolves to the resolved folder's path and its own name, with no system call.
    private static func search(_ folder: String, resolved: String, into found: inout [Found]) {
        // A folder that cannot be listed is passed over, as Foundation's enumerator passes it over.
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where !name.hasPrefix(".") {
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            let resolvedPath = resolved.hasSuffix("/") ? resolved + name : resolved + "/" + name
            switch FileStatus.of(path, followingLinks: false) {
            case .folder:
                search(path, resolved: resolvedPath, into: &found)
            case .file where hasSearchedExtension(name):
                found.append(Found(path: path, resolved: resolvedPath))
            case .link where hasSearchedExtension(name):
                // A link to a file is found under its own name; a link to a folder, to nothing or to itself is not.
                if FileStatus.of(path, followingLinks: true) == .file, let target = FileStatus.resolved(path) {
                    found.append(Found(path: path, resolved: target))
                }
            case .file, .link, .other, nil:
                break
            }
        }
    }

    /// Whether a file name ends in one of ``searchedExtensions``, in any case.
    private static func hasSearchedExtension(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: ".") else { return false }
        return searchedExtensions.contains(name[name.index(after: dot)...].lowercased())
    }

    /// The path to show for a file: relative to the current folder when it lies inside it.
    public static func displayPath(_ url: URL) -> String {
        let current = FileManager.default.currentDirectoryPath + "/"
        // Standardizing costs more than the rest together, and only a path with a `.` or `..` component needs it.
        let written = url.path
        let path = written.contains("/.") ? url.standardizedFileURL.path : written
        return path.hasPrefix(current) ? String(path.dropFirst(current.count)) : path
    }
}
