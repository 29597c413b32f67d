import Foundation
@testable import LaunchPolicy
import Testing

@Suite struct LaunchContextTests {
    @Test(arguments: [
        (["app-version": "2.x"], "app-version", "2.x"),
        (["app-version": ""], "app-version", ""),
        (["app-version": "1.2-beta+"], "app-version", "1.2-beta+"),
        (["build": "12a"], "build", "12a"),
        (["os-version": "17.4.1.2"], "os-version", "17.4.1.2"),
        (["previous-version": "two"], "previous-version", "two"),
        (["install-version": "1..2"], "install-version", "1..2"),
        (["original-app-version": "v12"], "original-app-version", "v12"),
        (["platform": "windows"], "platform", "windows"),
        (["launch": "second"], "launch", "second"),
        (["launch-source": "push"], "launch-source", "push"),
        (["launch-count": "-1"], "launch-count", "-1"),
        (["days-since-install": "3.5"], "days-since-install", "3.5"),
        (["locale": "en-"], "locale", "en-"),
        (["locale": "1"], "locale", "1"),
        (["region": "NOR"], "region", "NOR"),
        (["region": "41"], "region", "41"), (["region": "4190"], "region", "4190"), (["region": "N1"], "region", "N1"),
        (["region": " "], "region", " "),
        (["now": "2026-11-20"], "now", "2026-11-20"),
        (["now": "2026-02-30T00:00:00Z"], "now", "2026-02-30T00:00:00Z"),
        (["app-verison": "2.0"], "app-verison", ""),
    ])
    func invalidValuesAreRefusedWhenTheContextIsBuilt(values: [String: String], key: String, value: String) {
        let error = #expect(throws: LaunchContextError.self) { try context(values) }
        #expect(error?.key == key)
        #expect(error?.value == value)
        #expect(error?.reason.isEmpty == false)
    }

    @Test func errorsSayWhatAValidValueLooksLike() {
        #expect(throws: LaunchContextError(key: "app-version", value: "2.x",
            reason: "'x' at position 3 is not allowed; a marketing version is 1 to 3 dot-separated numbers, such as 2.4 or 2.4.1"))
        {
            try LaunchContext(appVersion: "2.x")
        }
        let typo = #expect(throws: LaunchContextError.self) { try context(["app-verison": "2.0"]) }
        #expect(typo?.reason == "it is not a context key; did you mean app-version?")
    }

    @Test func semverAndMarketingAppVersionsAreBothAccepted() throws {
        #expect(try LaunchContext(appVersion: "2.4.1-beta.2").appVersion == "2.4.1-beta.2")
        #expect(try LaunchContext(appVersion: "2.4").appVersion == "2.4")
        #expect(try LaunchContext(build: "2.4.1.7").build == "2.4.1.7")
    }

    @Test func anAppVersionNotOfThePolicysKindFailsItsEntriesWithAReason() throws {
        let semver = try policy("""
            policy: 1
            versioning: semver
            messages: {m: {default: "m"}}
            rules: [{id: r, when: {app-version: "< 2.0.0"}, then: notify, message: m}]
            """)
        let decision = semver.evaluate(try LaunchContext(appVersion: "1.5"))
        guard case .notMatched(let finding) = decision.explanation[0].outcome else {
            Issue.record("1.5 is not a semver version")
            return
        }
        #expect(finding.message == "app-version 1.5 is not a semver version")
        #expect(semver.evaluate(try LaunchContext(appVersion: "1.5.0-rc.1")).notices.count == 1)
    }
}

