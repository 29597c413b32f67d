import Foundation
@testable import LaunchPolicy
import Testing

/// One test per semantic check: the code, the position and the severity, and the near misses it must not report.
@Suite struct SemanticCheckTests {
    /// A policy's first four lines, before its rules: store URLs for both platforms, so that a gate without a version
    /// range is a lockout only for want of a range, and one message.
    static let gateHeader = """
        policy: 1
        store: {ios: "https://apps.apple.com/app/id1", android: "https://play.google.com/store/apps/details?id=a"}
        messages: {down: {default: "Down."}}
        rules:

        """

    @Test func aGateOnEveryVersionOfAPlatformIsALockout() {
        let diagnostics = lint(Self.gateHeader + """
              - id: kill-switch
                when: {platform: ios}
                then: block
                message: down
              - id: update-all
                then: require-update
                message: down
            """)
        let lockouts = findings(.lintLockout, diagnostics)
        #expect(lockouts.count == 2)
        #expect(lockouts.first?.range.start.line == 7 && lockouts.first?.range.start.column == 11)
        #expect(lockouts.first?.message.contains("on ios") == true)
        #expect(lockouts.last?.range.start.line == 10)
        #expect(lockouts.last?.message.contains("on every platform") == true)
        #expect(lockouts.allSatisfy { $0.severity == .warning })
    }

