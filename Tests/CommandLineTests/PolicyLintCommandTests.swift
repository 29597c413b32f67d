import Foundation
import Testing
import TestSupport

@Suite struct PolicyLintCommandTests {
    /// A policy with one warning (an ambiguous version) and one note (an unused message).
    private let warned = """
        policy: 1
        store: {ios: "https://apps.apple.com/app/id1"}
        messages:
          up: {default: "Update."}
          spare: {default: "Spare."}
        rules:
          - {id: old, when: {platform: ios, app-version: "<= 2.4"}, then: require-update, message: up}
        """

    private func folder(_ files: [String: String]) throws -> URL {
        let folder = try makeTemporaryFolder("lint")
        for (name, text) in files {
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return folder
    }

    @Test func theExamplePoliciesAreCleanAndTheirTestsPass() throws {
        // Pinned before the maintenance example's window ends, so that the check of ended windows stays quiet.
        let result = try Executables.run("policy-lint", ["--strict", "--now", "2026-11-20T12:00:00Z", "policies"])
        #expect(result.status == 0, "\(result.standardOutput)")
        #expect(result.standardOutput.contains("0 errors, 0 warnings, 0 notes"), "\(result.standardOutput)")
    }

    @Test func warningsPassUnlessStrict() throws {
        let folder = try folder(["a.yaml": warned])
        defer { try? FileManager.default.removeItem(at: folder) }
        let relaxed = try Executables.run("policy-lint", [folder.path])
        #expect(relaxed.status == 0)
        #expect(relaxed.standardOutput.contains("a.yaml:7:54: warning:"), "\(relaxed.standardOutput)")
        #expect(relaxed.standardOutput.contains("[lint.ambiguous-version]"))
        #expect(relaxed.standardOutput.contains("a.yaml:5:3: note: no rule shows the message \"spare\""))
        #expect(relaxed.standardOutput.contains("checked 1 file: 0 errors, 1 warning, 1 note"))
        #expect(!relaxed.standardOutput.contains("\u{1B}["), "no colour when the output is not a terminal")
        let strict = try Executables.run("policy-lint", ["--strict", folder.path])
        #expect(strict.status == 1)
    }

    /// A policy in a pull request is read in developers' terminals and CI logs: neither its raw bytes (under a
    /// syntax error) nor the keys its escapes spell may reach them as escape sequences; JSON keeps the key exact.
    @Test func aPolicyCannotSendTheTerminalEscapeSequences() throws {
        let folder = try folder([
            "raw.yaml": "a: x\u{1B}[2J\u{1B}]0;title\u{07}\n",
            "key.yaml": "policy: 1\nrules: []\n\"\\e[31m\\u202Ered\\nx\": 1\n",
            // A clean file whose name holds one: its `ok` line shows the name.
            "ok\u{1B}[8m.yaml": "policy: 1\nrules: []\n",
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        for format in ["text", "github"] {
            let result = try Executables.run("policy-lint", ["--format", format, folder.path])
            #expect(result.status == 1)
            #expect(!result.standardOutput.unicodeScalars.contains { [0x1B, 0x07, 0x202E].contains($0.value) },
                "\(format): \(result.standardOutput.debugDescription)")
            #expect(result.standardOutput.contains("\u{241B}[31m\u{FFFD}red"), "\(result.standardOutput)")
            #expect(result.standardOutput.contains("x\u{241B}[2J\u{241B}]0;title\u{2407}") || format == "github")
            #expect(result.standardOutput.contains("ok\u{241B}[8m.yaml: ok") || format == "github")
        }
        // JSON keeps the text exact, in escapes: the bidirectional override too, which raw would reorder the line.
        let json = try Executables.run("policy-lint", ["--format", "json", folder.path])
        #expect(json.standardOutput.contains("\\u001b[31m\\u202ered\\nx"), "\(json.standardOutput)")
        #expect(!json.standardOutput.unicodeScalars.contains { [0x1B, 0x07, 0x202E].contains($0.value) })
    }

    @Test func jsonListsEveryDiagnosticWithItsPosition() throws {
        let folder = try folder(["a.yaml": warned])
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try Executables.run("policy-lint", ["--format", "json", folder.path])
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let summary = try #require(object["summary"] as? [String: Int])
        #expect(summary == ["files": 1, "errors": 0, "warnings": 1, "notes": 1])
        let file = try #require((object["files"] as? [[String: Any]])?.first)
        #expect((file["path"] as? String)?.hasSuffix("a.yaml") == true)
        let first = try #require((file["diagnostics"] as? [[String: Any]])?.first)
        #expect(first["code"] as? String == "lint.unused-message")
        #expect(first["line"] as? Int == 5 && first["column"] as? Int == 3)
        #expect(first["severity"] as? String == "note")
    }

    @Test func sarifCarriesWhatCodeScanningNeeds() throws {
        let folder = try folder(["a.yaml": warned, "b.yaml": "policy: 1\nrules:\n  - {id: a, then: notfy}\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try Executables.run("policy-lint", ["--format", "sarif", "."], in: folder)
        #expect(result.status == 1)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(log["version"] as? String == "2.1.0")
        #expect((log["$schema"] as? String)?.contains("sarif-2.1.0") == true)
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        #expect(run["columnKind"] as? String == "unicodeCodePoints")
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "policy-lint")
        let rules = try #require(driver["rules"] as? [[String: Any]])
        let ruleIDs = rules.compactMap { $0["id"] as? String }
        #expect(ruleIDs.contains("lint.lockout") && ruleIDs.contains("policy.invalid-value"))
        #expect(rules.allSatisfy { ($0["shortDescription"] as? [String: Any])?["text"] is String })
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == 3)
        for result in results {
            let ruleID = try #require(result["ruleId"] as? String)
            #expect(ruleIDs[try #require(result["ruleIndex"] as? Int)] == ruleID)
            #expect(["error", "warning", "note"].contains(result["level"] as? String))
            #expect((result["message"] as? [String: Any])?["text"] is String)
            let location = try #require((result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
            let uri = try #require((location["artifactLocation"] as? [String: Any])?["uri"] as? String)
            #expect(uri == "a.yaml" || uri == "b.yaml", "relative to the folder policy-lint ran in: \(uri)")
            let region = try #require(location["region"] as? [String: Int])
            #expect(region["startLine"] != nil && region["startColumn"] != nil)
        }
        let invalid = try #require(results.first { $0["ruleId"] as? String == "policy.invalid-value" })
        let fix = try #require((invalid["fixes"] as? [[String: Any]])?.first)
        #expect(fix["artifactChanges"] != nil)
    }

    @Test func githubAnnotationsAreChosenInsideGitHubActions() throws {
        let folder = try folder(["a.yaml": warned])
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try Executables.run("policy-lint", ["."], in: folder, environment: ["GITHUB_ACTIONS": "true"])
        #expect(result.status == 0)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.contains("::warning file=a.yaml,line=7,col=54,endLine=7,endColumn=57,title=lint.ambiguous-version::"
            + "app-version \"<= 2.4\": <= 2.4 means <2.5.0, but people read a partial version there two ways; write the bound in full"),
            "\(lines)")
        #expect(lines.contains { $0.hasPrefix("::notice file=a.yaml,line=5,col=3,") })
        #expect(lines.last == "checked 1 file: 0 errors, 1 warning, 1 note")
        let text = try Executables.run("policy-lint", ["--format", "text", "."], in: folder,
            environment: ["GITHUB_ACTIONS": "true"])
        #expect(!text.standardOutput.contains("::warning"), "an explicit --format wins")
    }