/// Every condition key, written so that it would hold for a full context.
private let everyKey = """
    policy: 1
    messages: {m: {default: "m"}}
    rules:
      - {id: platform, when: {platform: ios}, then: notify, message: m, show: every-launch}
      - {id: app-version, when: {app-version: ">= 1"}, then: notify, message: m, show: every-launch}
      - {id: previous-version, when: {previous-version: ">= 1"}, then: notify, message: m, show: every-launch}
      - {id: install-version, when: {install-version: ">= 1"}, then: notify, message: m, show: every-launch}
      - {id: build, when: {build: ">= 1"}, then: notify, message: m, show: every-launch}
      - {id: os-version, when: {os-version: ">= 1"}, then: notify, message: m, show: every-launch}
      - {id: original-app-version, when: {original-app-version: ">= 1"}, then: notify, message: m, show: every-launch}
      - {id: launch, when: {launch: [first, upgrade, downgrade, normal]}, then: notify, message: m, show: every-launch}
      - {id: launch-count, when: {launch-count: ">= 0"}, then: notify, message: m, show: every-launch}
      - {id: days-since-last-launch, when: {days-since-last-launch: ">= 0"}, then: notify, message: m, show: every-launch}
      - {id: days-since-install, when: {days-since-install: ">= 0"}, then: notify, message: m, show: every-launch}
      - {id: launch-source, when: {launch-source: organic}, then: notify, message: m, show: every-launch}
      - {id: locale, when: {locale: en}, then: notify, message: m, show: every-launch}
      - {id: region, when: {region: GB}, then: notify, message: m, show: every-launch}
      - {id: rollout, when: {rollout: "100%"}, then: notify, message: m, show: every-launch}
      - {id: attributes, when: {attributes: {plan: pro}}, then: notify, message: m, show: every-launch}
      - {id: date, when: {date: {until: "2030-01-01T00:00:00Z"}}, then: notify, message: m, show: every-launch}
    """

@Suite struct MissingContextTests {
    private let full: [String: String] = [
        "platform": "ios", "app-version": "2.0", "previous-version": "1.9", "install-version": "1.0", "build": "200",
        "os-version": "17.4", "original-app-version": "12", "launch": "upgrade", "launch-count": "4",
        "days-since-last-launch": "2", "days-since-install": "90", "launch-source": "organic", "locale": "en-GB",
        "region": "gb", "install-id": "A1",
    ]

    @Test func aFullContextMatchesEveryEntry() throws {
        let decision = try policy(everyKey).evaluate(context(full, attributes: ["plan": "pro"]))
        #expect(decision.explanation.filter { !$0.matched }.map(\.rule) == [])
    }

    @Test func eachMissingFieldMakesItsEntryFalseNeverAnError() throws {
        let policy = try policy(everyKey)
        for key in full.keys.sorted() {
            var values = full
            values[key] = nil
            let decision = policy.evaluate(try context(values, attributes: ["plan": "pro"]))
            let failed = decision.explanation.filter { !$0.matched }
            let expectedRule = key == "install-id" ? "rollout" : key
            #expect(failed.map(\.rule) == [expectedRule], "without \(key)")
            if case .notMatched(let finding) = failed.first?.outcome {
                #expect(finding.message.contains("is not in the context"), "\(finding.message)")
                #expect(finding.value == nil)
            }
        }
        let withoutAttribute = policy.evaluate(try context(full, attributes: ["tier": "pro"]))
        #expect(withoutAttribute.explanation.filter { !$0.matched }.map(\.rule) == ["attributes"])
        #expect(withoutAttribute.explanation(of: "attributes")?.summary == "does not match: attribute plan is not in the context")
    }
}

/// Regions as the platforms give them: Android gives `419` (Latin America) as the country of `es-419`, and an empty
/// country for a locale without one. Either made the context throw, so that user's launch had nothing to evaluate.
@Suite struct RegionTests {
    private let regions = """
        policy: 1
        messages: {m: {default: "m"}}
        rules:
          - {id: latin-america, when: {region: ["419", MX]}, then: notify, message: m}
          - {id: unknown, when: {not: {region: [MX, "419", "NO"]}}, then: notify, message: m}
        """

    @Test func aThreeDigitAreaIsARegion() throws {
        let decision = try policy(regions).evaluate(context(["region": "419"]))
        #expect(decision.explanation(of: "latin-america")?.matched == true)
        #expect(decision.explanation(of: "unknown")?.matched == false)
        #expect(try context(["region": "419"]).region == "419")
    }

    @Test func anEmptyRegionIsUnknown() throws {
        let context = try context(["region": ""])
        #expect(context.region == nil)
        let decision = try policy(regions).evaluate(context)
        // Unknown, not an invalid region: its entries are false, and so `not` around one holds.
        guard case .notMatched(let finding) = decision.explanation(of: "latin-america")?.outcome else {
            Issue.record("an unknown region held a condition on it")
            return
        }
        #expect(finding.message.contains("region is not in the context"), "\(finding.message)")
        #expect(decision.explanation(of: "unknown")?.matched == true)
    }

