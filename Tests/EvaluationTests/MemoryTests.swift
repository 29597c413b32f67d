import Foundation
@testable import LaunchPolicy
import Testing
import TestSupport

private let shows = """
    policy: 1
    messages:
      news: {default: "News.", fr: "Nouvelles."}
      update: {default: "Update available."}
      back: {default: "Welcome back."}
    rules:
      - {id: news, then: notify, message: news, show: once}
      - {id: update, then: suggest-update, message: update}
      - {id: tour, then: present, screen: tour}
      - {id: back, then: notify, message: back, show: every-launch, every: 7d}
      - {id: loud, then: notify, message: news, show: every-launch}
      - {id: weekly-once, then: notify, message: update, show: once, every: 1w}
    """

@Suite struct MemoryTests {
    private let now = date("2026-11-20T12:00:00Z")

    private func decide(_ policy: Policy, _ memory: DisplayMemory, version: String = "2.0", locale: String? = nil,
        at now: Date? = nil) throws -> Decision
    {
        try policy.evaluate(LaunchContext(platform: .ios, appVersion: version, locale: locale, now: now ?? self.now), memory: memory)
    }

    /// Records everything the decision shows, as an app would after showing it.
    private func showing(_ decision: Decision, in memory: DisplayMemory, at date: Date? = nil) -> DisplayMemory {
        var memory = memory
        for directive in decision.shown { memory.record(directive, at: date ?? now) }
        return memory
    }