    @Test func theNearestConfigurationAppliesAndABrokenOneExitsTwo() throws {
        let folder = try folder([
            "team/a.yaml": warned,
            "team/.policy-lint.yaml": "severity: {lint.ambiguous-version: error}\ndisable: [lint.unused-message]\n",
            "other/a.yaml": warned,
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try Executables.run("policy-lint", ["."], in: folder)
        #expect(result.status == 1, "\(result.standardOutput)")
        #expect(result.standardOutput.contains("team/a.yaml:7:54: error:"))
        #expect(result.standardOutput.contains("other/a.yaml:7:54: warning:"))
        #expect(!result.standardOutput.contains("team/a.yaml:5:3"))
        #expect(result.standardOutput.contains("other/a.yaml:5:3: note:"))

        try Data("disable: [lint.nope]\n".utf8).write(to: folder.appendingPathComponent(".policy-lint.yaml"))
        let broken = try Executables.run("policy-lint", ["other"], in: folder)
        #expect(broken.status == 2)
        #expect(broken.standardOutput.contains(".policy-lint.yaml:1:11: error: \"lint.nope\" is not a diagnostic code"),
            "\(broken.standardOutput)")
    }

    @Test func aConfigurationNamedOnItsOwnIsReportedOnceAndAMissingOneExitsTwo() throws {
        let folder = try folder(["a.yaml": warned, ".policy-lint.yaml": "disable: [lint.lockot]\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        // As a pre-commit hook passes them: the policy first (which finds the configuration), then the configuration.
        let result = try Executables.run("policy-lint", ["a.yaml", ".policy-lint.yaml"], in: folder)
        #expect(result.status == 2)
        #expect(result.standardOutput.components(separatedBy: "[lint.invalid-configuration]").count == 2,
            "\(result.standardOutput)")
        try Data("disable: [lint.lockout]\n".utf8).write(to: folder.appendingPathComponent(".policy-lint.yaml"))
        let clean = try Executables.run("policy-lint", [".policy-lint.yaml"], in: folder)
        #expect(clean.status == 0)
        #expect(clean.standardOutput.contains(".policy-lint.yaml: ok"), "\(clean.standardOutput)")
        let missing = try Executables.run("policy-lint", ["--config", "nowhere.yaml", "a.yaml"], in: folder)
        #expect(missing.status == 2)
        #expect(missing.standardError.contains("cannot read the configuration"), "\(missing.standardError)")
        #expect(missing.standardError.contains("nowhere.yaml: no such file or directory"), "\(missing.standardError)")
    }

    @Test func nowPinsTheDateChecks() throws {
        let folder = try folder(["w.yaml": """
            policy: 1
            messages: {m: {default: "Soon."}}
            rules:
              - {id: w, when: {date: {until: "2026-12-01T00:00:00Z"}}, then: notify, message: m}
            """])
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try Executables.run("policy-lint", ["--now", "2026-11-30T00:00:00Z", "."], in: folder)
        #expect(!before.standardOutput.contains("lint.ended-window"))
        let after = try Executables.run("policy-lint", ["--now", "2026-12-02T00:00:00Z", "."], in: folder)
        #expect(after.standardOutput.contains("w.yaml:4:26: warning: the date window ended"), "\(after.standardOutput)")
        let bad = try Executables.run("policy-lint", ["--now", "tomorrow", "."], in: folder)
        #expect(bad.status == 2)
        #expect(bad.standardError.contains("--now"))
    }

    #if os(Linux)
    @Test func anUnreadableFileExitsTwo() throws {
        // /proc/self/mem exists but cannot be read from the start, even by root: an I/O problem, not a lint finding.
        let result = try Executables.run("policy-lint", ["/proc/self/mem"])
        #expect(result.status == 2)
        #expect(result.standardOutput.contains(
            "/proc/self/mem:1:1: error: the file could not be read: input/output error"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("[lint.unreadable-file]"))
    }
    #endif

    @Test(.enabled(if: getuid() != 0, "root lists every folder whatever its permissions"))
    func aFolderThatCannotBeListedExitsTwoAndTheRestIsChecked() throws {
        let folder = try makeTemporaryFolder("lint-locked")
        let locked = folder.appendingPathComponent("locked")
        defer {
            chmod(locked.path, 0o700)
            try? FileManager.default.removeItem(at: folder)
        }
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
        for file in [folder.appendingPathComponent("ok.yaml"), locked.appendingPathComponent("hidden.yaml")] {
            try Data("policy: 1\nid: ok\nrules: []\n".utf8).write(to: file)
        }
        #expect(chmod(locked.path, 0o300) == 0)
        let result = try Executables.run("policy-lint", ["."], in: folder)
        #expect(result.status == 2)
        #expect(result.standardOutput.hasPrefix("locked:1:1: error: the folder could not be searched "
            + "(permission denied), so no policy in it was checked [lint.unreadable-file]\nok.yaml: ok\n"),
            "\(result.standardOutput)")
    }

    @Test func aBrokenFileIsReportedWithItsPositionAndExitsOne() throws {
        let folder = try makeTemporaryFolder("lint")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("policy: 1\nid: a\nid: b\nrules: []\n".utf8).write(to: folder.appendingPathComponent("bad.yaml"))
        try Data("policy: 1\nid: ok\nrules: []\n".utf8).write(to: folder.appendingPathComponent("good.yml"))
        try Data("ignored".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        let result = try Executables.run("policy-lint", [folder.path])
        #expect(result.status == 1)
        #expect(result.standardOutput.contains("bad.yaml:3:1: error: the key \"id\" appears twice"))
        #expect(result.standardOutput.contains("[yaml.duplicate-key]"))
        #expect(result.standardOutput.contains("good.yml: ok"))
        #expect(!result.standardOutput.contains("notes.txt"))
        #expect(result.standardOutput.contains("checked 2 files: 1 error, 0 warnings, 0 notes"))
    }

    @Test func decoderProblemsAreReportedWithFixIts() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("lint-\(UUID().uuidString).yaml")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("policy: 1\nrules:\n  - {id: a, then: grant, entitlments: [x]}\n".utf8).write(to: file)
        let result = try Executables.run("policy-lint", [file.path])
        #expect(result.status == 1)
        #expect(result.standardOutput.contains(":3:26: error: a rule has no key \"entitlments\"; did you mean \"entitlements\"? [policy.unknown-key]"))
        #expect(result.standardOutput.contains("fix-it: rename to \"entitlements\""))
    }

    @Test func aPolicysFailingTestIsAnErrorAtTheTestsLine() throws {
        let folder = try makeTemporaryFolder("lint")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("""
            policy: 1
            messages: {m: {default: "Update"}}
            rules:
              - {id: minimum, when: {app-version: "< 2.4"}, then: require-update, message: m}
            tests:
              - name: "2.3 must update"
                context: {app-version: "2.3"}
                expect: {gate: require-update}
              - name: "2.5 must update too (wrong)"
                context: {app-version: "2.5"}
                expect: {gate: require-update}
            """.utf8).write(to: folder.appendingPathComponent("gate.yaml"))
        let result = try Executables.run("policy-lint", [folder.path])
        #expect(result.status == 1)
        #expect(result.standardOutput.contains(
            "gate.yaml:9:5: error: test \"2.5 must update too (wrong)\" failed: gate: expected require-update, got none [test.failed]"),
            "\(result.standardOutput)")
        #expect(result.standardOutput.contains("note: minimum does not match: app-version 2.5 does not satisfy < 2.4"))
        #expect(result.standardOutput.contains("checked 1 file: 1 error"))
    }

    @Test func filesCheckedAtOnceAreReportedInTheOrderOfOneAtATime() throws {
        // Twelve files, each with its own findings, and a configuration whose problems come before its first policy.
        var files: [String: String] = [:]
        for index in 0..<12 {
            let name = String(format: "p%02d.yaml", index)
            files[index % 3 == 0 ? "sub/\(name)" : name] = index.isMultiple(of: 2)
                ? warned.replacingOccurrences(of: "spare", with: "spare-\(index)")
                : "policy: 1\nid: a\nid: b\(index)\nrules: []\n"
        }
        files["sub/.policy-lint.yaml"] = "disable: [lint.nope]\n"
        let folder = try folder(files)
        defer { try? FileManager.default.removeItem(at: folder) }
        let single = try Executables.run("policy-lint", ["--jobs", "1", "."], in: folder)
        #expect(single.status == 2, "the broken configuration exits 2: \(single.standardOutput)")
        #expect(single.standardOutput.contains("checked 13 files"), "\(single.standardOutput)")
        let names = single.standardOutput.split(separator: "\n").compactMap { line in
            line.split(separator: ":").first.flatMap { $0.hasSuffix(".yaml") ? String($0) : nil }
        }
        let firsts = names.reduce(into: [String]()) { if $1 != $0.last { $0.append($1) } }
        #expect(firsts == ["p01.yaml", "p02.yaml", "p04.yaml", "p05.yaml", "p07.yaml", "p08.yaml", "p10.yaml",
            "p11.yaml", "sub/.policy-lint.yaml", "sub/p00.yaml", "sub/p03.yaml", "sub/p06.yaml", "sub/p09.yaml"])
        for jobs in ["2", "5", "40"] {
            let many = try Executables.run("policy-lint", ["--jobs", jobs, "."], in: folder)
            #expect(many.status == single.status)
            #expect(many.standardOutput == single.standardOutput, "--jobs \(jobs)")
            let json = try Executables.run("policy-lint", ["--jobs", jobs, "--format", "json", "."], in: folder)
            let one = try Executables.run("policy-lint", ["--jobs", "1", "--format", "json", "."], in: folder)
            #expect(json.standardOutput == one.standardOutput, "--jobs \(jobs) --format json")
        }
        let none = try Executables.run("policy-lint", ["--jobs", "0", "."], in: folder)
        #expect(none.status == 2)
        #expect(none.standardError.contains("--jobs must be 1 or more"))
    }

    @Test func aMissingPathIsAUsageError() throws {
        let result = try Executables.run("policy-lint", ["no/such/file.yaml"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("no such file or folder: no/such/file.yaml"))
    }

    // MARK: - --fix

    /// A policy with three fix-its to apply over two passes (the key's typo hides the action's) and a warning left.
    private let fixable = """
        policy: 1
        messages: {up: {default: "Update."}}
        rulse:
          - {id: old, when: {platform: ios, app-version: 1.10}, then: requre-update, message: up}

        """

    @Test func fixWritesTheFileInPlaceThroughALinkAndKeepsItsPermissions() throws {
        let folder = try folder(["checked/a.yaml": fixable, "elsewhere/b.yaml": fixable, "checked/clean.yaml": warned])
        defer { try? FileManager.default.removeItem(at: folder) }
        let a = folder.appendingPathComponent("checked/a.yaml")
        let b = folder.appendingPathComponent("elsewhere/b.yaml")
        let link = folder.appendingPathComponent("checked/link.yaml")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: b)
        #expect(chmod(a.path, 0o640) == 0)
        let clean = folder.appendingPathComponent("checked/clean.yaml")
        var before = stat()
        #expect(stat(clean.path, &before) == 0)

        let checked = folder.appendingPathComponent("checked").path
        let result = try Executables.run("policy-lint", ["--fix", "-j", "1", checked])
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        let fixed = fixable.replacingOccurrences(of: "rulse", with: "rules")
            .replacingOccurrences(of: "1.10", with: "\"1.10\"").replacingOccurrences(of: "requre", with: "require")
        #expect(try String(contentsOf: a, encoding: .utf8) == fixed)
        #expect(try String(contentsOf: b, encoding: .utf8) == fixed, "written through the link")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)) == b.path, "still a link")
        var status = stat()
        #expect(stat(a.path, &status) == 0 && status.st_mode & 0o7777 == 0o640)
        var after = stat()
        #expect(stat(clean.path, &after) == 0 && after.st_ino == before.st_ino,
            "a file with nothing to fix is not written")
        #expect(result.standardError == """
            policy-lint: fixed \(a.path): 3 fixes applied
            policy-lint: fixed \(link.path): 3 fixes applied

            """)
        // The report is on the files as fixed: what a fix-it cannot do is left (the partial version, the URL).
        #expect(result.standardOutput.contains("checked 3 files: 0 errors, 5 warnings, 1 note"),
            "\(result.standardOutput)")
        #expect(result.standardOutput.contains("a.yaml:4:51: warning:"), "\(result.standardOutput)")
        let again = try Executables.run("policy-lint", ["--fix", checked])
        #expect(again.standardError.isEmpty)
        #expect(again.standardOutput == result.standardOutput)
    }

    @Test(arguments: ["1", "2", "3"])
    func fixRunsTestFilesAgainstThePoliciesAsFixed(jobs: String) throws {
        let tests = """
            tests:
              - name: "1.10.2 must update"
                context: {platform: ios, app-version: "1.10.2"}
                expect: {gate: require-update}

            """
        // The folder lists each test file before its policy; c.yaml has no tests.
        let files = [
            "a.yaml": fixable, "a.tests.yaml": tests, "b.yaml": fixable, "b.tests.yaml": tests, "c.yaml": fixable,
        ]
        let folder = try folder(files)
        defer { try? FileManager.default.removeItem(at: folder) }
        let unfixed = try Executables.run("policy-lint", [folder.path])
        #expect(unfixed.status == 1)
        #expect(unfixed.standardOutput.contains("[lint.tests-without-policy]"), "\(unfixed.standardOutput)")

        let fixed = try Executables.run("policy-lint", ["--fix", "-j", jobs, folder.path])
        #expect(fixed.status == 0, "\(fixed.standardOutput)")
        #expect(!fixed.standardOutput.contains("[lint.tests-without-policy]"), "\(fixed.standardOutput)")
        // Each policy fixed once, named when its report comes, whichever thread fixed it.
        #expect(fixed.standardError == ["a", "b", "c"].map {
            "policy-lint: fixed \(folder.appendingPathComponent("\($0).yaml").path): 3 fixes applied\n"
        }.joined(), "\(fixed.standardError)")
        // The reports are on the files as fixed, in the files' order: what a run without --fix now prints.
        let after = try Executables.run("policy-lint", [folder.path])
        #expect(fixed.standardOutput == after.standardOutput)
        #expect(after.standardOutput.contains("checked 5 files: 0 errors, 6 warnings"), "\(after.standardOutput)")
    }

    /// Whether a folder can be made to refuse new files here: by its permissions, or for root, whom no permission
    /// stops, by the immutable attribute (`chattr +i`, which needs the tool and a file system that has it).
    static let foldersCanBeLocked: Bool = {
        guard let folder = try? makeTemporaryFolder("lint-lock-probe") else { return false }
        defer { try? FileManager.default.removeItem(at: folder) }
        guard let unlock = lock(folder) else { return false }
        defer { unlock() }
        return !FileManager.default.createFile(atPath: folder.appendingPathComponent("probe").path, contents: nil)
    }()

    /// Makes `folder` refuse new files; what undoes that, or nil when it cannot be done.
    static func lock(_ folder: URL) -> (() -> Void)? {
        guard getuid() == 0 else {
            return chmod(folder.path, 0o555) == 0 ? { _ = chmod(folder.path, 0o755) } : nil
        }
        guard let tool = ["/usr/bin/chattr", "/bin/chattr"].first(where: FileManager.default.isExecutableFile)
        else { return nil }
        func chattr(_ flag: String) -> Bool {
            (try? Executables.run(executable: URL(fileURLWithPath: tool), [flag, folder.path]))?.status == 0
        }
        return chattr("+i") ? { _ = chattr("-i") } : nil
    }

    /// Where a fixed file cannot be written, the command says so for each file, exits 2, leaves the files as they
    /// were, and reports on them as they are, so that lines and columns point into the files the user has.
    @Test(.enabled(if: foldersCanBeLocked, "no way here to make a folder refuse new files"))
    func aFileThatCannotBeWrittenIsReportedAsItIs() throws {
        let configuration = "disable: [lint.unused-mesage]\n"
        let folder = try folder(["locked/.policy-lint.yaml": configuration, "locked/a.yaml": fixable])
        defer { try? FileManager.default.removeItem(at: folder) }
        let locked = folder.appendingPathComponent("locked")
        let unlock = try #require(Self.lock(locked))
        // Run before the folder is removed, whatever happens here: root cannot remove what the attribute guards.
        defer { unlock() }
        let result = try Executables.run("policy-lint", ["--fix", "-j", "1", "locked"], in: folder)
        #expect(result.status == 2)
        let lines = result.standardError.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(result.standardError)")
        #expect(lines.first?.hasPrefix("policy-lint: locked/.policy-lint.yaml could not be fixed: ") == true)
        #expect(lines.last?.hasPrefix("policy-lint: locked/a.yaml could not be fixed: ") == true)
        let reasons = lines.map { $0.components(separatedBy: "could not be fixed: ").last ?? "" }
        #expect(reasons.allSatisfy { ["permission denied", "operation not permitted"].contains($0) }, "\(reasons)")
        #expect(try String(contentsOf: locked.appendingPathComponent(".policy-lint.yaml"), encoding: .utf8)
            == configuration)
        #expect(try String(contentsOf: locked.appendingPathComponent("a.yaml"), encoding: .utf8) == fixable)
        #expect(try FileManager.default.contentsOfDirectory(atPath: locked.path).sorted()
            == [".policy-lint.yaml", "a.yaml"])
        #expect(result.standardOutput.contains("locked/.policy-lint.yaml:1:11: error: \"lint.unused-mesage\""),
            "\(result.standardOutput)")
        #expect(result.standardOutput.contains("locked/a.yaml:3:1: error: "), "\(result.standardOutput)")
    }

    /// A configuration's misspelt code is fixed before the policies are linted, so that they are linted with the
    /// check it meant turned off; named on its own too (as pre-commit passes it), it is fixed once.
    @Test func fixFixesTheConfigurationBeforeThePoliciesItApplies() throws {
        let configuration = "disable: [lint.unused-mesage]\n"
        let folder = try folder([".policy-lint.yaml": configuration, "app.yaml": warned])
        defer { try? FileManager.default.removeItem(at: folder) }
        let unfixed = try Executables.run("policy-lint", ["."], in: folder)
        #expect(unfixed.status == 2, "a broken configuration")
        #expect(unfixed.standardOutput.contains("[lint.unused-message]"), "\(unfixed.standardOutput)")

        let fixed = try Executables.run("policy-lint", ["--fix", ".policy-lint.yaml", "app.yaml"], in: folder)
        #expect(fixed.standardError == "policy-lint: fixed .policy-lint.yaml: 1 fix applied\n")
        #expect(fixed.status == 0, "\(fixed.standardOutput)")
        #expect(!fixed.standardOutput.contains("[lint.invalid-configuration]"), "\(fixed.standardOutput)")
        #expect(!fixed.standardOutput.contains("[lint.unused-message]"), "\(fixed.standardOutput)")
        let written = try String(contentsOf: folder.appendingPathComponent(".policy-lint.yaml"), encoding: .utf8)
        #expect(written == "disable: [lint.unused-message]\n")
        // The report is the same as a run without --fix gives now.
        let again = try Executables.run("policy-lint", [".policy-lint.yaml", "app.yaml"], in: folder)
        #expect(again.status == 0)
        #expect(again.standardOutput == fixed.standardOutput)
    }

}
