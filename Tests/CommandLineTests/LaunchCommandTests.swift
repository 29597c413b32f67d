import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct LaunchCommandTests {

    private func launch(_ arguments: String...) throws -> CommandResult {
        try Executables.run("launch-policy", ["launch"] + arguments)
    }

    private func json(_ result: CommandResult) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any],
            "\(result.standardOutput)\(result.standardError)")
    }

    @Test func jsonHasTheDocumentedKeysAndValues() throws {
        let folder = try makeTemporaryFolder("launch-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("history.json").path
        let first = try json(launch("--store", store, "--app-version", "1.9", "--build", "90",
            "--now", "2026-03-07T23:00:00-05:00", "--format", "json"))
        #expect(Set(first.keys) == ["kind", "count", "previousVersion", "previousBuild", "installVersion",
            "firstLaunchDate", "previousLaunchDate", "daysSinceLastLaunch", "daysSinceInstall", "source"])
        #expect(first["kind"] as? String == "first")
        #expect(first["count"] as? Int == 1)
        #expect(first["previousVersion"] is NSNull)
        #expect(first["firstLaunchDate"] as? String == "2026-03-08T04:00:00.000Z")
        #expect(first["source"] as? String == "organic")

        let second = try json(launch("--store", store, "--app-version", "1.10", "--build", "100",
            "--now", "2026-03-09T00:00:00-04:00", "--source", "url", "--format", "json"))
        #expect(second["kind"] as? String == "upgrade")
        #expect(second["count"] as? Int == 2)
        #expect(second["previousVersion"] as? String == "1.9")
        #expect(second["previousBuild"] as? String == "90")
        #expect(second["installVersion"] as? String == "1.9")
        #expect(second["previousLaunchDate"] as? String == "2026-03-08T04:00:00.000Z")
        #expect(second["daysSinceLastLaunch"] as? Int == 1)
        #expect(second["daysSinceInstall"] as? Int == 1)
        #expect(second["source"] as? String == "url")
    }

    @Test func textPrintsOneFieldPerLine() throws {
        let folder = try makeTemporaryFolder("launch-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try launch("--store", folder.appendingPathComponent("h.json").path, "--app-version", "2.0",
            "--now", "2026-11-20T12:00:00Z")
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("kind                 first\n"))
        #expect(result.standardOutput.contains("previousVersion      -\n"))
        #expect(result.standardOutput.hasSuffix("source               organic\n"))
    }

    @Test func aCorruptStoreWarnsKeepsTheOriginalAndStartsAfresh() throws {
        let folder = try makeTemporaryFolder("launch-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("h.json")
        try Data("{\"format\": 1, \"cou".utf8).write(to: store)
        let result = try launch("--store", store.path, "--app-version", "2.0", "--format", "json")
        #expect(result.status == 0)
        #expect(try json(result)["kind"] as? String == "first")
        let kept = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("h.json.corrupt-") }
        #expect(kept.count == 1)
        #expect(try String(contentsOf: folder.appendingPathComponent(kept[0]), encoding: .utf8) == "{\"format\": 1, \"cou")
        // The warning names the kept file; the problem is placed in it, as a policy's are.
        let keptPath = folder.appendingPathComponent(kept.first ?? "").path
        #expect(result.standardError == """
            launch-policy launch: warning: the launch history could not be read; it was kept as \(keptPath), and a \
            fresh history was started
            \(keptPath):1:19: error: the launch history could not be read: it is not valid JSON: it ends too soon \
            (cut short?) [state.not-json]
            {"format": 1, "cou
                              ^

            """)
    }

    @Test func aStoreOfTheWrongShapeIsPlacedAtTheFieldAtFault() throws {
        let folder = try makeTemporaryFolder("launch-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("h.json")
        try Data("{\n  \"format\": 1,\n  \"count\": \"seven\"\n}\n".utf8).write(to: store)
        let result = try launch("--store", store.path, "--app-version", "2.0")
        #expect(result.status == 0)
        #expect(result.standardError.contains(
            ":3:12: error: the launch history could not be read: count is a string, not a whole number "
                + "[state.wrong-type]\n" + "  \"count\": \"seven\"\n           ^~~~~~~\n"), "\(result.standardError)")
    }

    @Test(arguments: [
        (["--app-version", "1.0"], "--store"),
        (["--store", "h.json"], "--app-version"),
        (["--store", "h.json", "--app-version", "1.x"], "--app-version \"1.x\" is not valid"),
        (["--store", "h.json", "--app-version", "1.0", "--build", "b"], "--build \"b\" is not valid"),
        (["--store", "h.json", "--app-version", "1.0", "--source", "push"], "--source \"push\" is not valid"),
        (["--store", "h.json", "--app-version", "1.0", "--now", "today"], "--now \"today\" is not valid"),
        (["--store", "h.json", "--app-version", "1.0", "--format", "yaml"], "yaml"),
        (["--store", "h.json", "--app-version", "1.0", "--lock-timeout=-1"], "--lock-timeout \"-1\" is not valid"),
        (["--store", "h.json", "--app-version", "1.0", "--lock-timeout", "nan"], "--lock-timeout \"nan\" is not valid"),
        (["--store", "h.json", "--app-version", "1.0", "--lock-timeout", "soon"], "--lock-timeout"),
    ])
    func usageErrorsExitTwoAndRecordNothing(arguments: [String], message: String) throws {
        let folder = try makeTemporaryFolder("launch-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try Executables.run("launch-policy", ["launch"] + arguments, in: folder)
        #expect(result.status == 2)
        #expect(result.standardError.contains(message), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("h.json").path))
    }

    @Test(arguments: ["folder", "pipe", "under a file"])
    func aStoreThatIsNotAFileSaysWhyInWords(kind: String) throws {
        let folder = try makeTemporaryFolder("launch-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        var store = folder.appendingPathComponent("h.json").path
        let reason: String
        switch kind {
        case "folder":
            try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: false)
            reason = "is a directory"
        case "pipe":
            #expect(mkfifo(store, 0o600) == 0)
            reason = "not a regular file"
        default:
            try Data("x".utf8).write(to: URL(fileURLWithPath: store))
            store += "/h.json"
            reason = "not a directory"
        }
        let result = try launch("--store", store, "--app-version", "1.0")
        #expect(result.status == 2)
        #expect(result.standardError == "launch-policy launch: the store \(store) could not be used: \(reason)\n")
    }

    @Test func aLockHeldPastTheTimeoutExitsTwoAndRecordsNothing() throws {
        let folder = try makeTemporaryFolder("launch-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("h.json").path
        #expect(try launch("--store", store, "--app-version", "1.0").status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let held = try HeldFileLock(path: store + ".lock")
        defer { held.release() }
        let result = try launch("--store", store, "--app-version", "1.1", "--lock-timeout", "0.2")
        #expect(result.status == 2)
        #expect(result.standardError == "launch-policy launch: the store \(store) could not be used: the lock "
            + "\(store).lock was held by another writer for longer than 0.2 s; nothing was written\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
        held.release()
        #expect(try json(launch("--store", store, "--app-version", "1.1", "--format", "json"))["count"] as? Int == 2)
    }

    @Test func fourProcessesRecordingTwentyFiveLaunchesEachCountOneHundred() throws {
        let folder = try makeTemporaryFolder("launch-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("shared.json").path
        let binary = Executables.productsDirectory.appendingPathComponent("launch-policy").path
        let workers = (0..<4).map { _ in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "i=0; while [ $i -lt 25 ]; do \"$0\" launch --store \"$1\" --app-version 1.0 "
                + "> /dev/null || exit 1; i=$((i + 1)); done", binary, store]
            return process
        }
        for worker in workers { try worker.run() }
        for worker in workers { worker.waitUntilExit() }
        #expect(workers.allSatisfy { $0.terminationStatus == 0 })
        let final = try json(launch("--store", store, "--app-version", "1.0", "--format", "json"))
        #expect(final["count"] as? Int == 101, "100 concurrent launches, then this one")
        #expect(final["kind"] as? String == "normal")
    }

    @Test func aProcessKilledWhileRecordingNeverLeavesAnUnreadableStore() throws {
        let folder = try makeTemporaryFolder("launch-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("killed.json")
        var generator = SystemRandomNumberGenerator()
        var completed = 0
        for attempt in 0..<30 {
            let process = Process()
            process.executableURL = Executables.productsDirectory.appendingPathComponent("launch-policy")
            process.arguments = ["launch", "--store", store.path, "--app-version", "1.\(attempt % 3)"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(UInt32.random(in: 2_000...40_000, using: &generator))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            if process.terminationReason == .exit { completed += 1 }
            if let data = FileManager.default.contents(atPath: store.path) {
                let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
                #expect(object?["count"] is Int, "attempt \(attempt): \(String(decoding: data, as: UTF8.self))")
            }
        }
        let after = try json(launch("--store", store.path, "--app-version", "1.0", "--format", "json"))
        #expect((after["count"] as? Int ?? 0) >= completed + 1)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("corrupt") }
        #expect(leftovers.isEmpty, "no store was ever found corrupt")
    }
}
