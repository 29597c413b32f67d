import Foundation
import LaunchPolicy
import Testing
import TestSupport

/// Parses policy text and returns the result.
func parse(_ text: String) -> PolicyParseResult {
    YAMLPolicyParser().parse(Data(text.utf8))
}

/// The diagnostics as `CODE@LINE:COLUMN`.
func located(_ result: PolicyParseResult) -> [String] {
    result.diagnostics.map { "\($0.code)@\($0.range.start.line):\($0.range.start.column)" }
}

@Suite struct ExamplePolicyTests {
    static var examples: [URL] {
        let folder = Conformance.packageRoot.appendingPathComponent("policies")
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasSuffix(".yaml") }.sorted().map { folder.appendingPathComponent($0) }
    }

    @Test func thereAreSevenExamples() {
        #expect(Self.examples.count == 7)
    }

    @Test(arguments: examples)
    func everyExampleDecodesWithoutDiagnostics(url: URL) throws {
        let result = YAMLPolicyParser().parse(try Data(contentsOf: url))
        #expect(result.diagnostics.isEmpty, "\(url.lastPathComponent): \(result.diagnostics)")
        let policy = try #require(result.usablePolicy)
        #expect(!policy.rules.isEmpty)
        #expect(!policy.tests.isEmpty)
    }
}

@Suite struct DecoderTests {
    static let lantern = """
        policy: 1
        id: lantern
        store:
          ios: "itms-apps://apps.apple.com/app/id000000001"
        messages:
          update-required:
            default: "Please update Lantern to keep going."
            ja: "Lanternを最新版に更新してください。"
        rules:
          - id: minimum-ios
            when:
              platform: ios
              app-version: "< 2.4"
            then: require-update
            message: update-required
          - id: grandfather-paid
            when:
              platform: [ios, ipados]
              original-app-version: "< 40"
            then: grant
            entitlements: [premium]
        """