    @Test(arguments: ["4190", "41", "N1", "NOR"])
    func aConditionOnAnythingElseIsRefused(region: String) throws {
        let result = YAMLPolicyParser().parse(Data("""
            policy: 1
            messages: {m: {default: "m"}}
            rules:
              - {id: r, when: {region: ["\(region)"]}, then: notify, message: m}
            """.utf8))
        let errors = result.diagnostics.filter { $0.severity == .error }
        #expect(errors.map(\.code) == [.policyInvalidValue])
        #expect(errors.first?.message.contains("three digits such as 419") == true)
    }
}

@Suite struct DateWindowTests {
    private let window = """
        policy: 1
        messages: {m: {default: "m"}}
        rules:
          - id: window
            when: {date: {from: "2026-12-01T02:00:00Z", until: "2026-12-01T06:00:00+00:00"}}
            then: block
            message: m
        """

    @Test(arguments: [
        ("2026-12-01T01:59:59.999Z", false),
        ("2026-12-01T02:00:00Z", true),
        ("2026-12-01T03:00:00+01:00", true),
        ("2026-12-01T05:59:59.999Z", true),
        ("2026-12-01T06:00:00Z", false),
        ("2026-12-01T07:00:00+01:00", false),
    ])
    func fromIsInclusiveAndUntilExclusive(now: String, blocked: Bool) throws {
        let decision = try policy(window).evaluate(context(["now": now]))
        #expect((decision.gate != nil) == blocked)
    }

    @Test func theExplanationQuotesTheTimeAndTheBound() throws {
        let decision = try policy(window).evaluate(context(["now": "2026-12-01T06:00:00Z"]))
        #expect(decision.explanation[0].summary
            == "does not match: now 2026-12-01T06:00:00.000Z is not before until 2026-12-01T06:00:00.000Z")
    }
}

@Suite struct LocaleTests {
    private let messages = """
        policy: 1
        messages:
          m: {default: "Hello", ja: "こんにちは", ja-JP: "こんにちは（日本）", pt: "Olá", zh-Hant: "你好", he: "שלום", id: "Halo"}
        rules:
          - {id: greet, then: notify, message: m}
          - {id: japanese, when: {locale: ja}, then: notify, message: m}
        """

    @Test(arguments: [
        ("ja-JP", "こんにちは（日本）"), ("ja_jp", "こんにちは（日本）"), ("ja-Latn-JP", "こんにちは"), ("ja", "こんにちは"),
        ("pt-BR", "Olá"), ("zh-Hant-TW", "你好"), ("zh-Hans", "Hello"), ("jav", "Hello"), ("en", "Hello"),
    ])
    func textsFallBackTagByTagToDefault(locale: String, text: String) throws {
        let decision = try policy(messages).evaluate(context(["locale": locale]))
        #expect(decision.notices.first?.text == text)
    }

