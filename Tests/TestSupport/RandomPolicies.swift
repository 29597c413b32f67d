import Foundation
import LaunchPolicy

/// Random policies whose rules contain and contradict each other, and random launches drawn from the values their
/// ranges turn on: for tests that hold two parts of the library to each other's answers (lint's claims and the
/// interpreter, the launch path and the explanation).
public enum RandomPolicies {
    /// One value or range of each condition key, most of them near the edges of the others, and a few that read
    /// the same text two ways (`2` and `2.0.0`, a prerelease, a missing field under `not`).
    public static let conditionEntries: [(key: String, values: [String])] = [
        ("platform", ["ios", "android", "[ios, android]", "ipados"]),
        ("app-version", ["\"< 2\"", "\"< 2.4\"", "\">= 2\"", "\">= 2.4 < 3\"", "\"2.x\"", "\"<= 2.4\"", "\"> 2.4\"",
            "\"2.4.1\"", "\"!= 2.4.1\"", "\"*\"", "\"1.x || >= 3\"", "\">= 3 < 2\"", "\"2.4 - 2.6\"",
            "\">= 2.4.0-rc.1 < 2.5\"", "\"< 3.0.0-0\"", "\"^2.4\"", "\"~2.4.0\"", "\"< 2.4.0-rc.1\"", "\"2.4.x\"",
            "\"> 2.4.0-beta <= 2.4.0\"",
            // Ranges at the edge of empty: empty for one versioning and not the other, or only by a version's
            // successor.
            "\"> 2.4.1 < 2.4.2\"", "\">= 2.5 < 2.5.0\"", "\">= 2.4.1 <= 2.4.1\"", "\"< 0\"", "\"2.4.1 - 2.4.0\""]),
        ("previous-version", ["\"< 2\"", "\">= 2.4\"", "\"2.x\""]),
        ("install-version", ["\"< 2.4\"", "\">= 2\""]),
        ("build", ["\"< 100\"", "\">= 100\"", "\"50 - 150\"", "\"!= 100\"", "\"> 150\""]),
        ("os-version", ["\"< 15\"", "\">= 16.2\""]),
        ("original-app-version", ["\"< 140\"", "\">= 140\""]),
        ("launch", ["first", "upgrade", "[downgrade, normal]"]),
        ("launch-count", ["\"< 3\"", "\">= 3\"", "\"1\"", "\"> 10\""]),
        ("days-since-last-launch", ["\"< 7\"", "\">= 30\""]),
        ("days-since-install", ["\"< 7\"", "\">= 7\""]),
        ("launch-source", ["organic", "[url, shortcut]"]),
        // Chinese, Serbian and Kazakh by script and by region, which hold each other one way and not the other.
        ("locale", ["ja", "[pt-BR, de]", "pt", "[pt-br, ja_JP]", "zh-Hant", "[zh-TW, zh-HK]", "zh-CN", "zh-Hans",
            "[zh-Hans-CN, sr-RS]", "sr-Latn", "zh", "sr-Cyrl", "[sr-ME, uz-Arab]", "kk-Arab", "[kk-CN, mn-Mong]"]),
        ("region", ["\"NO\"", "[SE, JP]", "[se]"]),
        ("date", ["{until: \"2026-11-01T00:00:00Z\"}",
            "{from: \"2026-12-01T00:00:00Z\", until: \"2026-12-20T00:00:00Z\"}", "{from: \"2026-12-01T00:00:00Z\"}",
            "{until: \"2026-12-01T06:00:00Z\"}"]),
        ("rollout", ["\"0%\"", "\"50%\"", "\"100%\""]),
        ("attributes", ["{plan: pro}", "{plan: [free, trial]}", "{plan: [pro, team], tier: gold}"]),
    ]

    /// The values a launch may have, key by key: those each range above turns on and those beside them.
    public static let contextValues: [(key: String, values: [String])] = [
        ("platform", ["ios", "android", "ipados"]),
        ("app-version", ["1.0", "1.9.9", "2", "2.0.0", "2.3.9", "2.4", "2.4.0-beta", "2.4.0-rc.1", "2.4.0", "2.4.1",
            "2.5", "2.6.0", "2.6.1", "2.9.9", "3.0.0-alpha", "3", "3.1", "10.0", "2.4.0-beta.2", "2.4.9",
            "2.4.2-0", "2.4.2-alpha", "0", "0.0.0", "2.5.0-rc.1"]),
        // Versions as both versionings read them: a SemVer policy's ranges hold only versions of three parts.
        ("previous-version", ["1.0", "1.0.0", "1.9.9", "2", "2.0.0", "2.3.9", "2.4", "2.4.0", "2.4.1", "3.0.0"]),
        ("install-version", ["1.0", "1.0.0", "2.0.0", "2.4", "2.4.0", "2.5", "2.5.0"]),
        ("build", ["49", "50", "99", "100", "101", "150", "151"]),
        ("os-version", ["14.9", "15", "16.2", "17"]),
        ("original-app-version", ["139", "140", "141"]),
        ("launch", ["first", "upgrade", "downgrade", "normal"]),
        ("launch-count", ["0", "1", "2", "3", "10", "11"]),
        ("days-since-last-launch", ["0", "6", "7", "29", "30"]),
        ("days-since-install", ["0", "6", "7", "8"]),
        ("launch-source", ["organic", "url", "shortcut", "other"]),
        ("locale", ["ja", "ja-JP", "pt", "pt-BR", "pt-PT", "de", "en", "zh", "zh-TW", "zh-Hant-TW", "zh-Hans-TW",
            "zh-CN", "zh-Hans-CN", "zh-Hant", "zh-HK", "sr-Latn-RS", "sr-RS", "sr", "sr-ME", "uz-AF", "uz-Latn-UZ",
            "kk-CN", "kk-KZ", "kk-Arab-KZ", "mn-CN"]),
        ("region", ["NO", "SE", "JP", "US"]),
        ("now", ["2026-10-31T23:59:59Z", "2026-11-01T00:00:00Z", "2026-11-20T12:00:00Z", "2026-12-01T00:00:00Z",
            "2026-12-01T05:59:59Z", "2026-12-01T06:00:00Z", "2026-12-19T23:59:59Z", "2026-12-20T00:00:00Z"]),
        ("install-id", ["a", "b", "c", "d", "e", "f", "g", "h"]),
    ]

