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

    /// What the command line's paths stand for: the files to check, and what a folder search could not look into.
    public struct Found: Sendable {
        /// The files, each once, in the order ``PolicyFiles/collect(_:)`` describes.
        public var files: [URL]
        /// What the search of each folder could not look into, sorted by path within it: any policies there were not
        /// found, which a CI run must not pass over in silence.
        public var unreadable: [Unreadable]
    }

    /// A path a folder search could not look into: a folder that could not be listed or searched, or a link whose
    /// target the system would not describe.
    public struct Unreadable: Hashable, Sendable {
        /// The path, as the folder's path given on the command line spells it.
        public let path: String
        /// Whether it is a folder; if not, it is a link named like a policy.
        public let isFolder: Bool
        /// Why, as the system words it: `permission denied`.
        public let reason: String
    }

    /// The files named by `paths`, each once: each file as given followed by its `*.tests.yaml` file
    /// (``PolicyTestFile``), and every file with a searched extension below each folder, sorted by path so that
    /// output is stable. Hidden files and folders are skipped inside folders.
    ///
    /// A file is known by the path it has with every symbolic link resolved, so that one reached by two names is
    /// found once. Inside folders, a link to a file is found under its own name, as the file would be, so that a
    /// policy a repository links in from elsewhere is checked, not skipped; links to folders are not followed, so
    /// that no link can make the search loop, and links to nothing are skipped. A folder that cannot be listed or
    /// searched, the one given included, is not passed over in silence: it is in ``Found/unreadable``.
    ///
    /// - Throws: ``MissingPath`` for the first path that does not exist.
    public static func collect(_ paths: [String]) throws(MissingPath) -> Found {
        try collect(paths, listing: FileStatus.names(in:))
    }

    /// ``collect(_:)`` with the folders listed by `listing`, which tests replace to make a listing fail: as root, the
    /// user CI runs as, every folder can be listed.
    static func collect(
        _ paths: [String], listing: (String) -> Result<[String], FileStatus.ListingFailure>
    ) throws(MissingPath) -> Found {
        var result = Found(files: [], unreadable: [])
        var seen: Set<String> = []
        func add(_ path: String, resolved: String? = nil) {
            if seen.insert(resolved ?? FileStatus.resolved(path) ?? path).inserted {
                result.files.append(URL(fileURLWithPath: path, isDirectory: false))
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
            var search = Search()
            search.search(root, resolved: FileStatus.resolved(root) ?? root, listing: listing)
            search.found.sorted { $0.path < $1.path }.forEach { add($0.path, resolved: $0.resolved) }
            result.unreadable += search.unreadable.sorted { $0.path < $1.path }
        }
        return result
    }

    /// One folder's search: the files found, and what could not be looked into.
    private struct Search {
        /// A file found: its path, and the path it has with every symbolic link resolved.
        struct Candidate {
            let path: String
            let resolved: String
        }

        var found: [Candidate] = []
        var unreadable: [Unreadable] = []

        /// Every file below `folder` with a searched extension that is a regular file or a link to one, hidden names
        /// skipped and links to folders not followed, each with its resolved path.
        ///
        /// By `stat`, not through Foundation's directory enumerator and URL resource values, which cost about 330,000
        /// instructions a file on Linux: over a folder of a thousand policies, more than reading and checking a tenth
        /// of them. A folder searched is a real one (links to folders are not followed), so a file in it that is not a
        /// link resolves to the resolved folder's path and its own name, with no system call.
        mutating func search(
            _ folder: String, resolved: String, listing: (String) -> Result<[String], FileStatus.ListingFailure>
        ) {
            let names: [String]
            switch listing(folder) {
            case .success(let listed): names = listed
            case .failure(let failure):
                return unreadable.append(Unreadable(path: folder, isFolder: true, reason: failure.reason))
            }
            var folderReported = false
            for name in names where !name.hasPrefix(".") {
                let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
                let resolvedPath = resolved.hasSuffix("/") ? resolved + name : resolved + "/" + name
                switch FileStatus.of(path, followingLinks: false) {
                case .folder:
                    search(path, resolved: resolvedPath, listing: listing)
                case .file where hasSearchedExtension(name):
                    found.append(Candidate(path: path, resolved: resolvedPath))
                case .link where hasSearchedExtension(name):
                    // A link to a file is found under its own name; a link to a folder, to nothing or to itself is not.
                    switch FileStatus.of(path, followingLinks: true) {
                    case .file:
                        guard let target = FileStatus.resolved(path) else { break }  // it went away
                        found.append(Candidate(path: path, resolved: target))
                    case .unknown(let reason):
                        unreadable.append(Unreadable(path: path, isFolder: false, reason: reason))
                    case .folder, .link, .other, .missing:
                        break
                    }
                case .unknown(let reason):
                    // A folder that can be listed but not searched: none of its entries can be told apart, and any
                    // may be a policy. Said once for the folder.
                    if !folderReported { unreadable.append(Unreadable(path: folder, isFolder: true, reason: reason)) }
                    folderReported = true
                case .file, .link, .other, .missing:
                    // `.missing`: it went away since the folder was listed.
                    break
                }
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

extension PolicyFiles.MissingPath: LocalizedError {
    /// The description, which Foundation's `localizedDescription` gives.
    public var errorDescription: String? { description }
}