    @Test func storeURLsAreKeptByPlatformAndReadAsATable() throws {
        let result = parse("""
            policy: 1
            store:
              android: "https://play.google.com/store/apps/details?id=a"
              ios: "https://apps.apple.com/app/id1"
              visionos: "https://apps.apple.com/app/id2"
            rules: []
            """)
        #expect(result.diagnostics.isEmpty)
        let policy = try #require(result.usablePolicy)
        #expect(policy.storeURLs[.android]?.value == "https://play.google.com/store/apps/details?id=a")
        #expect(policy.storeURLs[.android]?.range.start == SourceLocation(line: 3, column: 12, offset: 28))
        #expect(policy.storeURLs[.visionos]?.value == "https://apps.apple.com/app/id2")
        #expect(policy.storeURLs[.macos] == nil)
        #expect(policy.store.mapValues(\.value) == [
            .android: "https://play.google.com/store/apps/details?id=a", .ios: "https://apps.apple.com/app/id1",
            .visionos: "https://apps.apple.com/app/id2",
        ])
        // An iPad is sent to the iOS listing when the policy names none of its own; a Mac is not.
        #expect(policy.storeURL(for: .ipados) == "https://apps.apple.com/app/id1")
        #expect(policy.storeURL(for: .macos) == nil)
    }

    @Test func storeTableWrittenAndReadBackForEveryPlatform() {
        for platform in Platform.allCases {
            var policy = Policy(store: [platform: Located("https://\(platform.rawValue)", range: .wholeInputStart)])
            #expect(!policy.storeURLs.isEmpty)
            #expect(policy.store.mapValues(\.value) == [platform: "https://\(platform.rawValue)"])
            #expect(policy.storeURL(for: platform) == "https://\(platform.rawValue)")
            for other in Platform.allCases where other != platform && !(other == .ipados && platform == .ios) {
                #expect(policy.storeURL(for: other) == nil, "\(other) read \(platform)'s URL")
            }
            policy.store[platform] = nil
            #expect(policy.storeURLs.isEmpty)
            #expect(policy.store.isEmpty)
        }
        var policy = Policy(store: [
            .ios: Located("https://ios", range: .wholeInputStart),
            .android: Located("https://android", range: .wholeInputStart),
        ])
        policy.store = [.macos: Located("https://macos", range: .wholeInputStart)]
        #expect(policy.store.keys.sorted { $0.rawValue < $1.rawValue } == [.macos], "setting the table replaces it")
        #expect(policy.storeURLs[.ios] == nil)
        #expect(Policy().storeURLs.isEmpty)
    }

    @Test func theIssueExampleDecodesToTypedRules() throws {
        let result = parse(Self.lantern)
        #expect(result.diagnostics.isEmpty)
        let policy = try #require(result.usablePolicy)
        #expect(policy.id == "lantern")
        #expect(policy.versioning == .marketing)
        #expect(policy.store[.ios]?.value == "itms-apps://apps.apple.com/app/id000000001")
        #expect(policy.rules.map(\.id.value) == ["minimum-ios", "grandfather-paid"])
        let gate = policy.rules[0]
        #expect(gate.action.value == .requireUpdate)
        #expect(gate.show == .everyLaunch)
        #expect(gate.message?.value == "update-required")
        #expect(gate.id.range.start == SourceLocation(line: 10, column: 9, offset: 237))
        guard case .all(let entries, _) = try #require(gate.condition) else { Issue.record("not all"); return }
        #expect(entries.count == 2)
        guard case .entry(let appVersion) = entries[1], case .appVersion(let range) = appVersion.test else {
            Issue.record("no app-version entry")
            return
        }
        #expect(range.canonical == "<2.4.0")
        #expect(appVersion.range.start.line == 13)
        #expect(policy.rules[1].entitlements.map(\.value) == ["premium"])
        #expect(policy.message("update-required")?.text(for: "ja-JP") == "Lanternを最新版に更新してください。")
        #expect(policy.message("update-required")?.text(for: "fr") == "Please update Lantern to keep going.")
    }

    @Test func changingACopyOfAConditionEntryLeavesTheOriginalAsItWas() throws {
        let policy = try #require(parse(Self.lantern).usablePolicy)
        guard case .all(let entries, _) = try #require(policy.rules[0].condition),
            case .entry(let original) = entries[1]
        else {
            Issue.record("no entry")
            return
        }
        var copy = original
        copy.key = "build"
        copy.test = .build(try VersionRange("< 300", kind: .build))
        copy.range = .wholeInputStart
        copy.valueRange = .wholeInputStart
        #expect(copy.key == "build")
        guard case .build(let range) = copy.test else { Issue.record("test not changed"); return }
        #expect(range.canonical == "<300")
        #expect(copy.range == .wholeInputStart && copy.valueRange == .wholeInputStart)
        #expect(original.key == "app-version")
        guard case .appVersion(let originalRange) = original.test else { Issue.record("original changed"); return }
        #expect(originalRange.canonical == "<2.4.0")
        #expect(original.range.start.line == 13 && original.valueRange.start.line == 13)
        #expect(original.valueRange.start.column > original.range.start.column)
    }

    @Test func translationsAreFoundWhateverTheCaseOrSeparatorOfEitherTag() {
        let message = Message(id: "m", translations: ["default": "Hello", "pt_BR": "Olá", "ZH-hant": "你好", "de": "Hallo"],
            range: .wholeInputStart)
        #expect(message.text(for: "pt-BR") == "Olá", "a key written pt_BR serves pt-BR")
        #expect(message.text(for: "pt_br") == "Olá")
        #expect(message.text(for: "zh-Hant-TW") == "你好")
        #expect(message.text(for: "de_AT") == "Hallo")
        #expect(message.text(for: "pt") == "Hello", "a regional text does not serve the bare language")
        #expect(message.text(for: "") == "Hello")
    }

    @Test func defaultsOfShowFollowTheAction() throws {
        let policy = try #require(parse("""
            policy: 1
            messages: {m: {default: x}}
            rules:
              - {id: a, then: suggest-update, message: m}
              - {id: b, then: notify, message: m}
              - {id: c, then: present, screen: s}
              - {id: d, then: notify, message: m, show: every-launch, every: 12h}
            """).usablePolicy)
        #expect(policy.rules.map(\.show) == [.oncePerVersion, .once, .once, .everyLaunch])
        #expect(policy.rules[3].every?.value == 43_200)
    }

    @Test func semverVersioningAppliesToVersionKeys() throws {
        let policy = try #require(parse("""
            policy: 1
            versioning: semver
            rules: [{id: a, when: {app-version: "< 2.0.0"}, then: grant, entitlements: [x]}]
            """).usablePolicy)
        guard case .all(let entries, _) = policy.rules[0].condition, case .entry(let entry) = entries[0],
            case .appVersion(let range) = entry.test
        else { Issue.record("no range"); return }
        #expect(range.kind == .semver)
        #expect(range.contains(try Version("2.0.0-beta.1", kind: .semver)))
    }

    @Test func everyProblemIsReportedInOnePass() {
        let result = parse("""
            policy: 1
            rules:
              - id: a
                when: {platform: iOS, app-version: "< 2.x.1"}
                then: require-update
                message: missing
              - id: a
                then: grant
            """)
        #expect(located(result) == [
            "policy.invalid-value@4:22", "policy.invalid-range@4:47", "policy.unknown-message@6:14",
            "policy.duplicate-rule-id@7:9", "policy.missing-key@8:11",
        ])
    }

    /// An id used three times is reported at the second and the third use, each pointing back to the first, and
    /// the first rule is the one kept.
    @Test func everyRepeatOfARuleIDPointsToItsFirstUse() {
        let result = parse("""
            policy: 1
            rules:
              - {id: a, then: grant, entitlements: [x]}
              - {id: a, then: grant, entitlements: [y]}
              - {id: a, then: grant, entitlements: [z]}
            """)
        #expect(located(result) == ["policy.duplicate-rule-id@4:10", "policy.duplicate-rule-id@5:10"])
        #expect(result.diagnostics.map { $0.notes.map(\.range.start.line) } == [[3], [3]])
    }
}

/// One test per diagnostic code: the code, the line and the column.
@Suite struct DiagnosticCodeTests {
    static let cases: [(code: String, text: String, line: Int, column: Int)] = [
        ("policy.wrong-type", "policy: 1\nrules: {id: a}\n", 2, 8),
        ("policy.unknown-key", "policy: 1\nrules: []\nrule: []\n", 3, 1),
        ("policy.missing-key", "policy: 1\nrules:\n  - id: a\n", 3, 5),
        ("policy.unsupported-version", "policy: 2\nrules: []\n", 1, 9),
        ("policy.invalid-value", "policy: 1\nrules:\n  - id: a\n    then: blok\n", 4, 11),
        ("policy.invalid-range", "policy: 1\nrules:\n  - id: a\n    when: {app-version: \"<< 2\"}\n    then: block\n    message: m\nmessages: {m: {default: x}}\n", 4, 27),
        ("policy.unknown-message", "policy: 1\nrules:\n  - {id: a, then: block, message: nope}\n", 3, 35),
        ("policy.unknown-rule", "policy: 1\nrules: []\ntests:\n  - {name: t, expect: {prompts: [ghost]}}\n", 4, 34),
        ("policy.duplicate-rule-id", "policy: 1\nrules:\n  - {id: a, then: grant, entitlements: [x]}\n  - {id: a, then: grant, entitlements: [y]}\n", 4, 10),
        ("policy.missing-default-message", "policy: 1\nmessages:\n  m: {ja: x}\nrules: []\n", 3, 3),
        ("policy.invalid-date", "policy: 1\nrules:\n  - {id: a, then: grant, entitlements: [x], when: {date: {from: \"2026-13-01T00:00:00Z\"}}}\n", 3, 65),
        ("policy.unexpected-tag", "policy: 1\nrules:\n  - id: a\n    when: {os-version: != 1.0}\n    then: grant\n    entitlements: [x]\n", 4, 24),
        ("policy.ignored-key", "policy: 1\nrules:\n  - {id: a, then: grant, entitlements: [x], screen: s}\n", 3, 45),
    ]

    @Test(arguments: cases.indices)
    func eachCodeIsReportedAtItsPosition(index: Int) throws {
        let expected = Self.cases[index]
        let result = parse(expected.text)
        let diagnostic = try #require(result.diagnostics.first { $0.code.rawValue == expected.code },
            "\(expected.code) not reported; got \(located(result))")
        #expect(diagnostic.range.start.line == expected.line, "\(expected.code)")
        #expect(diagnostic.range.start.column == expected.column, "\(expected.code)")
        #expect(result.diagnostics.count == 1, "\(expected.code): only that problem, got \(located(result))")
    }

    @Test func everyCodeOfTheDecoderHasATest() {
        let tested = Set(Self.cases.map(\.code))
        let declared: Set<String> = [
            "policy.wrong-type", "policy.unknown-key", "policy.missing-key", "policy.unsupported-version",
            "policy.invalid-value", "policy.invalid-range", "policy.unknown-message", "policy.unknown-rule",
            "policy.duplicate-rule-id", "policy.missing-default-message", "policy.invalid-date",
            "policy.unexpected-tag", "policy.ignored-key",
        ]
        #expect(tested == declared)
    }

    @Test func unknownKeysSuggestTheNearestKnownOne() throws {
        let result = parse("policy: 1\nrules:\n  - {id: a, then: grant, entitlments: [x]}\n")
        let diagnostic = try #require(result.diagnostics.first { $0.code == .policyUnknownKey })
        #expect(diagnostic.message.contains("did you mean \"entitlements\""))
        #expect(diagnostic.fixIt?.replacement == "entitlements")
        #expect(parse("policy: 1\nrules: []\nzzzzzz: 1\n").diagnostics.first?.fixIt == nil)
    }

    /// Keys are matched by length before text: keys of one length (`when`, `then`, `show`), keys longer than a
    /// short string holds (`days-since-last-launch`), and a word of a known key's length must each land where written.
    @Test func everyWrittenKeyIsReadAsItselfAndNoOther() throws {
        let result = parse("""
            policy: 1
            rules:
              - id: a
                show: once
                when:
                  platform: ios
                  app-version: "< 3"
                  previous-version: "< 3"
                  install-version: "< 3"
                  build: "< 30"
                  os-version: ">= 15"
                  original-app-version: "< 30"
                  launch: first
                  launch-count: ">= 2"
                  days-since-last-launch: ">= 2"
                  days-since-install: ">= 2"
                  launch-source: url
                  locale: ja
                  region: JP
                  date: {from: "2026-01-01T00:00:00Z"}
                  rollout: 10%
                  attributes: {plan: pro}
                  all: [{launch: first}]
                  any: [{launch: first}]
                  not: {launch: first}
                then: present
                screen: x
            """)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let rule = try #require(result.policy?.rules.first)
        #expect(rule.show == .once)
        #expect(rule.action.value == .present)
        guard case .all(let parts, _) = rule.condition else { Issue.record("not a mapping: \(String(describing: rule.condition))"); return }
        let keys = parts.compactMap { part -> String? in
            switch part {
            case .entry(let entry): entry.key
            case .all: "all"
            case .any: "any"
            case .not: "not"
            case .shared: nil
            }
        }
        #expect(keys == PolicyLanguage.conditionKeys)

        // Same length as a key, different text: unknown, with the key of that spelling suggested (in a rule without
        // `then`: a key the mapping has is not suggested).
        let misspelt: [(entry: String, written: String, meant: String)] = [
            ("thne: grant", "thne", "then"), ("shwo: once", "shwo", "show"), ("whén: {}", "whén", "when"),
            ("when: {days-since-last-lanuch: \">= 2\"}", "days-since-last-lanuch", "days-since-last-launch"),
        ]
        for (entry, written, meant) in misspelt {
            let wrong = parse("policy: 1\nrules:\n  - {id: a, entitlements: [x], \(entry)}\n")
            let diagnostic = wrong.diagnostics.first { $0.code == .policyUnknownKey }
            #expect(diagnostic?.message.contains("no key \"\(written)\"") == true, "\(written): \(wrong.diagnostics)")
            #expect(diagnostic?.fixIt?.replacement == meant, "\(written)")
        }
    }

    @Test func anUnquotedNotEqualGetsAQuotingFixIt() throws {
        let result = parse("policy: 1\nrules:\n  - {id: a, when: {app-version: != 1.0}, then: grant, entitlements: [x]}\n")
        let diagnostic = try #require(result.diagnostics.first)
        #expect(diagnostic.code == .policyUnexpectedTag)
        #expect(diagnostic.fixIt?.replacement == "\"!= 1.0\"")
    }

    @Test func aTaggedKeyIsRefusedEvenWhenItNamesAKnownKey() throws {
        // Keys are named straight from their text when untagged; a tag must still be reported, at the key.
        let result = parse("policy: 1\nrules:\n  - id: a\n    !custom then: grant\n    entitlements: [x]\n")
        let diagnostic = try #require(result.diagnostics.first { $0.code == .policyUnexpectedTag })
        #expect(diagnostic.range.start.line == 4)
        #expect(diagnostic.range.start.column == 5)
        // The tagged key is not read as `then`, so the rule lacks one.
        #expect(result.diagnostics.contains { $0.code == .policyMissingKey && $0.message.contains("\"then\"") })
    }

    /// A list with a bad item reports that item alone: the good items are kept, so that a `grant` rule's
    /// entitlements are not reported missing too, nor a condition's platforms.
    @Test func aBadItemOfAListIsReportedAloneAndTheRestKept() throws {
        let result = parse("""
            policy: 1
            rules:
              - {id: a, then: grant, entitlements: [pro, {x: y}]}
              - {id: b, when: {platform: [ios, andriod, {x: y}]}, then: grant, entitlements: [pro]}
            """)
        #expect(result.diagnostics.map(\.code) == [.policyWrongType, .policyInvalidValue, .policyWrongType],
            "\(result.diagnostics.map(\.description))")
        #expect(result.diagnostics.map(\.range.start.line) == [3, 4, 4])
        #expect(result.diagnostics[1].fixIt?.replacement == "android")
    }

    @Test func typosInValuesGetSuggestions() throws {
        let result = parse("policy: 1\nrules:\n  - {id: a, when: {launch: frist}, then: grant, entitlements: [x]}\n")
        #expect(result.diagnostics.first?.fixIt?.replacement == "first")
    }

    @Test func readerErrorsComeThroughWithoutAPolicy() {
        let result = parse("policy: 1\nrules: [\n")
        #expect(result.policy == nil)
        #expect(result.diagnostics.first?.code == .yamlSyntaxError)
    }

    @Test func aDateWindowMustEndAfterItStarts() {
        let result = parse("""
            policy: 1
            rules:
              - id: a
                when: {date: {from: "2026-12-02T00:00:00Z", until: "2026-12-01T00:00:00+09:00"}}
                then: grant
                entitlements: [x]
            """)
        #expect(located(result) == ["policy.invalid-date@4:56"])
    }
}

/// Values that are the right type but not valid: each is refused where it is written.
@Suite struct InvalidValueTests {
    static let cases: [(text: String, code: String, line: Int, column: Int, mentions: String)] = [
        ("versioning: calver\nrules: []", "policy.invalid-value", 2, 13, "marketing or semver"),
        ("rules: [{id: a, then: notify, message: m, every: 3x}]", "policy.invalid-value", 2, 50, "duration"),
        ("rules: [{id: a, then: notify, message: m, show: twice}]", "policy.invalid-value", 2, 49, "show value"),
        ("rules: [{id: a, then: block, message: m, show: once}]", "policy.invalid-value", 2, 48, "every launch"),
        ("rules: [{id: a, then: grant, entitlements: [x], when: {rollout: 120%}}]", "policy.invalid-value", 2, 65, "percentage"),
        ("rules: [{id: a, then: grant, entitlements: [x], when: {rollout: \"-5%\"}}]", "policy.invalid-value", 2, 65, "percentage"),
        ("rules: [{id: a, then: grant, entitlements: [x], when: {region: NOR}}]", "policy.invalid-value", 2, 64, "ISO 3166"),
        ("rules: [{id: a, then: grant, entitlements: [x], when: {locale: \"j\"}}]", "policy.invalid-value", 2, 64, "language tag"),
        ("rules: [{id: a, then: grant, entitlements: [x], when: {launch-source: push}}]", "policy.invalid-value", 2, 71, "launch source"),
        ("rules: [{id: a, then: grant, entitlements: [x], when: {date: {until: \"2026-12-01T00:00:00\"}}}]", "policy.invalid-date", 2, 70, "time zone"),
        ("rules: [{id: a, then: grant, entitlements: [x], when: {date: {until: \"2026-12-01\"}}}]", "policy.invalid-date", 2, 70, "no time"),
        ("rules: [{id: a, then: grant, entitlements: [x], when: {date: {until: \"2025-02-29T00:00:00Z\"}}}]", "policy.invalid-date", 2, 70, "does not exist"),
        ("rules: [{id: a, then: grant, entitlements: [x], when: {build: \"< 1.2-b\"}}]", "policy.invalid-range", 2, 69, "build"),
        ("rules: [{id: a, then: grant, entitlements: [x], when: {launch-count: \"> -1\"}}]", "policy.invalid-range", 2, 73, "whole numbers"),
        ("rules: [{id: a, then: grant, entitlements: [x], when: {platform: [ios, 3ds]}}]", "policy.invalid-value", 2, 72, "platform"),
        ("rules: [{id: a, then: grant, entitlements: [x], when: {all: {platform: ios}}}]", "policy.wrong-type", 2, 61, "list"),
        // A list of conditions where one belongs, as other tools write them: the message says what to write.
        ("rules: [{id: a, then: grant, entitlements: [x], when: [{platform: ios}]}]", "policy.wrong-type", 2, 55,
            "write the list under all: (or under any:"),
        ("rules: [{id: a, then: grant, entitlements: [x], when: {not: [{platform: ios}]}}]", "policy.wrong-type", 2, 61,
            "write the list under all:"),
        ("rules: [{id: a, then: present}]", "policy.missing-key", 2, 23, "screen"),
    ]

    @Test(arguments: cases.indices)
    func eachInvalidValueIsRefusedWhereItIsWritten(index: Int) throws {
        let expected = Self.cases[index]
        let result = parse("policy: 1\n" + expected.text + (expected.text.contains("message: m") ? "\nmessages: {m: {default: x}}\n" : "\n"))
        #expect(located(result) == ["\(expected.code)@\(expected.line):\(expected.column)"], "\(expected.text)")
        #expect(result.diagnostics.first?.message.contains(expected.mentions) == true, "\(result.diagnostics.first?.message ?? "")")
        #expect(result.usablePolicy == nil)
    }

    /// The decoder reads each range text once for each kind it is written as, and reuses the reading: the same text
    /// under a key of another kind is read again as that kind, so a bound that is a build number but not a
    /// marketing version or a whole number is refused where it is the latter two, and only there.
    @Test func theSameRangeTextIsReadAgainAsAnotherKind() throws {
        let result = parse("""
            policy: 1
            rules:
              - {id: a, then: grant, entitlements: [x], when: {build: "< 1.2.3.4"}}
              - {id: b, then: grant, entitlements: [x], when: {app-version: "< 1.2.3.4"}}
              - {id: c, then: grant, entitlements: [x], when: {launch-count: "< 1.2.3.4"}}
              - {id: d, then: grant, entitlements: [x], when: {build: "< 1.2.3.4", original-app-version: "< 1.2.3.4"}}
            """)
        #expect(result.diagnostics.map { "\($0.code)@\($0.range.start.line)" }
            == ["policy.invalid-range@4", "policy.invalid-range@5"])
    }

    @Test func validValuesOfTheSameKeysPass() throws {
        let policy = try #require(parse("""
            policy: 1
            rules:
              - id: a
                then: grant
                entitlements: premium
                when:
                  rollout: 12.5
                  region: ["NO", se]
                  locale: [ja, zh-Hant-TW, pt_BR]
                  date: {from: "2024-02-29T00:00:00+0900", until: "2026-12-01T00:00:00.5Z"}
                  launch-source: [url, local-notification]
                  launch-count: "> 3 <= 10"
                  not: {attributes: {plan: [free, trial]}}
            """).usablePolicy)
        #expect(policy.rules[0].entitlements.map(\.value) == ["premium"])
    }

    @Test(arguments: [
        ("ja", true), ("pt-BR", true), ("pt_BR", true), ("zh-Hant-TW", true), ("en-US-x-twain", true),
        ("sr-Latn-RS-1901", true), ("abcdefgh-12345678", true), ("DE", true),
        ("j", false), ("abcdefghi", false), ("en-", false), ("-en", false), ("en--US", false), ("en-123456789", false),
        ("1a", false), ("en US", false), ("en.US", false), ("é", false), ("ja-日本", false), ("", false),
    ] as [(String, Bool)])
    func localeTagsAreCheckedSubtagBySubtag(tag: String, isValid: Bool) {
        let result = parse("""
            policy: 1
            rules: [{id: a, then: grant, entitlements: [x], when: {locale: "\(tag)"}}]
            messages: {m: {default: x, "\(tag)": y}}
            """)
        #expect(located(result) == (isValid ? [] : ["policy.invalid-value@2:64", "policy.invalid-value@3:28"]))
    }
}

/// The decoder reads a range text once per kind of version and shares the reading with every rule that writes it.
@Suite struct SharedRangeTests {
    @Test func theSameTextUnderKeysOfDifferentKindsIsReadForEach() throws {
        // `<= 4.1` is complete as a build number but a partial marketing version (`< 4.2.0`): a reading shared across
        // kinds would give the second rule the first one's, and the app-version rule would not match 4.1.5.
        let result = parse("""
            policy: 1
            messages: {hi: {default: "Hi."}}
            rules:
              - {id: by-build, when: {build: "<= 4.1"}, then: notify, message: hi}
              - {id: by-version, when: {app-version: "<= 4.1"}, then: notify, message: hi}
              - {id: by-version-again, when: {app-version: "<= 4.1", platform: ios}, then: notify, message: hi}
            """)
        let policy = try #require(result.usablePolicy, "\(result.diagnostics)")
        let decision = policy.evaluate(try LaunchContext(platform: .ios, appVersion: "4.1.5", build: "4.1.5"))
        #expect(decision.notices.map(\.rule) == ["by-version", "by-version-again"])
    }

    @Test func anInvalidRangeIsReportedWhereverItIsWritten() {
        let result = parse("""
            policy: 1
            messages: {hi: {default: "Hi."}}
            rules:
              - {id: one, when: {app-version: ">= 2 <"}, then: notify, message: hi}
              - {id: two, when: {app-version: ">= 2 <"}, then: notify, message: hi}
            """)
        #expect(result.diagnostics.map(\.code) == [.policyInvalidRange, .policyInvalidRange])
        #expect(result.diagnostics.map(\.range.start.line) == [4, 5])
    }
}
