import Foundation
@testable import LaunchPolicy
import Testing

/// An ISO 8601 date.
func date(_ text: String) -> Date {
    guard case .success(let date) = ValueSyntax.date(text) else { fatalError("bad date \(text)") }
    return date
}

/// One simulated run of the app: a new process recording its launch.
@discardableResult
func launch(
    _ store: any LaunchHistoryStore, _ version: String, build: String? = nil, at now: String = "2026-11-20T12:00:00Z",
    legacy: UserDefaults? = nil
) throws -> LaunchInfo {
    try LaunchTracker(store: store, appVersion: version, build: build, importingLegacyKeysFrom: legacy, process: UUID().uuidString)
        .recordLaunch(now: date(now))
}

@Suite struct LaunchKindTests {
    @Test func firstNormalUpgradeNormalDowngrade() throws {
        let store = InMemoryLaunchHistoryStore()
        let kinds = try ["1.9", "1.9", "1.10", "1.10", "1.2"].map { try launch(store, $0).kind }
        #expect(kinds == [.first, .normal, .upgrade, .normal, .downgrade])
        let last = try #require(store.read())
        #expect(last.count == 5)
        #expect(last.installVersion == "1.9")
        #expect(last.latest?.version == "1.2")
        #expect(last.latest?.previousVersion == "1.10")
    }

    @Test func theFullPictureOfAnUpgrade() throws {
        let store = InMemoryLaunchHistoryStore()
        try launch(store, "1.9", build: "90", at: "2026-01-01T09:00:00Z")
        try launch(store, "1.9", build: "90", at: "2026-03-01T09:00:00Z")
        let info = try launch(store, "1.10", build: "100", at: "2026-03-11T08:59:59Z")
        #expect(info == LaunchInfo(
            kind: .upgrade, count: 3, previousVersion: "1.9", previousBuild: "90", installVersion: "1.9",
            firstLaunchDate: date("2026-01-01T09:00:00Z"), previousLaunchDate: date("2026-03-01T09:00:00Z"),
            daysSinceLastLaunch: 9, daysSinceInstall: 68, source: .organic))
    }

    @Test(arguments: [
        ("2.4", "90", "2.4", "91", LaunchKind.upgrade), ("2.4", "91", "2.4", "90", .downgrade),
        ("2.4", "90", "2.4", "90", .normal), ("2.4", nil, "2.4", "90", .normal), ("2.4.0", "1", "2.4", "1", .normal),
        ("2.4.9", "1", "2.4.10", "1", .upgrade), ("2.0.0-beta.2", nil, "2.0.0-beta.10", nil, .upgrade),
        ("2.0.0-rc.1", nil, "2.0.0", nil, .upgrade), ("2.0.0", nil, "2.0.0-rc.1", nil, .downgrade),
        ("2.4", "1.2.10", "2.4", "1.2.9", .downgrade),
    ] as [(String, String?, String, String?, LaunchKind)])
    func versionsThenBuildsDecideTheKind(from: String, fromBuild: String?, to: String, toBuild: String?, kind: LaunchKind) throws {
        let store = InMemoryLaunchHistoryStore()
        try launch(store, from, build: fromBuild)
        #expect(try launch(store, to, build: toBuild).kind == kind)
    }

    @Test func aVersionThatIsNotOneIsRefusedWhenTheTrackerIsMade() {
        #expect(throws: LaunchContextError.self) { try LaunchTracker(store: InMemoryLaunchHistoryStore(), appVersion: "2.x") }
        #expect(throws: LaunchContextError.self) {
            try LaunchTracker(store: InMemoryLaunchHistoryStore(), appVersion: "2.0", build: "12b")
        }
    }

    @Test func anUnorderableStoredVersionCountsAsAnUpgrade() throws {
        let store = InMemoryLaunchHistoryStore(LaunchHistory(count: 3, latest: LaunchRecord(version: "Summer edition")))
        #expect(try launch(store, "2.0").kind == .upgrade)
        #expect(try launch(store, "2.0").kind == .normal)
    }
}

@Suite struct LaunchOncePerProcessTests {
    @Test func askingAgainInTheSameProcessCountsNothing() throws {
        let store = InMemoryLaunchHistoryStore()
        try launch(store, "1.0")
        let tracker = try LaunchTracker(store: store, appVersion: "1.1", importingLegacyKeysFrom: nil, process: "p-2")
        let first = try tracker.recordLaunch(now: date("2026-11-20T12:00:00Z"))
        let again = try tracker.recordLaunch(now: date("2026-11-21T12:00:00Z"))
        #expect(first == again)
        #expect(first.kind == .upgrade)
        #expect(store.read()?.count == 2)

        // A second tracker in the same process (another scene) sees the same launch, not a normal one.
        let scene = try LaunchTracker(store: store, appVersion: "1.1", importingLegacyKeysFrom: nil, process: "p-2")
        #expect(try scene.recordLaunch(now: date("2026-11-20T12:05:00Z")) == first)
        #expect(store.read()?.count == 2)
        #expect(tracker.launchInfo == first)
    }

    @Test func theDefaultProcessIdentifierIsStableInAProcess() throws {
        #expect(LaunchTracker.processIdentifier == LaunchTracker.processIdentifier)
        let store = InMemoryLaunchHistoryStore()
        let one = try LaunchTracker(store: store, appVersion: "1.0", importingLegacyKeysFrom: nil).recordLaunch()
        let two = try LaunchTracker(store: store, appVersion: "1.0", importingLegacyKeysFrom: nil).recordLaunch()
        #expect(one == two)
        #expect(store.read()?.count == 1)
    }