    /// Apps pass what the platform gives: Apple's `Locale.current.identifier` carries keywords when the user chose
    /// a calendar or a region of their own (`ja_JP@calendar=japanese`), and Android's `Locale.toString()` a script
    /// (`zh_TW_#Hant`). Both were refused, so such a user's launch had no context to evaluate.
    @Test(arguments: [
        ("ja_JP@calendar=japanese", "ja_JP", "こんにちは（日本）", true), ("en_US@rg=gbzzzz", "en_US", "Hello", false),
        ("zh_TW_#Hant", "zh-Hant-TW", "你好", false), ("zh__#Hant", "zh-Hant", "你好", false),
        ("ja_JP_#Jpan_u-ca-japanese", "ja-Jpan-JP-u-ca-japanese", "こんにちは", true),
        ("ja_JP_#Jpan-u-ca-japanese", "ja-Jpan-JP-u-ca-japanese", "こんにちは", true),
        // Android 14's regional preferences put extensions in the default locale, with no script before them.
        ("ja_JP_#u-fw-mon-mu-celsius", "ja-JP-u-fw-mon-mu-celsius", "こんにちは（日本）", true),
        ("th_TH_TH_#u-nu-thai", "th-TH-TH-u-nu-thai", "Hello", false),
        ("zh_TW_#Hant_x-java", "zh-Hant-TW-x-java", "你好", false),
        // Java's and Android's codes for Hebrew, Indonesian and Yiddish, which tags write `he`, `id` and `yi`.
        ("iw_IL", "iw_IL", "שלום", false), ("IW", "IW", "שלום", false),
        ("in_ID_#u-nu-latn", "in-ID-u-nu-latn", "Halo", false), ("ji", "ji", "Hello", false),
        ("iwa", "iwa", "Hello", false), ("ja", "ja", "こんにちは", true),
    ])
    func platformIdentifiersAreTakenAsThePlatformsGiveThem(identifier: String, tag: String, text: String, ja: Bool)
        throws
    {
        let context = try context(["locale": identifier])
        #expect(context.locale == tag)
        let decision = try policy(messages).evaluate(context)
        #expect(decision.notices.first?.text == text)
        #expect(decision.explanation(of: "japanese")?.matched == ja)
        // A message's text for the identifier, asked without a context, is the same.
        #expect(try policy(messages).message("m")?.text(for: identifier) == text)
        let error = #expect(throws: LaunchContextError.self) { try LaunchContext(locale: "@calendar=japanese") }
        #expect(error?.value == "@calendar=japanese")
    }

    /// Chinese tags name the script (`zh-Hant-TW`, as iOS gives them) or leave it to the region (`zh-TW`, as Android
    /// often does), and a policy may be written either way: each finds the other's texts before the language's.
    @Test(arguments: [
        ("zh-TW", "繁體"), ("zh_HK", "繁體"), ("zh-MO", "繁體"), ("zh-Hant-TW", "繁體"), ("zh-CN", "简体"), ("zh-SG", "简体"),
        ("zh", "中文"), ("zh-Hans-TW", "简体"), ("zh-Hant", "繁體"),
    ])
    func chineseTextsByScriptAreFoundFromARegion(locale: String, text: String) throws {
        let scripts = """
            policy: 1
            messages:
              m: {default: "Hello", zh: "中文", zh-Hant: "繁體", zh-Hans: "简体"}
            rules:
              - {id: greet, then: notify, message: m}
            """
        #expect(try policy(scripts).evaluate(context(["locale": locale])).notices.first?.text == text)
    }

    @Test(arguments: [("zh-Hant-TW", "台灣"), ("zh-Hans-CN", "中国"), ("zh-Hans", "Hello"), ("zh-Hans-TW", "Hello")])
    func chineseTextsByRegionAreFoundFromAScript(locale: String, text: String) throws {
        let regions = """
            policy: 1
            messages:
              m: {default: "Hello", zh-TW: "台灣", zh-CN: "中国"}
            rules:
              - {id: greet, then: notify, message: m}
            """
        #expect(try policy(regions).evaluate(context(["locale": locale])).notices.first?.text == text)
    }