    /// A condition as a flow mapping: entries with different keys, and now and then `all`, `any` or `not` around
    /// smaller conditions, two levels deep.
    public static func condition(depth: Int, using random: inout SeededGenerator) -> String {
        var parts: [String] = []
        var keys = Set<String>()
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let entry = conditionEntries.randomElement(using: &random)!
            guard keys.insert(entry.key).inserted else { continue }
            parts.append("\(entry.key): \(entry.values.randomElement(using: &random)!)")
        }
        if depth < 2, Int.random(in: 0..<3, using: &random) == 0 {
            let combinator = ["all", "any", "not"].randomElement(using: &random)!
            let inner = { (random: inout SeededGenerator) in condition(depth: depth + 1, using: &random) }
            switch combinator {
            case "not": parts.append("not: \(inner(&random))")
            default: parts.append("\(combinator): [\(inner(&random)), \(inner(&random))]")
            }
        }
        return "{" + parts.joined(separator: ", ") + "}"
    }

    /// A policy of rules whose conditions share keys and values, so that they contain and contradict each other; on
    /// either versioning, and with conditions written once under an anchor and used again through aliases.
    public static func policy(using random: inout SeededGenerator) -> String {
        var yaml = "policy: 1\nstore: {ios: \"https://a\", ipados: \"https://a\", android: \"https://b\"}\n"
        if Bool.random(using: &random) { yaml += "versioning: semver\n" }
        yaml += "messages:\n  m: {default: \"x\"}\nrules:\n"
        var anchors = 0
        for index in 0..<Int.random(in: 2...7, using: &random) {
            let action = ["block", "require-update", "suggest-update", "notify", "grant"].randomElement(using: &random)!
            yaml += "  - id: r\(index)\n"
            switch Int.random(in: 0..<10, using: &random) {
            case 0: break
            case 1 where anchors > 0: yaml += "    when: *c\(Int.random(in: 0..<anchors, using: &random))\n"
            case 2 where anchors > 0:
                let alias = "*c\(Int.random(in: 0..<anchors, using: &random))"
                yaml += "    when: {all: [\(alias), \(condition(depth: 1, using: &random))]}\n"
            case 3:
                yaml += "    when: &c\(anchors) \(condition(depth: 0, using: &random))\n"
                anchors += 1
            default: yaml += "    when: \(condition(depth: 0, using: &random))\n"
            }
            yaml += "    then: \(action)\n" + (action == "grant" ? "    entitlements: [e]\n" : "    message: m\n")
        }
        return yaml
    }

    /// A launch: each key present or not, so that missing fields, which make their entries false, are tried too.
    /// `fixed` holds values every such launch has.
    public static func launch(using random: inout SeededGenerator, fixed: [String: String] = [:]) -> Launch? {
        var values: [String: ContextValue] = fixed.mapValues { .text($0) }
        for (key, choices) in contextValues where fixed[key] == nil
            && (Int.random(in: 0..<6, using: &random) > 0 || key == "now")
        {
            values[key] = .text(choices.randomElement(using: &random)!)
        }
        values["attributes"] = attributes(using: &random)
        return (try? LaunchContext(values: values)).map { (values, $0) }
    }

    /// An app's attributes: a plan, a tier, both or none.
    public static func attributes(using random: inout SeededGenerator) -> ContextValue? {
        var attributes: [String: String] = [:]
        if Bool.random(using: &random) { attributes["plan"] = ["pro", "free", "team"].randomElement(using: &random)! }
        if Bool.random(using: &random) { attributes["tier"] = ["gold", "silver"].randomElement(using: &random)! }
        return attributes.isEmpty ? nil : .map(attributes)
    }

    /// A launch's values as written, and the context made of them.
    public typealias Launch = (values: [String: ContextValue], context: LaunchContext)

    /// A launch's values as a failure names them: `app-version=2.4.1 platform=ios`.
    public static func described(_ launch: Launch) -> String {
        launch.values.sorted { $0.key < $1.key }.map { key, value in
            switch value {
            case .text(let text): "\(key)=\(text)"
            case .list(let items): "\(key)=\(items)"
            case .map(let map): "\(key)=\(map.sorted { $0.key < $1.key })"
            }
        }.joined(separator: " ")
    }
}
