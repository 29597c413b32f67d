import Foundation
@testable import LaunchPolicy
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

        let found = try PolicyFiles.collect([folder.path])
        #expect(found.unreadable.isEmpty)
        let files = found.files
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

        let files = try PolicyFiles.collect([folder.path]).files
        #expect(files.map(\.lastPathComponent) == ["a.yaml", "b.yaml"])
        // A file given by two names is checked once, under the first.
        let given = try PolicyFiles.collect([folder.appendingPathComponent("c.yaml").path, folder.path]).files
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
        #expect(try PolicyFiles.collect([folder.path]).files.map(\.lastPathComponent) == ["a.yaml"])
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

        let files = try PolicyFiles.collect([link.path]).files
        #expect(files.map { $0.pathComponents.suffix(2).joined(separator: "/") } == ["linked/a.yaml", "sub/b.yaml"])
        // The same files through the folder and through the link: each once, under the name it was first found by.
        let both = try PolicyFiles.collect(
            [folder.path, link.path, folder.appendingPathComponent("a.yaml").path]).files
        #expect(both.map { $0.pathComponents.suffix(2).joined(separator: "/") } == ["policies/a.yaml", "sub/b.yaml"])
    }

    @Test func aFolderThatCannotBeListedIsReportedAndTheRestIsStillFound() throws {
        let folder = try makeTemporaryFolder("policy-unlisted")
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["a.yaml", "locked/b.yaml", "z/c.yaml", "y/d.yaml"] {
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("policy: 1\n".utf8).write(to: url)
        }
        // Root lists every folder, and CI runs as root: the listing is made to fail as a folder without read
        // permission makes it fail for other users.
        func listing(failing names: Set<String>) -> (String) -> Result<[String], FileStatus.ListingFailure> {
            { path in
                names.contains(URL(fileURLWithPath: path).lastPathComponent)
                    ? .failure(FileStatus.ListingFailure(reason: "permission denied")) : FileStatus.names(in: path)
            }
        }
        let found = try PolicyFiles.collect([folder.path], listing: listing(failing: ["locked", "y"]))
        #expect(found.files.map(\.lastPathComponent) == ["a.yaml", "c.yaml"])
        #expect(found.unreadable == ["locked", "y"].map {
            PolicyFiles.Unreadable(
                path: folder.appendingPathComponent($0).path, isFolder: true, reason: "permission denied")
        })
        // The folder given is no exception: a CI run over it would otherwise pass with nothing checked.
        let root = try PolicyFiles.collect([folder.path], listing: listing(failing: [folder.lastPathComponent]))
        #expect(root.files.isEmpty)
        #expect(root.unreadable.map(\.path) == [folder.path])
    }

    @Test func aFolderIsListedWithoutItsDotsAndAFailureSaysWhy() throws {
        let folder = try makeTemporaryFolder("policy-names")
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["a.yaml", ".hidden", "é.yaml"] {
            try Data().write(to: folder.appendingPathComponent(name))
        }
        #expect(try FileStatus.names(in: folder.path).get().sorted() == [".hidden", "a.yaml", "é.yaml"])
        #expect(FileStatus.names(in: folder.appendingPathComponent("gone").path)
            == .failure(FileStatus.ListingFailure(reason: "no such file or directory")))
        #expect(FileStatus.names(in: folder.appendingPathComponent("a.yaml").path)
            == .failure(FileStatus.ListingFailure(reason: "not a directory")))
    }

    @Test(.enabled(if: getuid() != 0, "root lists and searches every folder whatever its permissions"))
    func foldersWithoutPermissionAreReportedOnceEach() throws {
        let folder = try makeTemporaryFolder("policy-permissions")
        defer {
            for name in ["unlisted", "unsearchable"] {
                chmod(folder.appendingPathComponent(name).path, 0o700)
            }
            try? FileManager.default.removeItem(at: folder)
        }
        for name in ["a.yaml", "unlisted/b.yaml", "unsearchable/c.yaml", "unsearchable/d.yaml"] {
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("policy: 1\n".utf8).write(to: url)
        }
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("link.yaml").path, withDestinationPath: "unsearchable/c.yaml")
        #expect(chmod(folder.appendingPathComponent("unlisted").path, 0o300) == 0)  // no read: cannot be listed
        #expect(chmod(folder.appendingPathComponent("unsearchable").path, 0o600) == 0)  // no search: no entry's kind
        let found = try PolicyFiles.collect([folder.path])
        #expect(found.files.map(\.lastPathComponent) == ["a.yaml"])
        #expect(found.unreadable == [("link.yaml", false), ("unlisted", true), ("unsearchable", true)].map {
            PolicyFiles.Unreadable(
                path: folder.appendingPathComponent($0).path, isFolder: $1, reason: "permission denied")
        })
    }

    @Test func whatASearchCouldNotLookIntoIsAnErrorAtItsPath() {
        let folder = PolicyLinter.report(on: PolicyFiles.Unreadable(
            path: "/nowhere/locked", isFolder: true, reason: "permission denied"))
        #expect(folder.path == "/nowhere/locked")
        #expect(folder.diagnostics.map(\.code) == [.lintUnreadableFile])
        #expect(folder.diagnostics.map(\.severity) == [.error])
        #expect(folder.diagnostics.first?.message
            == "the folder could not be searched (permission denied), so no policy in it was checked")
        let link = PolicyLinter.report(on: PolicyFiles.Unreadable(
            path: "/nowhere/b.yaml", isFolder: false, reason: "permission denied"))
        #expect(link.diagnostics.first?.message == "the file the link names could not be read (permission denied)")
    }

    @Test func aMissingPathIsReportedAsGiven() {
        #expect { try PolicyFiles.collect(["no/such/place"]).files } throws: { error in
            (error as? PolicyFiles.MissingPath)?.path == "no/such/place"
        }
    }
}