    /// Serbian, Uzbek, Kazakh, Mongolian, Hindi and the other languages CLDR writes in more than one script are found
    /// as Chinese is: a tag without a script finds the texts of its region's likely script before the language's
    /// (`sr-ME` is Latin, `sr-RS` Cyrillic), and a tag whose script is not its region's finds only its own. A
    /// language written in one script reads a script as written: `ja-JP` does not find `ja-Jpan`.
    @Test(arguments: [
        ("sr-RS", "Здраво"), ("sr", "Здраво"), ("sr_BA", "Здраво"), ("sr-ME", "Zdravo"), ("SR-me", "Zdravo"),
        ("sr-Latn-RS", "Zdravo"), ("sr-Cyrl-ME", "Здраво"), ("sr_ME_#Latn", "Zdravo"), ("uz-UZ", "Salom"),
        ("uz-AF", "سلام"), ("uz", "Salom"), ("pa-IN", "ਸਤਿ ਸ੍ਰੀ ਅਕਾਲ"), ("pa-PK", "سلام"), ("yue-HK", "你好"),
        ("yue-CN", "你好（简）"), ("ja-JP", "Hello"), ("bs-BA", "Zdravo"), ("kk-KZ", "Сәлем"), ("kk-CN", "سالەم"),
        ("kk-Arab-KZ", "سالەم"), ("mn-CN", "ᠰᠠᠶᠢᠨ"), ("mn-MN", "Сайн"), ("ms-MY", "Hai"), ("ms-CC", "هاي"),
        ("hi-IN", "नमस्ते"), ("hi-Latn-IN", "Namaste"), ("ha-SD", "سنّو"), ("ha-NG", "Sannu"),
    ])
    func textsOfALanguageWrittenInSeveralScriptsAreFoundFromARegion(locale: String, text: String) throws {
        let scripts = """
            policy: 1
            messages:
              m:
                default: "Hello"
                sr-Cyrl: "Здраво"
                sr-Latn: "Zdravo"
                bs-Latn: "Zdravo"
                uz-Latn: "Salom"
                uz-Arab: "سلام"
                pa: "ਸਤਿ ਸ੍ਰੀ ਅਕਾਲ"
                pa-Arab: "سلام"
                yue: "你好"
                yue-Hans: "你好（简）"
                ja-Jpan: "こんにちは"
                kk-Cyrl: "Сәлем"
                kk-Arab: "سالەم"
                mn: "Сайн"
                mn-Mong: "ᠰᠠᠶᠢᠨ"
                ms-Latn: "Hai"
                ms-Arab: "هاي"
                hi-Deva: "नमस्ते"
                hi-Latn: "Namaste"
                ha: "Sannu"
                ha-Arab: "سنّو"
            rules:
              - {id: greet, then: notify, message: m}
            """
        #expect(try policy(scripts).evaluate(context(["locale": locale])).notices.first?.text == text)
    }

    /// iOS names the script of every Chinese locale (`zh-Hans_CN`), Android seldom does (`zh_CN`), and a policy may
    /// name either: a tag with a script holds the condition written without it (RFC 4647's extended filtering),
    /// and Chinese without one holds its region's script, as its texts are found.
    @Test(arguments: [
        ("zh-Hans_CN", "zh-CN", true), ("zh-Hant-TW", "zh-TW", true), ("zh-Hans-TW", "zh-TW", true),
        ("zh_TW_#Hant", "zh-TW", true), ("sr-Latn-RS", "sr-RS", true), ("zh-Hant-HK-x-a", "zh-HK-x-a", true),
        ("zh-TW", "zh-Hant", true), ("zh_HK", "zh-Hant-HK", true), ("zh-CN", "zh-Hans", true), ("zh", "zh-Hans", true),
        ("zh-TW", "zh-Hans", false), ("zh-Hans-TW", "zh-Hant", false), ("zh-Hant", "zh-TW", false),
        ("zh", "zh-CN", false), ("zh-Hans", "zh-CN", false), ("sr-RS", "sr-Latn", false), ("en-US", "en-Latn", false),
        ("zh-Hant-TW", "zh-Hans", false), ("zh-Hans-CN", "zh-Hant", false),
        ("sr-RS", "sr-Cyrl", true), ("sr", "sr-Cyrl", true), ("sr-ME", "sr-Latn", true), ("sr-ME", "sr-Cyrl", false),
        ("sr-Latn-RS", "sr-Cyrl", false), ("uz_AF", "uz-Arab", true), ("uz-UZ", "uz-Latn-UZ", true),
        ("yue-CN", "yue-Hans", true), ("ja-JP", "ja-Jpan", false), ("srp-RS", "sr-Cyrl", false),
        ("kk-CN", "kk-Arab", true), ("kk-KZ", "kk-Arab", false), ("kk-KZ", "kk-Cyrl", true), ("mn-CN", "mn-Mong", true),
        ("mn", "mn-Mong", false), ("ms-CC", "ms-Arab", true), ("hi-IN", "hi-Deva", true), ("hi-IN", "hi-Latn", false),
        ("ha_SD", "ha-Arab", true),
    ])
    func localeConditionsHoldForTagsWithAndWithoutAScript(locale: String, tag: String, holds: Bool) throws {
        let yaml = """
            policy: 1
            messages: {m: {default: "Hello"}}
            rules:
              - {id: tagged, when: {locale: [\(tag)]}, then: notify, message: m}
            """
        let decision = try policy(yaml).evaluate(context(["locale": locale]))
        #expect(decision.explanation(of: "tagged")?.matched == holds)
        #expect(decision.notices.isEmpty == !holds)
    }