    @Test func aLockoutNamesThePlatformsOfEveryAlternativeThatLocksOut() {
        // Two alternatives lock out (ios, then android); the tvOS one has an app-version range an update leaves, so
        // tvOS is not named.
        let diagnostics = lint(Self.gateHeader + """
              - id: kill-switch
                when: {any: [{platform: ios}, {platform: tvos, app-version: "< 2"}, {platform: android}]}
                then: block
                message: down
            """)
        let lockouts = findings(.lintLockout, diagnostics)
        #expect(lockouts.count == 1)
        #expect(lockouts.first?.message.contains("matches every app version on ios and android and no date") == true,
            "\(lockouts.map(\.message))")
    }

    @Test func aGateThatAnUpdateOrTheClockEndsIsNoLockout() {
        let diagnostics = lint("""
            policy: 1
            store: {ios: "https://apps.apple.com/app/id1"}
            messages: {down: {default: "Down."}}
            rules:
              - id: old
                when: {platform: ios, app-version: "< 2.4.0"}
                then: require-update
                message: down
              - id: window
                when: {date: {from: "2026-12-01T02:00:00Z", until: "2026-12-01T04:00:00Z"}}
                then: block
                message: down
              - id: negated
                when: {not: {app-version: ">= 3.0.0"}}
                then: block
                message: down
              - id: old-builds
                when: {any: [{build: "< 40"}, {app-version: "< 1.0.0"}]}
                then: block
                message: down
            """)
        #expect(findings(.lintLockout, diagnostics).isEmpty, "\(diagnostics.map(\.description))")
    }

    @Test func anEveryVersionRangeOrAWindowWithoutEndIsStillALockout() {
        let diagnostics = lint("""
            policy: 1
            store: {android: "https://play.google.com/store/apps/details?id=a"}
            messages: {down: {default: "Down."}}
            rules:
              - id: star
                when: {platform: android, app-version: "*", date: {from: "2026-12-01T00:00:00Z"}}
                then: block
                message: down
            """)
        expectOne(.lintLockout, at: 7, 11, severity: .warning, in: diagnostics)
    }

    /// A gate staged at 0% holds for no install yet, so it locks no one out; from its first share on, it locks out
    /// that share. Two rollouts in one alternative draw the same bucket, so the smaller share is the alternative's.
    @Test func aGateStagedAtNoShareIsNoLockoutUntilItHasOne() {
        func lockouts(_ rollout: String) -> [Diagnostic] {
            findings(.lintLockout, lint(Self.gateHeader + """
                  - id: staged
                    when: {platform: ios, \(rollout)}
                    then: block
                    message: down
                """))
        }
        #expect(lockouts("rollout: \"0%\"").isEmpty)
        #expect(lockouts("rollout: 0").isEmpty)
        #expect(lockouts("all: [{rollout: \"50%\"}, {rollout: \"0%\"}]").isEmpty)
        #expect(lockouts("rollout: \"0.5%\"").count == 1)
        #expect(lockouts("all: [{rollout: \"50%\"}, {rollout: \"10%\"}]").count == 1)
        // Only the alternative at 0% is left out: the other still locks its users out.
        #expect(lockouts("any: [{rollout: \"0%\"}, {locale: ja}]").count == 1)
    }

    @Test func anEmptyRangeNeverMatches() {
        let diagnostics = lint("""
            policy: 1
            messages: {hi: {default: "Hi."}}
            rules:
              - id: backwards
                when: {app-version: ">= 3.0.0 < 2.0.0"}
                then: notify
                message: hi
            """)
        let found = expectOne(.lintNeverMatches, at: 5, 25, severity: .warning, in: diagnostics)
        #expect(found?.message.contains("matches no version, so the rule \"backwards\" never applies") == true)
        let partly = lint("""
            policy: 1
            messages: {hi: {default: "Hi."}}
            rules:
              - id: either
                when: {any: [{app-version: "< 2.0.0"}, {app-version: ">= 3.0.0 < 2.0.0"}]}
                then: notify
                message: hi
            """)
        let part = expectOne(.lintNeverMatches, at: 5, 58, severity: .warning, in: partly)
        #expect(part?.message.contains("the alternative of \"either\" that holds it never does") == true)
        // Every alternative the analysis keeps can match, but the empty any took the one holding the range out of
        // them: the range is still asked.
        let hidden = lint("""
            policy: 1
            messages: {hi: {default: "Hi."}}
            rules:
              - id: hidden
                when: {any: [{all: [{any: []}, {app-version: ">= 3.0.0 < 2.0.0"}]}, {platform: ios}]}
                then: notify
                message: hi
            """)
        let unreachable = expectOne(.lintNeverMatches, at: 5, 50, severity: .warning, in: hidden)
        #expect(unreachable?.message.contains("matches no version") == true)
    }

    @Test func contradictoryEntriesNeverMatch() {
        let diagnostics = lint("""
            policy: 1
            messages: {hi: {default: "Hi."}}
            rules:
              - id: both
                when:
                  all:
                    - {platform: ios}
                    - {platform: android}
                then: notify
                message: hi
              - id: versions
                when:
                  all:
                    - {app-version: "< 2.0.0"}
                    - {app-version: ">= 3.0.0"}
                then: notify
                message: hi
              - id: nothing
                when: {any: []}
                then: notify
                message: hi
            """)
        let found = findings(.lintNeverMatches, diagnostics)
        #expect(found.count == 3, "\(diagnostics.map(\.description))")
        #expect(found.map(\.range.start.line) == [6, 13, 19])
        #expect(found.map(\.range.start.column) == [7, 7, 11])
        #expect(found[0].message.contains("platform conditions contradict"))
        #expect(found[0].notes.map(\.range.start.line) == [7, 8])
        #expect(found[1].message.contains("app-version conditions contradict"))
        #expect(found[2].message.contains("empty any"))
    }

    /// Regions and attribute values that no launch has together: each entry's list, met with the others of its kind.
    @Test func regionsAndAttributesWithNoValueInCommonNeverMatch() {
        let diagnostics = lint("""
            policy: 1
            messages: {hi: {default: "Hi."}}
            rules:
              - {id: regions, then: notify, message: hi, when: {all: [{region: [SE, DK]}, {region: [no, fi]}]}}
              - id: plans
                when: {all: [{attributes: {plan: [pro]}}, {attributes: {plan: [team], tier: a}}]}
                then: notify
                message: hi
              - id: overlap
                when:
                  all:
                    - {region: [SE, DK]}
                    - {region: [dk]}
                    - {attributes: {plan: [pro, team]}}
                    - {attributes: {plan: team}}
                then: notify
                message: hi
            """)
        let found = findings(.lintNeverMatches, diagnostics)
        #expect(found.map(\.range.start.line) == [4, 6], "\(diagnostics.map(\.description))")
        #expect(found.first?.message.contains("its region conditions contradict") == true)
        #expect(found.last?.message.contains("its attributes conditions contradict") == true)
    }

    /// Ranges no single interval holds (alternatives, exclusions) are compared range by range: contradicting
    /// ones are reported, and ones that share a version are not.
    @Test func rangesWithAlternativesOrExclusionsContradictRangeByRange() {
        // Each rule's `all` of two app-version ranges, and whether they contradict.
        let pairs = [
            ("< 1.0.0 || > 5.0.0", ">= 2.0.0 < 3.0.0", true),
            ("!= 2.0.0", "= 2.0.0", true),
            ("< 1.0.0 || > 5.0.0", ">= 4.0.0 < 6.0.0", false),
        ]
        let rules = pairs.indices.map { index in
            "  - id: rule-\(index)\n    when:\n      all:\n        - {app-version: \"\(pairs[index].0)\"}\n"
                + "        - {app-version: \"\(pairs[index].1)\"}\n    then: notify\n    message: hi\n"
        }
        let diagnostics = lint("policy: 1\nmessages: {hi: {default: \"Hi.\"}}\nrules:\n" + rules.joined())
        let found = findings(.lintNeverMatches, diagnostics)
        // Each rule takes 7 lines from line 4; its `all` is the third.
        let expected = pairs.indices.filter { pairs[$0].2 }.map { 6 + 7 * $0 }
        #expect(found.map(\.range.start.line) == expected, "\(diagnostics.map(\.description))")
        #expect(found.allSatisfy { $0.message.contains("app-version conditions contradict") })
    }

    /// When the ranges of several keys contradict, the finding names the first key alphabetically, whatever the
    /// order written.
    @Test func theFirstContradictingKeyAlphabeticallyIsNamed() {
        for order in [["os-version", "app-version"], ["app-version", "os-version"]] {
            let entries = order.flatMap { key in ["        - {\(key): \"< 2\"}", "        - {\(key): \">= 3\"}"] }
            let yaml = "policy: 1\nmessages: {hi: {default: \"Hi.\"}}\nrules:\n  - id: versions\n    when:\n      all:\n"
                + entries.joined(separator: "\n") + "\n    then: notify\n    message: hi\n"
            let diagnostics = lint(yaml)
            let found = findings(.lintNeverMatches, diagnostics)
            #expect(found.count == 1, "\(diagnostics.map(\.description))")
            #expect(found.first?.message.contains("app-version conditions contradict") == true, "\(order)")
            #expect(found.first?.notes.count == 2)
        }
    }

    @Test func conditionsThatCanHoldTogetherAreNotReported() {
        let diagnostics = lint("""
            policy: 1
            messages: {hi: {default: "Hi."}}
            rules:
              - id: overlap
                when:
                  all:
                    - {app-version: ">= 2.0.0"}
                    - {app-version: "< 3.0.0"}
                    - {locale: [pt]}
                    - {locale: [pt-BR]}
                    - {platform: [ios, android]}
                    - {platform: ios}
                then: notify
                message: hi
              - id: off
                when: {rollout: 0%}
                then: notify
                message: hi
            """)
        #expect(findings(.lintNeverMatches, diagnostics).isEmpty, "\(diagnostics.map(\.description))")
    }

    /// Locale conditions under one `all` hold together when one locale holds a tag of each, perhaps one no list
    /// names: `zh-Hans-TW` holds `zh-Hans` and, without its script, `zh-TW`.
    @Test(arguments: [
        ("[zh-Hans]", "[zh-TW]", true), ("[zh-TW]", "[zh-Hant]", true), ("[sr-Latn]", "[sr_RS]", true),
        ("[zh-Hant, ja]", "[zh-HK-x-hk, ko]", true), ("[pt]", "[pt-BR]", true), ("[zh]", "[zh-Hans]", true),
        ("[zh-Hant]", "[zh-Hans]", false), ("[zh-CN]", "[zh-TW]", false), ("[zh-Hant-TW]", "[zh-CN]", false),
        ("[sr-Latn]", "[sr-Cyrl-RS]", false), ("[ja]", "[pt]", false), ("[zh-Hans]", "[ja-JP]", false),
        ("[iw]", "[he-IL]", true), ("[in]", "[iw]", false),
    ])
    func localeConditionsHoldTogetherWhenOneLocaleHoldsBoth(first: String, second: String, together: Bool) {
        let diagnostics = lint("""
            policy: 1
            messages: {hi: {default: "Hi."}}
            rules:
              - id: both
                when: {all: [{locale: \(first)}, {locale: \(second)}]}
                then: notify
                message: hi
            """)
        let found = findings(.lintNeverMatches, diagnostics)
        #expect(found.count == (together ? 0 : 1), "\(diagnostics.map(\.description))")
        #expect(found.allSatisfy { $0.message.contains("locale") })
    }

    /// Locale lists are compared tag by tag, so past a bound (a file may list a hundred thousand tags) lint proves
    /// nothing of them rather than take time as the square or cube of their number: lists that cannot hold
    /// together are reported below the bound and left alone above it, and so is a rule one such list shadows.
    @Test(arguments: [(30, true), (300, false)])
    func longLocaleListsAreLeftUnproven(tags: Int, reported: Bool) {
        let scripts = (0..<tags).map { "zh-Hant-x-\($0)" }.joined(separator: ", ")
        let regions = (0..<tags).map { "zh-CN-x-\($0)" }.joined(separator: ", ")
        let diagnostics = lint("""
            policy: 1
            store: {ios: "https://a", android: "https://b"}
            messages: {hi: {default: "Hi."}}
            rules:
              - id: both
                when: {all: [{locale: [\(scripts)]}, {locale: [\(regions)]}]}
                then: notify
                message: hi
              - {id: early, when: {locale: [\(regions)]}, then: block, message: hi}
              - {id: late, when: {locale: [\(regions)]}, then: block, message: hi}
            """)
        let never = findings(.lintNeverMatches, diagnostics)
        #expect(never.count == (reported ? 1 : 0), "\(diagnostics.map(\.description))")
        #expect(findings(.lintShadowedRule, diagnostics).count == (reported ? 1 : 0))
    }

    @Test func aGateInsideAnEarlierGateIsShadowed() {
        let diagnostics = lint("""
            policy: 1
            store: {ios: "https://apps.apple.com/app/id1"}
            messages: {up: {default: "Update."}}
            rules:
              - id: below-3
                when: {platform: ios, app-version: "< 3.0.0"}
                then: require-update
                message: up
              - id: below-2
                when: {platform: ios, app-version: "< 2.0.0", region: [NO, SE]}
                then: block
                message: up
            """)
        let found = expectOne(.lintShadowedRule, at: 9, 9, severity: .warning, in: diagnostics)
        #expect(found?.message.contains("\"below-3\"") == true)
        #expect(found?.notes.first?.range.start.line == 5)
    }

    @Test func aWiderOrDifferentLaterRuleIsNotShadowed() {
        let diagnostics = lint("""
            policy: 1
            store: {ios: "https://apps.apple.com/app/id1", android: "https://play.google.com/store/apps/details?id=a"}
            messages: {up: {default: "Update."}}
            rules:
              - id: below-2
                when: {platform: ios, app-version: "< 2.0.0"}
                then: require-update
                message: up
              - id: below-3
                when: {platform: ios, app-version: "< 3.0.0"}
                then: require-update
                message: up
              - id: staged
                when: {platform: ios, app-version: "< 3.0.0", rollout: 50%}
                then: suggest-update
                message: up
              - id: staged-again
                when: {platform: ios, app-version: "< 3.0.0", rollout: 50%}
                then: suggest-update
                message: up
              - id: note-a
                when: {platform: ios}
                then: notify
                message: up
              - id: note-b
                when: {platform: ios, app-version: "< 2.0.0"}
                then: notify
                message: up
            """)
        #expect(findings(.lintShadowedRule, diagnostics).isEmpty, "\(diagnostics.map(\.description))")
    }

    @Test func aPromptInsideAnEarlierPromptIsShadowed() {
        let diagnostics = lint("""
            policy: 1
            store: {android: "https://play.google.com/store/apps/details?id=a"}
            messages: {up: {default: "Update."}}
            rules:
              - id: any-android
                when: {platform: android}
                then: suggest-update
                message: up
              - id: old-android
                when: {platform: android, build: "< 100"}
                then: suggest-update
                message: up
            """)
        let found = expectOne(.lintShadowedRule, at: 9, 9, severity: .warning, in: diagnostics)
        #expect(found?.message.contains("may not be shown again yet") == true)
    }

    @Test func aWindowThatEndedIsReported() {
        let diagnostics = lint("""
            policy: 1
            messages: {hi: {default: "Hi."}}
            rules:
              - id: last-week
                when: {date: {until: "2026-11-13T00:00:00Z"}}
                then: notify
                message: hi
              - id: next-week
                when: {date: {until: "2026-11-27T00:00:00Z"}}
                then: notify
                message: hi
              - id: negated
                when: {not: {date: {until: "2026-11-13T00:00:00Z"}}}
                then: notify
                message: hi
            """)
        let found = expectOne(.lintEndedWindow, at: 5, 18, severity: .warning, in: diagnostics)
        #expect(found?.message.contains("2026-11-13T00:00:00.000Z") == true)
    }

    /// A window shared through an alias is one window: reported once where it is written, whether the rule reaches
    /// it first under a `not` or outside one, and not at all when every use is under a `not`.
    @Test func aSharedWindowThatEndedIsReportedOnceWhereverItIsFirstReached() {
        let diagnostics = lint("""
            policy: 1
            messages: {hi: {default: "Hi."}}
            rules:
              - id: both
                when:
                  any:
                    - not: &ended {date: {until: "2026-11-13T00:00:00Z"}}
                    - all: [*ended, *ended]
                then: notify
                message: hi
              - id: negated
                when:
                  any:
                    - not: &negated {date: {until: "2026-11-12T00:00:00Z"}}
                    - not: *negated
                then: notify
                message: hi
            """)
        expectOne(.lintEndedWindow, at: 7, 30, severity: .warning, in: diagnostics)
    }

    @Test func aBlockWindowLongerThanTheMaximumIsReported() {
        let yaml = """
            policy: 1
            messages: {down: {default: "Down."}}
            rules:
              - id: typo
                when: {date: {from: "2026-12-01T02:00:00Z", until: "2026-12-11T06:00:00Z"}}
                then: block
                message: down
              - id: short
                when: {date: {from: "2026-12-01T02:00:00Z", until: "2026-12-01T06:00:00Z"}}
                then: block
                message: down
              - id: notice
                when: {date: {from: "2026-12-01T02:00:00Z", until: "2026-12-31T06:00:00Z"}}
                then: notify
                message: down
            """
        let found = expectOne(.lintLongBlockWindow, at: 5, 18, severity: .warning, in: lint(yaml))
        #expect(found?.message.contains("10.2 days") == true)
        #expect(found?.message.contains("24 hours maximum") == true)
        let relaxed = LintConfiguration(maximumBlockWindow: 14 * 86_400)
        #expect(findings(.lintLongBlockWindow, lint(yaml, configuration: relaxed)).isEmpty)
        let strict = LintConfiguration(maximumBlockWindow: 3_600)
        #expect(findings(.lintLongBlockWindow, lint(yaml, configuration: strict)).count == 2)
    }

    @Test func aMessageMissingALocaleOthersHaveIsReported() {
        let diagnostics = lint("""
            policy: 1
            messages:
              up: {default: "Update.", de: "Aktualisieren.", ja: "更新"}
              down: {default: "Down.", de: "Gewartet."}
              hi: {default: "Hi.", DE: "Hallo.", ja_JP: "こんにちは", ja: "やあ"}
            rules:
              - {id: a, then: notify, message: up}
              - {id: b, then: notify, message: down}
              - {id: c, then: notify, message: hi}
            """)
        let found = expectOne(.lintMissingTranslation, at: 4, 3, severity: .warning, in: diagnostics)
        #expect(found?.message.contains("no ja and ja_JP text") == true)
        #expect(found?.notes.map(\.range.start.line) == [3, 5])
        #expect(found?.notes.map(\.message) == ["\"up\" has ja", "\"hi\" has ja_JP"])
        // `hi` lacks nothing (`DE` is `de`), and `up` lacks no ja_JP text: its `ja` serves ja-JP users.
    }

    /// A text of a language written in several scripts serves the tags of its likely script however they are
    /// written (`sr-Cyrl` serves `sr-RS` and `sr`, `sr-Latn` serves `sr-ME`), and only those: a Latin text
    /// leaves Serbian users in Cyrillic its default.
    @Test func aTextServesTheTagsOfItsLikelyScript() {
        let diagnostics = lint("""
            policy: 1
            messages:
              cyrillic: {default: "Hi.", sr-Cyrl: "Здраво", sr-Latn: "Zdravo"}
              android: {default: "Hi.", sr-RS: "Здраво", sr-ME: "Zdravo", sr: "Здраво"}
              latin: {default: "Hi.", sr-Latn: "Zdravo"}
            rules:
              - {id: a, then: notify, message: cyrillic}
              - {id: b, then: notify, message: android}
              - {id: c, then: notify, message: latin}
            """)
        // `cyrillic` lacks nothing; nor does `android`, whose `sr` text sr-Latn users see, the language's own;
        // `latin` lacks every Cyrillic tag, and not sr-ME.
        let found = findings(.lintMissingTranslation, diagnostics)
        #expect(found.map(\.range.start.line) == [5], "\(found.map(\.description))")
        #expect(found.first?.message.contains("has no sr, sr-Cyrl and sr-RS text") == true,
            "\(found.first?.message ?? "")")
    }

    /// Messages each in a locale of its own miss every other's: a missing translation names and notes 20 locales,
    /// and says how many more; and the check looks at a bounded number of message and locale pairs, in file order.
    /// Without the bounds, 3,000 such messages took lint 19.6 s and 2.3 GB.
    @Test func missingTranslationsAreNamedAndCheckedWithinBounds() throws {
        let yaml = "policy: 1\nmessages:\n" + (0..<30).map { "  m\($0): {default: t, en-x-\($0 + 100): t}\n" }.joined()
            + "rules:\n" + (0..<29).map { "  - {id: r\($0), then: notify, message: m\($0)}\n" }.joined()
        let found = findings(.lintMissingTranslation, lint(yaml))
        #expect(found.count == 30)
        let first = try #require(found.first)
        #expect(first.message.hasPrefix("the message \"m0\" has no "
            + (101...120).map { "en-x-\($0)" }.joined(separator: ", ") + " and 9 more text, which other messages"))
        #expect(first.notes.map(\.message) == (101...120).map { "\"m\($0 - 100)\" has en-x-\($0)" })

        let checks = try Self.checks(yaml)
        let missing = { (pairs: Int) in
            checks.messages(translationPairs: pairs).filter { $0.code == .lintMissingTranslation }
                .map(\.range.start.line)
        }
        #expect(missing(30 * 30) == Array(3..<33))
        #expect(missing(10 * 30 + 29) == Array(3..<13))
        // The unused-message check is not bounded with it: m29 is shown by no rule.
        #expect(checks.messages(translationPairs: 0).map(\.code) == [.lintUnusedMessage])
    }

    /// The checks of a policy without errors, to run one of them with a bound of the test's own.
    private static func checks(_ yaml: String) throws -> PolicyChecks {
        let policy = try #require(YAMLPolicyParser().parse(Data(yaml.utf8)).usablePolicy)
        return PolicyChecks(policy: policy, format: .policyLanguage, now: lintNow, maximumBlockWindow: 86_400,
            scalars: ScalarIndex())
    }

    /// The shadowing check compares a bounded number of pairs of alternatives, in file order, and claims nothing
    /// past them: gates of 251 alternatives each, 250 of them shared, took lint 37 s.
    @Test func shadowingIsCheckedWithinAComparisonBudget() throws {
        let yaml = """
            policy: 1
            messages: {m: {default: m}}
            rules:
              - {id: first, when: {platform: ios}, then: block, message: m}
              - {id: second, when: {platform: ios, app-version: "< 2"}, then: block, message: m}
              - {id: third, when: {platform: ios, app-version: "< 3"}, then: block, message: m}
            """
        #expect(findings(.lintShadowedRule, lint(yaml)).map(\.range.start.line) == [5, 6])
        let checks = try Self.checks(yaml)
        let shadowed = { (pairs: Int) in
            checks.reachability(shadowingComparisons: pairs).filter { $0.code == .lintShadowedRule }
                .map(\.range.start.line)
        }
        // Each gate's alternatives against those of every earlier gate: `second` makes one pair, `third` two more.
        #expect(shadowed(3) == [5, 6])
        #expect(shadowed(2) == [5])
        #expect(shadowed(0) == [])
    }

    @Test func aLocaleWrittenTwoWaysInOneMessageIsNamedByTheSpellingThatSortsFirst() {
        // Whatever order the message's table keeps its keys in, the report names the same spelling.
        let diagnostics = lint("""
            policy: 1
            messages:
              both: {default: "Both.", pt_BR: "Olá.", pt-br: "Oi."}
              none: {default: "None."}
            rules:
              - {id: a, then: notify, message: both}
              - {id: b, then: notify, message: none}
            """)
        let found = expectOne(.lintMissingTranslation, at: 4, 3, severity: .warning, in: diagnostics)
        #expect(found?.message.contains("no pt-br text") == true, "\(found?.message ?? "")")
        #expect(found?.notes.map(\.message) == ["\"both\" has pt-br"])
    }

    /// `he` and `iw` are one locale (``ValueSyntax/subtags(of:holding:)``): a message with either has it, and one
    /// with neither lacks it once, named by the spelling that sorts first.
    @Test func aLocaleUnderItsCodeBefore1989IsOneLocale() {
        let diagnostics = lint("""
            policy: 1
            messages:
              current: {default: "Hi.", he: "שלום"}
              android: {default: "Hi.", iw: "שלום"}
              neither: {default: "Hi."}
            rules:
              - {id: a, then: notify, message: current}
              - {id: b, then: notify, message: android}
              - {id: c, then: notify, message: neither}
            """)
        let found = expectOne(.lintMissingTranslation, at: 5, 3, severity: .warning, in: diagnostics)
        #expect(found?.message.contains("has no he text, which other messages have; users with that language") == true,
            "\(found?.message ?? "")")
        #expect(found?.notes.map(\.message) == ["\"current\" has he"])
        #expect(findings(.lintDuplicateTranslation, diagnostics).isEmpty)
    }

    /// Two texts for one language tag, however written (`pt-BR`, `pt_BR`, `PT-br`; `he` and `iw`, its code before
    /// 1989, which Android gives): the interpreter shows the one that sorts first, whichever the user's locale, and
    /// the other never. Each unseen one is reported at its tag, with a note at the one shown; a message that has
    /// its locale once is not, and neither is one whose locales differ only past the language (`he` and `he-IL`).
    @Test func aMessageWithTwoTextsForOneLocaleIsReportedAtTheOneNeverShown() throws {
        let text = """
            policy: 1
            messages:
              hi:
                default: "Hi."
                pt_BR: "Oi."
                he: "שלום"
                PT-br: "Olá."
                iw: "היי"
                pt-BR: "E aí."
              once: {default: "Once.", in: "Halo", he-IL: "שלום", he: "היי", pt-BR: "Oi.", iw_IL: "x"}
            rules:
              - {id: a, then: notify, message: hi}
              - {id: b, then: notify, message: once}
            """
        let found = findings(.lintDuplicateTranslation, lint(text))
        #expect(found.map(\.range.start.line) == [5, 8, 9, 10], "\(found.map(\.description))")
        #expect(found.allSatisfy { $0.severity == .warning })
        // PT-br sorts before pt-BR and pt_BR (by code point, as the interpreter sorts), he before iw; and `once`'s
        // he-IL before iw_IL.
        #expect(found.map { $0.notes.map(\.range.start.line) } == [[7], [6], [7], [10]])
        #expect(found[0].message == "the message \"hi\" has texts for both PT-br and pt_BR, the same language tag; "
            + "only the PT-br text is ever shown, so keep one")
        #expect(found[1].message == "the message \"hi\" has texts for both he and iw, the same language: iw is he's "
            + "code before 1989, which Java and Android still give; only the he text is ever shown, so keep one")
        #expect(found[3].message.hasPrefix(
            "the message \"once\" has texts for both he-IL and iw_IL, the same language"))
        // The one reported at line 10 points into the flow mapping, at iw_IL.
        #expect(found[3].range.start.column == 80)
        #expect(found[3].notes.first?.message == "the he-IL text, which is shown, is here")

        // A message that is an alias of another's texts has its tags there: it is reported at its id.
        let aliased = findings(.lintDuplicateTranslation, lint("""
            policy: 1
            messages:
              first: &texts {default: "Hi.", pt-BR: "Oi.", pt_BR: "Olá."}
              second: *texts
            rules:
              - {id: a, then: notify, message: first}
              - {id: b, then: notify, message: second}
            """))
        #expect(aliased.map { [$0.range.start.line, $0.range.start.column] } == [[3, 48], [4, 3]])
        #expect(aliased.last?.notes.map(\.range.start.line) == [4])

        // What the interpreter shows, for each spelling of the locale.
        let policy = PolicyDecoder().decode(try #require(YAMLReader().read(text).root)).policy
        let hi = try #require(policy.messages.first { $0.id == "hi" })
        for locale in ["pt_BR", "pt-BR", "PT-BR"] { #expect(hi.text(for: locale) == "Olá.") }
        for locale in ["he", "iw", "iw_IL", "he-IL"] { #expect(hi.text(for: locale) == "שלום") }
    }

    @Test func aMessageNoRuleShowsIsANote() {
        let diagnostics = lint("""
            policy: 1
            messages:
              used: {default: "Used."}
              forgotten: {default: "Forgotten."}
            rules:
              - {id: a, then: notify, message: used}
            """)
        expectOne(.lintUnusedMessage, at: 4, 3, severity: .note, in: diagnostics)
    }

    @Test func aPartialVersionThatReadsTwoWaysIsReportedAtTheVersion() {
        let diagnostics = lint("""
            policy: 1
            messages: {hi: {default: "Hi."}}
            rules:
              - id: a
                when: {app-version: ">= 1.0.0 <= 2.4"}
                then: notify
                message: hi
              - id: b
                when: {app-version: "< 2.4 || 3.x"}
                then: notify
                message: hi
            """)
        let found = expectOne(.lintAmbiguousVersion, at: 5, 38, severity: .warning, in: diagnostics)
        #expect(found?.range.end.column == 41)
        #expect(found?.message.contains("<= 2.4 means <2.5.0") == true)
    }

    @Test func aRangeOfAThousandPartialVersionsIsReportedAtEachWithShortMessages() {
        // 1,000 alternatives, each a partial version: one warning each, pointing at it. Each message quoted the whole
        // range, and finding each position walked the range from its start through Foundation: seconds a range.
        let alternatives = (0..<1_000).map { "\($0 / 100).\($0 % 100)" }
        let diagnostics = lint("""
            policy: 1
            messages: {hi: {default: "Hi."}}
            rules:
              - id: a
                when: {app-version: "\(alternatives.joined(separator: " || "))"}
                then: notify
                message: hi
            """)
        let found = diagnostics.filter { $0.code == .lintAmbiguousVersion }
        #expect(found.count == 1_000)
        #expect(found.allSatisfy { $0.message.utf8.count < 300 })
        #expect(found.first?.message.hasPrefix("app-version \"0.0 || 0.1 || ") == true)
        // The last one stands where its text does on the line.
        let line = "    when: {app-version: \"" + alternatives.joined(separator: " || ")
        let column = line.count - alternatives[999].count + 1
        #expect(found.last?.range.start.line == 5)
        #expect(found.last?.range.start.column == column)
        #expect(found.last?.range.end.column == column + alternatives[999].count)
    }

    @Test func anOriginalVersionThatLooksLikeAMarketingVersionOnIOSIsANote() {
        let diagnostics = lint("""
            policy: 1
            rules:
              - id: paid
                when: {platform: ios, original-app-version: "< 2.0"}
                then: grant
                entitlements: [premium]
              - id: paid-builds
                when: {platform: ios, original-app-version: "< 140"}
                then: grant
                entitlements: [premium]
              - id: paid-mac
                when: {platform: macos, original-app-version: "< 2.0"}
                then: grant
                entitlements: [premium]
            """)
        let found = expectOne(.lintOriginalVersionIsBuild, at: 4, 49, severity: .note, in: diagnostics)
        #expect(found?.message.contains("CFBundleVersion") == true)
    }

    @Test(arguments: [
        ("< 2.0", true), ("=1.0", true), ("1.2", true), ("~1.2", true), ("^1.2", true), ("<=1.0 || >= 300", true),
        (">= 300 || 1.4.2", true), ("< 140", false), ("< 1.2.3.4", false), ("< 2.0.0.0", false), ("< 1 || < 2", false),
        (">=140 <150", false),
    ])
    func anOriginalVersionLooksLikeAMarketingVersionWithTwoOrThreeNumbers(text: String, looksLikeOne: Bool) {
        let diagnostics = lint("""
            policy: 1
            rules:
              - id: paid
                when: {platform: ios, original-app-version: "\(text)"}
                then: grant
                entitlements: [premium]
            """)
        #expect(diagnostics.contains { $0.code == .lintOriginalVersionIsBuild } == looksLikeOne, "\(diagnostics)")
    }

    @Test func anUpdateRuleWithoutALinkForItsPlatformIsReported() {
        let diagnostics = lint("""
            policy: 1
            store: {ios: "https://apps.apple.com/app/id1"}
            messages: {up: {default: "Update."}}
            rules:
              - id: android-old
                when: {platform: [android, ios, macos], build: "< 100"}
                then: require-update
                message: up
              - id: ios-old
                when: {platform: ios, app-version: "< 2.0.0"}
                then: suggest-update
                message: up
              - id: with-url
                when: {platform: android, build: "< 90"}
                then: suggest-update
                message: up
                url: "https://example.com/update"
            """)
        let found = expectOne(.lintMissingUpdateURL, at: 7, 11, severity: .warning, in: diagnostics)
        // The platforms without a URL, named in the order they are declared, not as written.
        #expect(found?.message.contains("store has no URL for macos and android") == true, "\(found?.message ?? "")")
    }

    /// iPadOS users are sent to the iOS store URL when the policy has none of their own, as the interpreter does:
    /// a rule for iPads is missing a URL only when both are.
    @Test func iPadsUseTheIOSStoreURL() throws {
        func missing(store: String) -> [Diagnostic] {
            findings(.lintMissingUpdateURL, lint("""
                policy: 1
                store: {\(store)}
                messages: {up: {default: "Update."}}
                rules:
                  - {id: tablets, when: {platform: [ios, ipados]}, then: suggest-update, message: up}
                """))
        }
        #expect(missing(store: "ios: \"https://apps.apple.com/app/id1\"").isEmpty)
        #expect(missing(store: "ipados: \"https://apps.apple.com/app/id1\"").first?.message
            .contains("store has no URL for ios") == true)
        #expect(missing(store: "android: \"https://play.google.com/store/apps/details?id=a\"").first?.message
            .contains("store has no URL for ios and ipados") == true)
        // The interpreter sends an iPad to the iOS URL.
        let policy = try #require(YAMLPolicyParser().parse(Data("""
            policy: 1
            store: {ios: "https://apps.apple.com/app/id1"}
            messages: {up: {default: "Update."}}
            rules:
              - {id: tablets, when: {platform: ipados}, then: require-update, message: up}
            """.utf8)).usablePolicy)
        let decision = policy.evaluate(try LaunchContext(platform: .ipados, appVersion: "1.0"))
        #expect(decision.gate?.url == "https://apps.apple.com/app/id1")
    }

    /// A platform one alternative names needs its URL even when another alternative names none: the rule below
    /// sends Android users with the pro plan to no store. Before, the alternative without a platform made the rule
    /// one "for every platform", which any store URL satisfied. Found by `LintSoundnessTests`.
    @Test func aPlatformOneAlternativeNamesNeedsItsURLWhateverTheOthersName() {
        let diagnostics = findings(.lintMissingUpdateURL, lint("""
            policy: 1
            store: {ios: "https://apps.apple.com/app/id1"}
            messages: {up: {default: "Update."}}
            rules:
              - id: pro
                when: {any: [{attributes: {plan: pro}, platform: android}, {launch-count: "> 10"}]}
                then: suggest-update
                message: up
              - {id: everyone, when: {launch-count: "> 20"}, then: suggest-update, message: up}
            """))
        #expect(diagnostics.map(\.range.start.line) == [7])
        #expect(diagnostics.first?.message.contains("store has no URL for android") == true)
    }

    @Test func launchGateFilesAreNotAskedForStoreURLs() {
        let report = PolicyLinter(now: lintNow).lint(Array("""
            {"ios": {"requiredUpdate": {"minimumVersion": "2.0", "message": "Update."}}}
            """.utf8), path: "config.json")
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics.map(\.description))")
    }

    @Test func checksRunOnlyOnPoliciesWithoutErrors() {
        let diagnostics = lint("""
            policy: 1
            messages: {forgotten: {default: "x"}}
            rules:
              - {id: a, then: notfy}
            """)
        #expect(diagnostics.contains { $0.code == .policyInvalidValue })
        #expect(findings(.lintUnusedMessage, diagnostics).isEmpty)
    }
}
