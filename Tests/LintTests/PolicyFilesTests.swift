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

    @Test func linksToFilesAreFoundUnderTheirOwnNamesOnceAndLinksToFoldersAreNotFollowed() throws {
        let base = try makeTemporaryFolder("policy-links")
        defer { try? FileManager.default.removeItem(at: base) }
        let folder = base.appendingPathComponent("policies"), elsewhere = base.appendingPathComponent("shared")
        let manager = FileManager.default
        try manager.createDirectory(at: folder, withIntermediateDirectories: true)
        try manager.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        for file in [folder.appendingPathComponent("a.yaml"), elsewhere.appendingPathComponent("x.yaml")] {
            try Data("policy: 1\n".utf8).write(to: file)
        }
        func link(_ name: String, to destination: String) throws {
            try manager.createSymbolicLink(
                atPath: folder.appendingPathComponent(name).path, withDestinationPath: destination)
        }
        try link("b.yaml", to: "../shared/x.yaml")  // a policy linked in from elsewhere: found as b.yaml
        try link("c.yaml", to: "a.yaml")  // a second name for a.yaml: not found again
        try link("d.yaml", to: "../shared/missing.yaml")  // a link to nothing
        try link("e.yaml", to: "e.yaml")  // a link to itself
        try link("sub", to: "../shared")  // a folder: not followed, or x.yaml would be found a second time

        let files = try PolicyFiles.collect([folder.path])
        #expect(files.map(\.lastPathComponent) == ["a.yaml", "b.yaml"])
        // A file given by two names is checked once, under the first.
        let given = try PolicyFiles.collect([folder.appendingPathComponent("c.yaml").path, folder.path])
        #expect(given.map(\.lastPathComponent) == ["c.yaml", "b.yaml"])
    }

    @Test func aPipeNamedLikeAPolicyIsSkippedNotRead() throws {
        let folder = try makeTemporaryFolder("policy-pipe")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("policy: 1\n".utf8).write(to: folder.appendingPathComponent("a.yaml"))
        // Reading a pipe with no writer would wait for ever: only regular files, or links to them, are checked.
        #expect(mkfifo(folder.appendingPathComponent("b.yaml").path, 0o600) == 0)
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("c.yaml").path, withDestinationPath: "b.yaml")
        #expect(try PolicyFiles.collect([folder.path]).map(\.lastPathComponent) == ["a.yaml"])
    }

    @Test func aLinkToAFolderNamedOnItsOwnIsSearchedAndItsFilesAreFoundOnce() throws {
        let base = try makeTemporaryFolder("policy-linked-folder")
        defer { try? FileManager.default.removeItem(at: base) }
        let folder = base.appendingPathComponent("policies"), link = base.appendingPathComponent("linked")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        for name in ["a.yaml", "sub/b.yaml"] {
            try Data("policy: 1\n".utf8).write(to: folder.appendingPathComponent(name))
        }
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "policies")

        let files = try PolicyFiles.collect([link.path])
        #expect(files.map { $0.pathComponents.suffix(2).joined(separator: "/") } == ["linked/a.yaml", "sub/b.yaml"])
        // The same files through the folder and through the link: each once, under the name it was first found by.
        let both = try PolicyFiles.collect([folder.path, link.path, folder.appendingPathComponent("a.yaml").path])
        #expect(both.map { $0.pathComponents.suffix(2).joined(separator: "/") } == ["policies/a.yaml", "sub/b.yaml"])
    }

    @Test func aMissingPathIsReportedAsGiven() {
        #expect { try PolicyFiles.collect(["no/such/place"]) } throws: { error in
            (error as? PolicyFiles.MissingPath)?.path == "no/such/place"
        }
    }
}