    /// Android names Hebrew `iw` (and Indonesian `in`, Yiddish `ji`), the codes ISO 639 replaced; iOS and language
    /// tags name it `he`. A policy written either way serves users of both, in texts and in conditions.
    @Test(arguments: [
        ("iw", "he-IL"), ("iw", "iw_IL"), ("he", "iw_IL"), ("HE", "IW-il"), ("in", "id-ID"), ("id", "in"),
    ])
    func legacyLanguageCodesAreTheLanguagesTheyNamed(written: String, locale: String) throws {
        let yaml = """
            policy: 1
            messages: {m: {default: "Hello", \(written): "native"}}
            rules:
              - {id: native, when: {locale: [\(written)]}, then: notify, message: m}
            """
        let decision = try policy(yaml).evaluate(context(["locale": locale]))
        #expect(decision.explanation(of: "native")?.matched == true)
        #expect(decision.notices.first?.text == "native")
        // Not every code that starts alike: `iwa`, `ind`.
        let other = try policy(yaml).evaluate(context(["locale": locale.hasPrefix("i") ? "iwa" : "ind"]))
        #expect(other.explanation(of: "native")?.matched == false)
        #expect(other.notices.isEmpty)
    }

    /// Tags are compared over their bytes where they lie when both have them in one piece, and byte by byte
    /// otherwise (a string bridged from Objective-C, any other collection): the answers are the same, for
    /// locales, legacy language codes and regions alike.
    @Test func tagsReadInPlaceAndByteByByteCompareTheSame() {
        let tags = ["", "p", "pt", "PT", "pt-BR", "pt_br", "pt-PT", "pt-BR-x", "ptx", "de", "de-AT", "iw", "he",
            "he-IL", "iw_IL", "in", "id-ID", "ji", "yi", "iwa", "zh-Hant-TW", "zh-hant", "es-419", "BR", "br", "419"]
        for tag in tags {
            for locale in tags {
                let inPlace = ValueSyntax.subtags(of: tag.utf8, holding: locale.utf8)
                let byteByByte = ValueSyntax.subtags(of: AnyCollection(tag.utf8), holding: AnyCollection(locale.utf8))
                #expect(byteByByte == inPlace, "\(tag) holding \(locale)")
                #expect(ValueSyntax.subtags(of: tag.utf8, holding: AnyCollection(locale.utf8)) == inPlace)
                #expect(ValueSyntax.subtags(of: AnyCollection(tag.utf8), holding: locale.utf8) == inPlace)
                #expect(ValueSyntax.sameRegion(tag, locale)
                    == ValueSyntax.sameRegion(bytes: AnyCollection(tag.utf8), AnyCollection(locale.utf8)))
            }
        }
        // What the two paths agree on is right.
        #expect(ValueSyntax.subtags(of: "pt".utf8, holding: "pt-BR".utf8) == 1)
        #expect(ValueSyntax.subtags(of: "pt_br".utf8, holding: "PT-BR".utf8) == 2)
        #expect(ValueSyntax.subtags(of: "he".utf8, holding: "iw_IL".utf8) == 1)
        #expect(ValueSyntax.subtags(of: "p".utf8, holding: "pt".utf8) == nil)
        #expect(ValueSyntax.sameRegion("br", "BR") && !ValueSyntax.sameRegion("BR", "BRA"))
    }

    @Test func withoutALocaleTheDefaultTextShows() throws {
        #expect(try policy(messages).evaluate(context([:])).notices.first?.text == "Hello")
    }

    @Test(arguments: [("ja", true), ("ja-JP", true), ("JA_jp", true), ("jav", false), ("en", false)])
    func localeConditionsMatchWholeSubtags(locale: String, matches: Bool) throws {
        let decision = try policy(messages).evaluate(context(["locale": locale]))
        #expect(decision.explanation(of: "japanese")?.matched == matches)
    }
}
