import Foundation
@testable import LaunchPolicy
import Testing
import TestSupport

@Suite struct JSONFileLaunchHistoryStoreTests {
    @Test func historiesReadBackExactly() throws {
        let folder = try makeTemporaryFolder("launch")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = JSONFileLaunchHistoryStore(url: folder.appendingPathComponent("nested/launches.json"))
        #expect(try store.read() == nil)
        let history = LaunchHistory(count: 7, installVersion: "1.0", firstLaunchDate: date("2026-01-01T00:00:00.125Z"),
            latest: LaunchRecord(version: "1.2", build: "12", date: date("2026-11-20T12:00:00Z"), kind: .upgrade,
                previousVersion: "1.1", previousBuild: nil, previousLaunchDate: date("2026-11-01T00:00:00Z"), process: "p"))
        try store.write(history)
        #expect(try store.read() == history)
        try store.write(LaunchHistory())
        #expect(try store.read() == LaunchHistory())
    }

    @Test(arguments: [
        ("{\"format\": 1, \"count\": 3, \"latest\": {\"version\": \"1.0\", \"ki", "not valid JSON",
            DiagnosticCode.stateNotJSON),
        ("", "it is empty", .stateNotJSON),
        ("\u{0}\u{0}\u{0}\u{0}", "not valid JSON", .stateNotJSON),
        ("[1, 2]", "it holds an array, not an object", .stateWrongType),
        ("{\"format\": 2, \"count\": 3}", "format 1", .stateUnsupportedFormat),
        ("{\"format\": 1, \"count\": -3}", "count", .stateInvalidValue),
        ("{\"format\": 1, \"count\": 3, \"latest\": {\"version\": \"1.0\", \"kind\": \"sideways\"}}", "latest.kind",
            .stateInvalidValue),
        ("{\"format\": 1, \"count\": 3, \"firstLaunchDate\": \"last tuesday\"}", "firstLaunchDate", .stateInvalidValue),
    ])
    func aCorruptOrTruncatedStoreIsKeptAsideReportedAndStartedAfresh(
        contents: String, reason: String, code: DiagnosticCode
    ) throws {
        let folder = try makeTemporaryFolder("launch")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("launches.json")
        try Data(contents.utf8).write(to: url)
        let store = JSONFileLaunchHistoryStore(url: url)
        let tracker = try LaunchTracker(store: store, appVersion: "2.0", importingLegacyKeysFrom: nil, process: UUID().uuidString)
        let info = try tracker.recordLaunch()
        #expect(info.kind == .first)
        #expect(info.count == 1)
        guard case .corrupt(let why, let keptAt, let diagnostic) = tracker.recovery, let keptAt else {
            Issue.record("the recovery is reported with where the file went: \(String(describing: tracker.recovery))")
            return
        }
        #expect(why.contains(reason), "\(why)")
        #expect(diagnostic?.code == code)
        #expect(diagnostic?.severity == .error)
        #expect(diagnostic?.message.hasPrefix("the launch history could not be read: ") == true)
        #expect(keptAt.lastPathComponent.hasPrefix("launches.json.corrupt-"))
        #expect(try Data(contentsOf: keptAt) == Data(contents.utf8), "the original is kept byte for byte")
        #expect(try store.read()?.count == 1, "a fresh, readable history replaced it")
    }