    @Test func onceShowsUntilRecordedAndAgainWhenTheTextChanges() throws {
        let policy = try policy(shows)
        let first = try decide(policy, DisplayMemory())
        #expect(first.notices.map(\.rule) == ["news", "back", "loud", "weekly-once"])
        let memory = showing(first, in: DisplayMemory())
        let second = try decide(policy, memory)
        #expect(second.notices.map(\.rule) == ["loud"])
        #expect(second.explanation(of: "news")?.outcome == .alreadyShown(at: now, again: nil))
        #expect(second.explanation(of: "tour")?.outcome == .alreadyShown(at: now, again: nil))

        var edited = policy
        edited.messages[0].translations["default"] = "Big news."
        #expect(try decide(edited, memory).notices.map(\.rule) == ["news", "loud"], "an edited message shows again")
        #expect(try decide(policy, memory, locale: "fr").notices.map(\.rule).contains("news"),
            "a text the user has not seen (another language) shows")
    }

    /// The keys are a file format: apps keep them across launches and releases.
    @Test func memoryKeysNameTheTextByItsDigestAndTheVersionCanonically() throws {
        let decision = try policy("""
            policy: 1
            messages: {hi: {default: "Hello.", pt: "Olá, mundo."}, up: {default: "Update."}}
            rules:
              - {id: hi, then: notify, message: hi}
              - {id: up, then: suggest-update, message: up}
              - {id: tour, then: present, screen: tour}
            """).evaluate(LaunchContext(platform: .ios, appVersion: "2.4", locale: "pt-BR", now: now))
        // sha256("Olá, mundo.") begins 6bcbb6ae7ac2916e (Python's hashlib).
        #expect(decision.notices.first?.memoryKey == .init(rule: "hi", scope: "text 6bcbb6ae7ac2916e"))
        #expect(decision.prompts.first?.memoryKey == .init(rule: "up", scope: "version 2.4.0, message up"))
        #expect(decision.presentations.first?.memoryKey == .init(rule: "tour", scope: "screen tour"))
    }

    /// Rules that show one message share its text's scope, worked out once a launch, in that launch's language; each
    /// message has its own, whatever order the rules come in, and memory refuses by them as it does by any key.
    @Test func rulesThatShowOneMessageHaveItsTextsScope() throws {
        let policy = try policy("""
            policy: 1
            messages: {hi: {default: "Hello.", pt: "Olá, mundo."}, bye: {default: "Bye."}}
            rules:
              - {id: n1, then: notify, message: hi}
              - {id: n2, then: notify, message: bye}
              - {id: n3, then: notify, message: hi}
              - {id: n4, then: notify, message: bye}
              - {id: tour, then: present, screen: tour}
            """)
        let hello = "text 2d8bd7d9bb5f85ba", ola = "text 6bcbb6ae7ac2916e", bye = "text d34d6c9669984274"
        let portuguese = policy.evaluate(try LaunchContext(platform: .ios, locale: "pt-BR", now: now))
        #expect(portuguese.notices.compactMap(\.memoryKey?.scope) == [ola, bye, ola, bye])
        let english = policy.evaluate(try LaunchContext(platform: .ios, locale: "en", now: now))
        #expect(english.notices.compactMap(\.memoryKey?.scope) == [hello, bye, hello, bye])
        var memory = DisplayMemory()
        memory.record(.init(rule: "n3", scope: ola), at: now)
        memory.record(.init(rule: "n4", scope: bye), at: now)
        let again = policy.evaluate(try LaunchContext(platform: .ios, locale: "pt-BR", now: now), memory: memory)
        #expect(again.notices.map(\.rule) == ["n1", "n2"])
        #expect(again.notices.compactMap(\.memoryKey?.scope) == [ola, bye])
    }

    @Test func oncePerVersionAsksAgainOnAnotherVersionOnly() throws {
        let policy = try policy(shows)
        let memory = showing(try decide(policy, DisplayMemory(), version: "2.0"), in: DisplayMemory())
        #expect(try decide(policy, memory, version: "2.0").prompts.isEmpty)
        #expect(try decide(policy, memory, version: "2.0.0").prompts.isEmpty, "2.0 and 2.0.0 are the same version")
        #expect(try decide(policy, memory, version: "2.1").prompts.map(\.rule) == ["update"])
    }

    @Test func everyAllowsShowingAgainOnceTheIntervalHasPassed() throws {
        let policy = try policy(shows)
        let memory = showing(try decide(policy, DisplayMemory()), in: DisplayMemory())
        let week = 7 * 86_400.0
        let justBefore = try decide(policy, memory, at: now.addingTimeInterval(week - 1))
        #expect(!justBefore.notices.map(\.rule).contains("back"))
        #expect(justBefore.explanation(of: "back")?.outcome == .alreadyShown(at: now, again: now.addingTimeInterval(week)))
        let onTheDay = try decide(policy, memory, at: now.addingTimeInterval(week))
        #expect(onTheDay.notices.map(\.rule) == ["back", "loud", "weekly-once"])
        let clockMovedBack = try decide(policy, memory, at: now.addingTimeInterval(-86_400))
        #expect(clockMovedBack.notices.map(\.rule).contains("back"), "a record from the future does not hold a rule back")
    }

    @Test func evaluatingNeverChangesMemoryAndGatesAreNotRemembered() throws {
        let store = InMemoryDisplayMemoryStore()
        _ = try decide(policy(shows), store.load())
        #expect(store.load() == DisplayMemory())

        let gate = try policy("""
            policy: 1
            messages: {m: {default: "m"}}
            rules: [{id: stop, then: block, message: m}]
            """)
        let decision = try decide(gate, DisplayMemory())
        #expect(showing(decision, in: DisplayMemory()) == DisplayMemory())
        #expect(try decide(gate, showing(decision, in: DisplayMemory())).gate?.rule == "stop")
    }

    @Test func forgettingARuleShowsItAgain() throws {
        let policy = try policy(shows)
        var memory = showing(try decide(policy, DisplayMemory()), in: DisplayMemory())
        memory.forget(rule: "news")
        #expect(try decide(policy, memory).notices.map(\.rule) == ["news", "loud"])
    }
}

/// A lock wait that a test does not mean to run out: held only for a write's length by another writer.
private let unhurriedLockTimeout: TimeInterval = 60

@Suite struct MemoryFileTests {
    private func temporaryFile() throws -> URL {
        try makeTemporaryFolder("memory").appendingPathComponent("memory.json")
    }

