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
        func add(_ url: URL, resolved: URL? = nil) {
            if seen.insert((resolved ?? url.resolvingSymlinksInPath()).path).inserted { files.append(url) }
        }
        let fileManager = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard fileManager.fileExists(atPath: path, isDirectory: &isDirectory) else { throw MissingPath(path: path) }
            let url = URL(fileURLWithPath: path)
            guard isDirectory.boolValue else {
                add(url)
                PolicyTestFile.testFile(for: url).map { add($0) }
                continue
            }
            let enumerator = fileManager.enumerator(
                at: url, includingPropertiesForKeys: [], options: [.skipsHiddenFiles])
            // Each with its path, made once: sorting by `url.path` made a path at every comparison, about 2% of
            // linting a folder of a thousand policies.
            var found: [(path: String, url: URL, resolved: URL)] = []
            while let item = enumerator?.nextObject() as? URL {
                guard searchedExtensions.contains(item.pathExtension.lowercased()) else { continue }
                // A regular file, or a link to one: the link itself is neither.
                let resolved = item.resolvingSymlinksInPath()
                if (try? resolved.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                    found.append((item.path, item, resolved))
                }
            }
            found.sorted { $0.path < $1.path }.forEach { add($0.url, resolved: $0.resolved) }
        }
        return files
    }

    /// The path to show for a file: relative to the current folder when it lies inside it.
    public static func displayPath(_ url: URL) -> String {
        let current = FileManager.default.currentDirectoryPath + "/"
        let path = url.standardizedFileURL.path
        return path.hasPrefix(current) ? String(path.dropFirst(current.count)) : path
    }
}