    @Test func aStoreThatIsNotARegularFileIsRefusedAndLeftWhereItIs() throws {
        // A store given as a pipe (or /dev/null, /dev/zero) was read, or waited on, then renamed aside as corrupt and
        // written over. A pipe with no writer: before, opening it waited for ever.
        let folder = try makeTemporaryFolder("launch")
        defer { try? FileManager.default.removeItem(at: folder) }
        let pipe = folder.appendingPathComponent("launches.json")
        #expect(mkfifo(pipe.path, 0o600) == 0)
        let store = JSONFileLaunchHistoryStore(url: pipe)
        let error = #expect(throws: (any Error).self) {
            try LaunchTracker(store: store, appVersion: "2.0", importingLegacyKeysFrom: nil, process: "p")
                .recordLaunch()
        }
        #expect(error.map(AtomicFile.reason) == "not a regular file")
        var status = stat()
        #expect(lstat(pipe.path, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO, "the pipe is where it was")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(!names.contains { $0.contains("corrupt") }, "nothing set aside")
        // Refused before the lock: a lock file beside `/dev/null` was made in `/dev`, or failed there for want of
        // permission and was reported instead.
        #expect(names == ["launches.json"], "no lock file made beside it")
        #expect(throws: (any Error).self) { try JSONFileDisplayMemoryStore(url: pipe).load() }
        // A folder is refused in the system's words, also before the lock.
        #expect(throws: (any Error).self) { try JSONFileLaunchHistoryStore(url: folder).read() }
        let inner = folder.appendingPathComponent("history")
        try FileManager.default.createDirectory(at: inner, withIntermediateDirectories: false)
        let lockError = #expect(throws: (any Error).self) {
            try JSONFileLaunchHistoryStore(url: inner).exclusively {}
        }
        #expect(lockError.map(AtomicFile.reason) == "is a directory")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(left == ["history", "launches.json"], "no lock file beside the folder")
        let folderError = #expect(throws: (any Error).self) { try StateFile.read(folder) }
        #expect(folderError.map(AtomicFile.reason) == "is a directory")
    }

    @Test func aStateFileOverItsLimitIsReadOnlyToOneBytePastItAndKeptAside() throws {
        let folder = try makeTemporaryFolder("launch")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("launches.json")
        #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: UInt64(StateFile.largestFile) + 10)  // sparse: no 64 MiB written
        try handle.close()
        let bytes = try #require(try StateFile.read(url))
        #expect(bytes.count == StateFile.largestFile + 1)
        let tracker = try LaunchTracker(store: JSONFileLaunchHistoryStore(url: url), appVersion: "2.0",
            importingLegacyKeysFrom: nil, process: "p")
        #expect(try tracker.recordLaunch().kind == .first)
        guard case .corrupt(let why, _, let diagnostic) = tracker.recovery else {
            Issue.record("set aside as corrupt: \(String(describing: tracker.recovery))")
            return
        }
        #expect(why.contains("more than the 67108864 bytes a state file may hold"), "\(why)")
        #expect(diagnostic?.code == .stateTooLarge)
        #expect(diagnostic?.range == .wholeInputStart, "a file too large to read has no place in it")
    }

    @Test func theFirstLaunchMakesTheFoldersTheHistoryAndItsLockNeed() throws {
        let folder = try makeTemporaryFolder("launch")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = JSONFileLaunchHistoryStore(url: folder.appendingPathComponent("app group/state/launches.json"))
        let tracker = try LaunchTracker(store: store, appVersion: "1.0", importingLegacyKeysFrom: nil, process: "first")
        #expect(try tracker.recordLaunch().kind == .first)
        #expect(store.lockURL.path == store.url.path + ".lock")
        #expect(FileManager.default.fileExists(atPath: store.lockURL.path))
        #expect(try store.read()?.count == 1)
    }

    /// A process that hangs holding the lock (an extension stopped in a debugger, a tool that never exits) does not
    /// hang the launch: the wait ends at the store's timeout, records nothing, and says why.
    @Test func aLockHeldPastTheTimeoutEndsTheWaitAndRecordsNothing() throws {
        let folder = try makeTemporaryFolder("launch")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = JSONFileLaunchHistoryStore(url: folder.appendingPathComponent("launches.json"), lockTimeout: 0.2)
        try LaunchTracker(store: store, appVersion: "1.0", importingLegacyKeysFrom: nil, process: "one").recordLaunch()
        let before = try Data(contentsOf: store.url)
        let held = try HeldFileLock(path: store.lockURL.path)
        defer { held.release() }
        let error = #expect(throws: StateFileLockTimeout.self) {
            try LaunchTracker(store: store, appVersion: "1.1", importingLegacyKeysFrom: nil, process: "two")
                .recordLaunch()
        }
        #expect(error == StateFileLockTimeout(lockFile: store.lockURL, seconds: 0.2))
        #expect(error?.description == "the lock \(store.lockURL.path) was held by another writer for longer than "
            + "0.2 s; nothing was written")
        #expect(try Data(contentsOf: store.url) == before, "nothing recorded")
        held.release()
        let next = try LaunchTracker(store: store, appVersion: "1.1", importingLegacyKeysFrom: nil, process: "three")
        #expect(try next.recordLaunch().count == 2)
    }

    /// A lock released while a launch waits for it is taken, and the launch counted after the holder's.
    @Test func aLockReleasedDuringTheWaitIsTaken() throws {
        let folder = try makeTemporaryFolder("launch")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = JSONFileLaunchHistoryStore(url: folder.appendingPathComponent("launches.json"), lockTimeout: 60)
        try LaunchTracker(store: store, appVersion: "1.0", importingLegacyKeysFrom: nil, process: "one").recordLaunch()
        let held = try HeldFileLock(path: store.lockURL.path)
        held.release(after: 0.3)
        let info = try LaunchTracker(store: store, appVersion: "1.1", importingLegacyKeysFrom: nil, process: "two")
            .recordLaunch()
        #expect(info.kind == .upgrade)
        #expect(info.count == 2)
    }

    /// A timeout of zero asks once; `.infinity` and the default wait; an uncontended lock is taken at once with any.
    @Test(arguments: [0, 5, TimeInterval.infinity, -1, TimeInterval.nan])
    func aFreeLockIsTakenWhateverTheTimeout(seconds: TimeInterval) throws {
        let folder = try makeTemporaryFolder("launch")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("launches.json")
        let store = JSONFileLaunchHistoryStore(url: url, lockTimeout: seconds)
        let tracker = try LaunchTracker(store: store, appVersion: "1.0", importingLegacyKeysFrom: nil, process: "p")
        #expect(try tracker.recordLaunch().kind == .first)
    }

    @Test func twoCorruptionsKeepTwoFiles() throws {
        let folder = try makeTemporaryFolder("launch")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("launches.json")
        for attempt in 0..<2 {
            try Data("broken \(attempt)".utf8).write(to: url)
            _ = try? JSONFileLaunchHistoryStore(url: url).read()
        }
        let kept = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".corrupt-") }
        #expect(kept.count == 2)
    }

    @Test func aFolderWhereTheFileShouldBeIsAnErrorAndLeftAlone() throws {
        let folder = try makeTemporaryFolder("launch")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("launches.json")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        let store = JSONFileLaunchHistoryStore(url: url)
        #expect(throws: (any Error).self) { try store.read() }
        #expect(throws: (any Error).self) { try launch(store, "1.0") }
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) && isFolder.boolValue)
        let kept = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".corrupt-") }
        #expect(kept.isEmpty, "nothing was read, so nothing is kept aside as corrupt")
    }

    @Test func aFolderThatCannotBeWrittenIsAnErrorNotAFreshStart() throws {
        let store = ClosureLaunchHistoryStore(read: { nil }, write: { _ in throw CocoaError(.fileWriteNoPermission) })
        let tracker = try LaunchTracker(store: store, appVersion: "1.0", importingLegacyKeysFrom: nil, process: "p")
        #expect(throws: CocoaError.self) { try tracker.recordLaunch() }
        #expect(tracker.launchInfo == nil)
    }
}

