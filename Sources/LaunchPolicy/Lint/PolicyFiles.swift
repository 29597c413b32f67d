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
    /// - Throws: ``MissingPath`` for the first path that does not exist.
    public static func collect(_ paths: [String]) throws(MissingPath) -> [URL] {
        var files: [URL] = []
        var seen: Set<String> = []
        func add(_ url: URL) {
            if seen.insert(url.standardizedFileURL.path).inserted { files.append(url) }
        }
        let fileManager = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard fileManager.fileExists(atPath: path, isDirectory: &isDirectory) else { throw MissingPath(path: path) }
            let url = URL(fileURLWithPath: path)
            guard isDirectory.boolValue else {
                add(url)
                PolicyTestFile.testFile(for: url).map(add)
                continue
            }
            let enumerator = fileManager.enumerator(
                at: url, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
            // Each with its path, made once: sorting by `url.path` made a path at every comparison, about 2% of
            // linting a folder of a thousand policies.
            var found: [(path: String, url: URL)] = []
            while let item = enumerator?.nextObject() as? URL {
                if searchedExtensions.contains(item.pathExtension.lowercased()),
                    (try? item.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
                {
                    found.append((item.path, item))
                }
            }
            found.sorted { $0.path < $1.path }.forEach { add($0.url) }
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
