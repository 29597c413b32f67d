import Foundation
import LaunchPolicy
import Testing
import TestSupport

/// The files a folder given to policy-lint stands for.
@Suite struct PolicyFilesTests {
    @Test func aFolderGivesItsPolicyFilesSortedByPathSkippingHiddenAndOtherFiles() throws {
        let folder = try makeTemporaryFolder("policy-files")
        defer { try? FileManager.default.removeItem(at: folder) }
        // Written out of order, so that the folder's own order is not the answer by chance.
        let names = ["b.yaml", "a/z.json", "A.YML", "a/b.yml", "notes.txt", ".hidden.yaml", ".git/x.yaml", "a/c.yaml"]
        for name in names {
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("policy: 1\n".utf8).write(to: url)
        }
        // A folder whose name ends like a policy is looked into, not taken as a file.
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("d.yaml"), withIntermediateDirectories: true)

        let files = try PolicyFiles.collect([folder.path])
        let root = folder.standardizedFileURL.path + "/"
        let relative = files.map { String($0.standardizedFileURL.path.dropFirst(root.count)) }
        #expect(relative == ["A.YML", "a/b.yml", "a/c.yaml", "a/z.json", "b.yaml"])
    }

    @Test func aMissingPathIsReportedAsGiven() {
        #expect { try PolicyFiles.collect(["no/such/place"]) } throws: { error in
            (error as? PolicyFiles.MissingPath)?.path == "no/such/place"
        }
    }
}