@Suite(.serialized) struct UserDefaultsStoreTests {
    private func withDefaults(_ body: (UserDefaults) throws -> Void) throws {
        let suite = "launchpolicy-tests-\(UUID().uuidString)"
        let defaults = try #require(UserDefaults(suiteName: suite))
        defer { defaults.removePersistentDomain(forName: suite) }
        try body(defaults)
    }

    @Test func historiesReadBackUnderTheDocumentedKeys() throws {
        try withDefaults { defaults in
            let store = UserDefaultsLaunchHistoryStore(defaults: defaults)
            #expect(try store.read() == nil)
            let first = try launch(store, "1.0", build: "10")
            let second = try launch(store, "1.1", build: "11", at: "2026-11-25T12:00:00Z")
            #expect(first.kind == .first && second.kind == .upgrade)
            #expect(defaults.integer(forKey: "LaunchPolicy.launchCount") == 2)
            #expect(defaults.string(forKey: "LaunchPolicy.installVersion") == "1.0")
            #expect(defaults.string(forKey: "LaunchPolicy.latestVersion") == "1.1")
            #expect(defaults.object(forKey: "LaunchPolicy.latestDate") as? Date == date("2026-11-25T12:00:00Z"))
            #expect(try store.read()?.latest?.previousBuild == "10")
        }
    }

