import Foundation

/// A new, empty folder under the system's temporary folder; the caller removes it.
public func makeTemporaryFolder(_ prefix: String = "launchpolicy") throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