    @Test func aMissingFileIsAnEmptyMemoryAndSavedMemoryReadsBack() throws {
        let url = try temporaryFile()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let store = JSONFileDisplayMemoryStore(url: url)
        #expect(try store.load() == DisplayMemory())
        var memory = DisplayMemory()
        let shownAt = date("2026-11-20T09:30:00.250Z")
        memory.record(.init(rule: "news", scope: "text 0123456789abcdef"), at: shownAt)
        memory.record(.init(rule: "update", scope: "version 2.0.0, message update"), at: date("1969-07-20T20:17:40Z"))
        try store.save(memory)
        #expect(try store.load() == memory)
        let text = try String(contentsOf: url, encoding: .utf8)
        // Records sorted by rule and scope, dates to the millisecond in UTC, one field a line.
        #expect(text == """
            {
              "format": 1,
              "shown": [
                {
                  "rule": "news",
                  "scope": "text 0123456789abcdef",
                  "at": "2026-11-20T09:30:00.250Z"
                },
                {
                  "rule": "update",
                  "scope": "version 2.0.0, message update",
                  "at": "1969-07-20T20:17:40.000Z"
                }
              ]
            }

            """)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
        #expect(leftovers == ["memory.json"], "an atomic write leaves no temporary file behind")
    }

    /// An app and its extensions recording at once each keep what they recorded: updates take the lock beside the
    /// file, where a load and a later save keep only the last writer's.
    @Test func updatesAtOnceKeepEveryRecord() throws {
        let url = try temporaryFile()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let writers = 4, updates = 10
        DispatchQueue.concurrentPerform(iterations: writers) { writer in
            // A store of its own for each writer, as each process has.
            let store = JSONFileDisplayMemoryStore(url: url, lockTimeout: unhurriedLockTimeout)
            for update in 0..<updates {
                #expect(throws: Never.self) {
                    try store.update { $0.record(.init(rule: "r\(writer)", scope: "\(update)"), at: .now) }
                }
            }
        }
        let memory = try JSONFileDisplayMemoryStore(url: url).load()
        #expect(memory.shown.count == writers * updates)
        let names = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
        #expect(names.sorted() == ["memory.json", "memory.json.lock"])
    }

    @Test func anUpdateWaitsForTheLockAtMostItsTimeoutAndThenWritesNothing() throws {
        let url = try temporaryFile()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let store = JSONFileDisplayMemoryStore(url: url, lockTimeout: 0.2)
        let key = DisplayMemory.Key(rule: "news", scope: "text 0")
        try store.update { $0.record(key, at: date("2026-11-20T09:30:00Z")) }
        let before = try Data(contentsOf: url)
        let held = try HeldFileLock(path: store.lockURL.path)
        defer { held.release() }
        let error = #expect(throws: StateFileLockTimeout.self) {
            try store.update { $0.record(key, at: date("2026-11-21T09:30:00Z")) }
        }
        #expect(error == StateFileLockTimeout(lockFile: store.lockURL, seconds: 0.2))
        #expect(error?.localizedDescription == "the lock \(store.lockURL.path) was held by another writer for "
            + "longer than 0.2 s; nothing was written")
        #expect(try Data(contentsOf: url) == before)
        held.release()
        try store.update { $0.record(key, at: date("2026-11-21T09:30:00Z")) }
        #expect(try store.load().lastShown(key) == date("2026-11-21T09:30:00Z"))
    }

    /// A memory file that is a folder or a pipe is refused before the lock file is made beside it, and left alone.
    @Test func anUpdateOfAStoreThatIsNoFileMakesNoLockBesideIt() throws {
        let folder = try makeTemporaryFolder("memory")
        defer { try? FileManager.default.removeItem(at: folder) }
        let directory = folder.appendingPathComponent("shown.json")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        let pipe = folder.appendingPathComponent("pipe.json")
        #expect(mkfifo(pipe.path, 0o600) == 0)
        for (url, reason) in [(directory, "is a directory"), (pipe, "not a regular file")] {
            let error = #expect(throws: (any Error).self) {
                try JSONFileDisplayMemoryStore(url: url).update { $0.record(.init(rule: "r", scope: "s"), at: .now) }
            }
            #expect(error.map(AtomicFile.reason) == reason)
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names == ["pipe.json", "shown.json"], "no lock file beside either")
    }

    @Test func anInMemoryUpdateChangesTheMemoryAndReturnsTheResult() {
        let store = InMemoryDisplayMemoryStore()
        let key = DisplayMemory.Key(rule: "news", scope: "text 0")
        let count = store.update { memory in
            memory.record(key, at: date("2026-11-20T09:30:00Z"))
            return memory.shown.count
        }
        #expect(count == 1)
        #expect(store.load().lastShown(key) == date("2026-11-20T09:30:00Z"))
    }

    @Test(arguments: [
        ("not json", "it is not a memory file", "1:1: error: the memory file could not be read: it is not valid JSON: "
            + #"unexpected "n" where a value should start [state.not-json]"#),
        (#"{"format": 2, "shown": []}"#, "format 2", "1:12: error: the memory file could not be read: it has format 2; "
            + "this version of LaunchPolicy reads format 1 [state.unsupported-format]"),
        (#"{"format": 1}"#, "\"shown\" is missing",
            #"1:1: error: the memory file could not be read: the key "shown" is missing [state.missing-key]"#),
        (#"{"format": 1, "shown": [{"rule": "r", "scope": "s", "at": "yesterday"}]}"#,
            "\"yesterday\" is not an ISO 8601",
            #"1:59: error: the memory file could not be read: shown.0.at "yesterday" is not an ISO 8601 date and "#
                + "time [state.invalid-value]"),
        (#"{"format": 1, "shown": [{"rule": "r", "scope": ["s"], "at": "yesterday"}]}"#, "shown.0.scope is an array",
            "1:48: error: the memory file could not be read: shown.0.scope is an array, not a string "
                + "[state.wrong-type]"),
    ])
    func anUnreadableFileThrowsSaysWhereAndIsLeftAlone(contents: String, reason: String, diagnostic: String) throws {
        let url = try temporaryFile()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        try Data(contents.utf8).write(to: url)
        let error = #expect(throws: DisplayMemoryError.self) { try JSONFileDisplayMemoryStore(url: url).load() }
        #expect(error?.description.contains(reason) == true, "\(error.map(String.init(describing:)) ?? "")")
        #expect(error?.diagnostic?.description == diagnostic)
        #expect(try String(contentsOf: url, encoding: .utf8) == contents)
    }

    @Test(arguments: [
        (0.0, "1970-01-01T00:00:00.000Z"),
        (-1.0, "1969-12-31T23:59:59.000Z"),
        (951_782_400.5, "2000-02-29T00:00:00.500Z"),
        (4_107_542_399.999, "2100-02-28T23:59:59.999Z"),
    ])
    func timestampsAreISO8601InUTC(seconds: Double, text: String) {
        #expect(Timestamp.text(Date(timeIntervalSince1970: seconds)) == text)
        #expect(date(text) == Date(timeIntervalSince1970: seconds))
    }

    @Test(arguments: [
        (-62_167_219_200.0, "0000-01-01T00:00:00.000Z"),
        (-62_167_219_200.5, "0000-01-01T00:00:00.000Z"),
        (-1e300, "0000-01-01T00:00:00.000Z"),
        (-Double.infinity, "0000-01-01T00:00:00.000Z"),
        (Double.nan, "0000-01-01T00:00:00.000Z"),
        (253_402_300_799.999, "9999-12-31T23:59:59.999Z"),
        (253_402_300_800.0, "9999-12-31T23:59:59.999Z"),
        (1e300, "9999-12-31T23:59:59.999Z"),
        (Double.infinity, "9999-12-31T23:59:59.999Z"),
    ])
    func datesPastTheYearsATimestampHoldsAreWrittenAsTheNearerEnd(seconds: Double, text: String) {
        #expect(Timestamp.text(Date(timeIntervalSince1970: seconds)) == text)
        #expect(ValueSyntax.date(text).map(\.timeIntervalSince1970) == .success(seconds.isNaN || seconds < 0
            ? Timestamp.earliest : Timestamp.latest), "the text reads back")
    }
}