    @Test func wrongValuesAreCopiedAsideAndReported() throws {
        try withDefaults { defaults in
            defaults.set("many", forKey: "App.launchCount")
            defaults.set("1.0", forKey: "App.latestVersion")
            let store = UserDefaultsLaunchHistoryStore(defaults: defaults, keyPrefix: "App.")
            let tracker = try LaunchTracker(store: store, appVersion: "1.0", importingLegacyKeysFrom: nil, process: "p")
            #expect(try tracker.recordLaunch().kind == .first)
            guard case .corrupt(let reason, _, let diagnostic) = tracker.recovery else {
                Issue.record("the wrong values are reported")
                return
            }
            #expect(reason.contains("App.launchCount"))
            #expect(diagnostic == nil, "UserDefaults has no file to place the problem in")
            #expect(defaults.string(forKey: "App.corrupt.launchCount") == "many")
            #expect(defaults.string(forKey: "App.corrupt.latestVersion") == "1.0")
            #expect(defaults.integer(forKey: "App.launchCount") == 1)
        }
    }

    @Test(arguments: [
        (["appLaunchCount": 12, "appLastLaunchVersion": "2.0"], 13, LaunchKind.upgrade, "2.0"),
        (["appLaunchCount": "4"], 5, .normal, nil),
        (["appLastLaunchVersion": "2.1"], 2, .normal, "2.1"),
        (["launchedVersion": "1.5"], 2, .upgrade, "1.5"),
        (["appLastLaunchVersion": "2.1", "launchedVersion": "1.5"], 2, .normal, "2.1"),
        (["appLastLaunchDate": 1_794_916_800.0, "appLaunchCount": 2], 3, .normal, nil),
        (["appLaunchCount": 0], 1, .first, nil),
    ] as [([String: any Sendable], Int, LaunchKind, String?)])
    func legacyKeysAreImportedWhenTheStoreIsEmpty(keys: [String: any Sendable], count: Int, kind: LaunchKind, previous: String?) throws {
        try withDefaults { legacy in
            for (key, value) in keys { legacy.set(value, forKey: key) }
            let store = InMemoryLaunchHistoryStore()
            let info = try launch(store, "2.1", at: "2026-11-20T12:00:00Z", legacy: legacy)
            #expect(info.kind == kind)
            #expect(info.count == count)
            #expect(info.previousVersion == previous)
            #expect(info.installVersion == (kind == .first ? "2.1" : nil), "an imported history does not know the install")
            for key in keys.keys { #expect(legacy.object(forKey: key) != nil, "legacy keys are never removed") }
            // Once the store holds a history, the legacy keys are not read again.
            legacy.set(100, forKey: "appLaunchCount")
            #expect(try launch(store, "2.1", legacy: legacy).count == count + 1)
        }
    }

    // Legacy keys out of range, or not versions: the launch is recorded and makes a context.
    @Test func aLegacyCountPastEveryIntegerIsImported() throws {
        try withDefaults { legacy in
            legacy.set(Int.max, forKey: "appLaunchCount")
            let info = try launch(InMemoryLaunchHistoryStore(), "2.0", legacy: legacy)
            #expect(info.count == VersionKind.maximumVersionCode)
        }
    }

    @Test(arguments: [1e300, -1e300, Double.nan, 1e17])
    func aLegacyDatePastTheYearsAFileHoldsIsSavedAndReadBack(seconds: Double) throws {
        try withDefaults { legacy in
            legacy.set(seconds, forKey: "appLastLaunchDate")
            legacy.set("2.0", forKey: "appLastLaunchVersion")
            let folder = try makeTemporaryFolder("launch")
            defer { try? FileManager.default.removeItem(at: folder) }
            let store = JSONFileLaunchHistoryStore(url: folder.appendingPathComponent("launches.json"))
            let info = try launch(store, "2.0", legacy: legacy)
            #expect(throws: Never.self) { try LaunchContext(appVersion: "2.0", launch: info) }
            // What was saved reads back: the next launch counts on from it.
            #expect(try store.read()?.count == 2)
            #expect(try launch(store, "2.0").count == 3)
        }
    }

    @Test func aLegacyVersionThatIsNoVersionIsUnknown() throws {
        try withDefaults { legacy in
            legacy.set("1.0 (42)", forKey: "appLastLaunchVersion")
            let info = try launch(InMemoryLaunchHistoryStore(), "2.0", legacy: legacy)
            #expect(info.previousVersion == nil)
            #expect(throws: Never.self) { try LaunchContext(appVersion: "2.0", launch: info) }
            // A readable one is reported as it is.
            legacy.set("1.0.42", forKey: "appLastLaunchVersion")
            #expect(try launch(InMemoryLaunchHistoryStore(), "2.0", legacy: legacy).previousVersion == "1.0.42")
        }
    }

    @Test func theLegacyDateIsThePreviousLaunchDate() throws {
        try withDefaults { legacy in
            legacy.set(date("2026-11-10T12:00:00Z"), forKey: "appLastLaunchDate")
            legacy.set("2.0", forKey: "appLastLaunchVersion")
            let info = try launch(InMemoryLaunchHistoryStore(), "2.0", at: "2026-11-20T12:00:00Z", legacy: legacy)
            #expect(info.previousLaunchDate == date("2026-11-10T12:00:00Z"))
            #expect(info.daysSinceLastLaunch == 10)
            #expect(info.daysSinceInstall == nil)
        }
    }
}

/// Whatever a store hands the tracker (a custom store, a file edited by hand; legacy keys are above), the launch is
/// recorded and makes a context: the app is never stopped at launch by a number out of range.
@Suite struct OutOfRangeHistoryTests {
    private static let largest = VersionKind.maximumVersionCode