    @Test func manyThreadsAskingAtOnceCountOnce() async throws {
        let store = InMemoryLaunchHistoryStore()
        let tracker = try LaunchTracker(store: store, appVersion: "1.0", importingLegacyKeysFrom: nil, process: "threads")
        let infos = try await withThrowingTaskGroup(of: LaunchInfo.self) { group in
            for _ in 0..<16 { group.addTask { try tracker.recordLaunch() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(infos).count == 1)
        #expect(store.read()?.count == 1)
    }
}

@Suite struct LaunchDateTests {
    @Test(arguments: [
        // 23 hours of elapsed time across the start of daylight saving time in New York: 0 days.
        ("2026-03-07T23:00:00-05:00", "2026-03-08T23:00:00-04:00", 0),
        // 24 hours across it: 1 day, though the wall clock says 23:00 → 00:00.
        ("2026-03-07T23:00:00-05:00", "2026-03-09T00:00:00-04:00", 1),
        // 25 hours across the end of it: 1 day.
        ("2026-10-31T23:00:00-04:00", "2026-11-01T23:00:00-05:00", 1),
        // One instant written in Tokyo and then in Los Angeles: the dates differ by a day on paper, not in time.
        ("2026-06-01T23:00:00+09:00", "2026-06-01T07:00:00-07:00", 0),
        ("2026-06-01T01:00:00+09:00", "2026-06-01T23:00:00-07:00", 1),
        ("2026-06-01T00:00:00Z", "2026-06-08T23:59:59Z", 7),
        // The clock moved back: never negative.
        ("2026-06-08T00:00:00Z", "2026-06-01T00:00:00Z", 0),
    ])
    func daysAreWholeDaysOfElapsedTime(previous: String, now: String, days: Int) throws {
        let store = InMemoryLaunchHistoryStore()
        try launch(store, "1.0", at: previous)
        let info = try launch(store, "1.0", at: now)
        #expect(info.daysSinceLastLaunch == days)
        #expect(info.daysSinceInstall == days)
        #expect(info.previousLaunchDate == date(previous))
        #expect(info.firstLaunchDate == date(previous))
    }
}

@Suite struct LaunchSourceTests {
    @Test func theFirstReportOfASessionWinsAndOrganicIsTheDefault() throws {
        let tracker = try LaunchTracker(store: InMemoryLaunchHistoryStore(), appVersion: "1.0",
            importingLegacyKeysFrom: nil, process: "source")
        #expect(tracker.launchInfo == nil)
        #expect(try tracker.recordLaunch().source == .organic)
        tracker.reportSource(.remoteNotification)
        tracker.reportSource(.url)
        #expect(tracker.launchInfo?.source == .remoteNotification)
        #expect(try tracker.recordLaunch(source: .shortcut).source == .remoteNotification)

        tracker.beginForegroundSession()
        #expect(tracker.launchInfo?.source == .organic)
        tracker.reportSource(.shortcut)
        tracker.reportSource(.localNotification)
        #expect(tracker.launchInfo?.source == .shortcut)
        #expect(tracker.launchInfo?.count == 1, "a foreground session is not a launch")
    }

    @Test func aSourceGivenAtRecordingIsTheFirstReport() throws {
        let tracker = try LaunchTracker(store: InMemoryLaunchHistoryStore(), appVersion: "1.0",
            importingLegacyKeysFrom: nil, process: "source-2")
        #expect(try tracker.recordLaunch(source: .url).source == .url)
        tracker.reportSource(.organic)
        #expect(tracker.launchInfo?.source == .url)
    }
}

@Suite struct LaunchHelperTests {
    @Test func alwaysFirstLaunchIsAlwaysFirst() throws {
        for _ in 0..<3 {
            let info = try LaunchTracker.alwaysFirstLaunch(appVersion: "3.0", build: "300").recordLaunch()
            #expect(info.kind == .first)
            #expect(info.count == 1)
            #expect(info.installVersion == "3.0")
        }
    }

    @Test func upgradeReportsAnUpgradeFromTheGivenVersion() throws {
        let info = try LaunchTracker.upgrade(from: "2.9", to: "3.0.1", previousLaunchDate: date("2026-11-01T00:00:00Z"))
            .recordLaunch(now: date("2026-11-20T00:00:00Z"))
        #expect(info.kind == .upgrade)
        #expect(info.previousVersion == "2.9")
        #expect(info.count == 2)
        #expect(info.daysSinceLastLaunch == 19)
        #expect(throws: LaunchContextError.self) { try LaunchTracker.upgrade(from: "3.1", to: "3.0") }
        #expect(throws: LaunchContextError.self) { try LaunchTracker.upgrade(from: "three", to: "3.0") }
    }

    @Test func launchInfoFillsTheContextAndDrivesAPolicy() throws {
        let policy = try #require(YAMLPolicyParser().parse(Data("""
            policy: 1
            rules:
              - id: whats-new-3
                when: {launch: upgrade, previous-version: "< 3", app-version: ">= 3.0 < 3.1"}
                then: present
                screen: whats-new-3
              - id: onboarding
                when: {launch: first}
                then: present
                screen: onboarding
            """.utf8)).usablePolicy)
        let upgrade = try LaunchTracker.upgrade(from: "2.9", to: "3.0.1").recordLaunch()
        let upgraded = policy.evaluate(try LaunchContext(platform: .ios, appVersion: "3.0.1", launch: upgrade))
        #expect(upgraded.presentations.compactMap(\.screen) == ["whats-new-3"])
        let first = try LaunchTracker.alwaysFirstLaunch(appVersion: "3.0.1").recordLaunch()
        let fresh = policy.evaluate(try LaunchContext(platform: .ios, appVersion: "3.0.1", launch: first))
        #expect(fresh.presentations.compactMap(\.screen) == ["onboarding"])
    }
}
