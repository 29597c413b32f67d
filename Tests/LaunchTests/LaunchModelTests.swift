import Foundation
import LaunchPolicy
import Testing
import TestSupport

/// Random lives of an app, held to a plain model of what docs/launch-tracking.md says a launch is: versions and
/// builds going up, down and sideways, clocks that jump forward and back, a scene asking twice in one process, and
/// each store read afresh by every process, as an app's next run reads it.
@Suite struct LaunchModelTests {
    /// Versions in their order, with two spellings of one (`2.0` and `2.0.0`) and one that only a numeric order
    /// puts after `1.9`.
    static let versions = ["1.9", "1.10", "2.0", "2.0.0", "2.4", "2.4.1", "10.0"]
    /// Builds, and none: the build decides only between equal versions that both report one.
    static let builds: [String?] = [nil, "9", "10", "100"]
    /// How far the clock moves between runs: often forward, by whole days and just under them, now and then back.
    static let steps: [TimeInterval] = [0, 3_600, 86_399, 86_400, 86_401, 3 * 86_400, 40 * 86_400, -7_200, -3 * 86_400]

    /// The order the model knows: numeric parts, missing ones zero.
    static func order(_ a: String, _ b: String) -> Int {
        let left = a.split(separator: ".").map { Int($0)! }, right = b.split(separator: ".").map { Int($0)! }
        for index in 0..<max(left.count, right.count) {
            let l = index < left.count ? left[index] : 0, r = index < right.count ? right[index] : 0
            if l != r { return l < r ? -1 : 1 }
        }
        return 0
    }

    /// The history as the model keeps it, and what it expects each run to be told.
    struct Model {
        var count = 0
        var install: (version: String, date: Date)?
        var latest: (version: String, build: String?, date: Date)?

        mutating func launch(_ version: String, build: String?, at now: Date) -> LaunchInfo {
            let kind: LaunchKind
            if let latest {
                var order = LaunchModelTests.order(latest.version, version)
                if order == 0, let old = latest.build, let new = build { order = LaunchModelTests.order(old, new) }
                kind = order < 0 ? .upgrade : order > 0 ? .downgrade : .normal
            } else {
                kind = .first
            }
            func days(since date: Date?) -> Int? {
                date.map { max(0, Int((now.timeIntervalSince($0) / 86_400).rounded(.down))) }
            }
            count += 1
            if install == nil { install = (version, now) }
            let info = LaunchInfo(
                kind: kind, count: count, previousVersion: latest?.version, previousBuild: latest?.build,
                installVersion: install?.version, firstLaunchDate: install?.date, previousLaunchDate: latest?.date,
                daysSinceLastLaunch: days(since: latest?.date), daysSinceInstall: days(since: install?.date),
                source: .organic)
            latest = (version, build, now)
            return info
        }
    }

    /// A store as each run of the app opens it.
    enum StoreKind: String, CaseIterable {
        case memory, jsonFile, userDefaults
    }

    @Test(arguments: StoreKind.allCases)
    func everyRunIsTheRunTheModelExpects(kind: StoreKind) throws {
        let folder = try makeTemporaryFolder()
        let suite = "LaunchModelTests.\(UUID().uuidString)"
        defer {
            try? FileManager.default.removeItem(at: folder)
            UserDefaults().removePersistentDomain(forName: suite)
        }
        let memory = InMemoryLaunchHistoryStore()
        func store() throws -> any LaunchHistoryStore {
            switch kind {
            case .memory: return memory
            case .jsonFile: return JSONFileLaunchHistoryStore(url: folder.appendingPathComponent("launches.json"))
            case .userDefaults:
                return UserDefaultsLaunchHistoryStore(defaults: try #require(UserDefaults(suiteName: suite)))
            }
        }
        var random = SeededGenerator(seed: 0x1A0C_4000 &+ UInt64(StoreKind.allCases.firstIndex(of: kind)!))
        var model = Model()
        var now = Date(timeIntervalSince1970: 1_795_176_000)
        for run in 0..<300 {
            now += Self.steps.randomElement(using: &random)!
            let version = Self.versions.randomElement(using: &random)!
            let build = Self.builds.randomElement(using: &random)!
            let expected = model.launch(version, build: build, at: now)
            let process = UUID().uuidString
            let tracker = try LaunchTracker(
                store: try store(), appVersion: version, build: build, importingLegacyKeysFrom: nil, process: process)
            let info = try tracker.recordLaunch(now: now)
            #expect(info == expected, "run \(run): \(version) (\(build ?? "no build")) at \(now)")
            // A second scene in the same process, and a second tracker it makes later, count nothing.
            if Int.random(in: 0..<4, using: &random) == 0 {
                #expect(try tracker.recordLaunch(now: now + 60) == info, "run \(run): asked again")
                let again = try LaunchTracker(store: try store(), appVersion: version, build: build,
                    importingLegacyKeysFrom: nil, process: process)
                #expect(try again.recordLaunch(now: now + 120) == info, "run \(run): a second tracker")
            }
        }
    }
}