    @Test(arguments: [
        (Int.max, largest), (Int.max - 1, largest), (largest, largest), (largest - 1, largest),
        (largest + 1, largest), (-7, 1), (Int.min, 1),
    ])
    func countsSaturateWithinWhatAContextHolds(stored: Int, recorded: Int) throws {
        let store = InMemoryLaunchHistoryStore(LaunchHistory(count: stored, latest: LaunchRecord(version: "2.0")))
        let info = try launch(store, "2.0")
        #expect(info.count == recorded)
        #expect(store.read()?.count == recorded)
        #expect(throws: Never.self) { try LaunchContext(appVersion: "2.0", launch: info) }
        // And the launch after it.
        #expect(try launch(store, "2.0").count == min(recorded + 1, Self.largest))
    }

    @Test func aFileCountPastEveryIntegerIsRead() throws {
        let folder = try makeTemporaryFolder("launch")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("launches.json")
        let file = "{\"format\": 1, \"count\": \(Int.max), \"latest\": {\"version\": \"1.0\", \"kind\": \"normal\"}}"
        try Data(file.utf8).write(to: url)
        let info = try launch(JSONFileLaunchHistoryStore(url: url), "2.0")
        #expect(info.count == Self.largest)
        #expect(info.kind == .upgrade)
    }

    @Test func daysSinceADateAgesAgoStayWithinWhatAContextHolds() throws {
        let ages = Date(timeIntervalSince1970: -1e17)
        let store = InMemoryLaunchHistoryStore(LaunchHistory(count: 3, firstLaunchDate: ages,
            latest: LaunchRecord(version: "2.0", date: ages)))
        let info = try launch(store, "2.0")
        #expect(info.daysSinceLastLaunch == Self.largest)
        #expect(info.daysSinceInstall == Self.largest)
        #expect(throws: Never.self) { try LaunchContext(appVersion: "2.0", launch: info) }
    }
}

/// Versions a store hands the tracker that are not versions (legacy keys are above): the launch reports them unknown,
/// and the store keeps them.
@Suite struct UnreadableStoredVersionTests {
    @Test func aStoredTextThatIsNoVersionIsUnknownAndKept() throws {
        let folder = try makeTemporaryFolder("launch")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("launches.json")
        try Data("""
            {"format": 1, "count": 3, "installVersion": "first one",
             "latest": {"version": "2.0 (beta)", "kind": "normal", "date": "2026-11-10T12:00:00.000Z"}}
            """.utf8).write(to: url)
        let store = JSONFileLaunchHistoryStore(url: url)
        let info = try launch(store, "2.1")
        #expect(info.kind == .upgrade, "a version that reads nothing like the new one is an upgrade, as before")
        #expect(info.count == 4)
        #expect(info.previousVersion == nil)
        #expect(info.installVersion == nil)
        #expect(info.daysSinceLastLaunch == 10)
        let context = try LaunchContext(appVersion: "2.1", launch: info)
        let policy = try #require(YAMLPolicyParser().parse(Data("""
            policy: 1
            rules:
              - {id: since-2, when: {previous-version: ">= 2"}, then: present, screen: s}
              - {id: new-here, when: {install-version: ">= 0"}, then: present, screen: t}
            """.utf8)).usablePolicy)
        #expect(policy.evaluate(context).presentations.isEmpty, "conditions on an unknown version are false")
        let stored = try #require(try store.read())
        #expect(stored.installVersion == "first one", "the store keeps what it held")
        #expect(stored.latest?.previousVersion == "2.0 (beta)")
    }

}
