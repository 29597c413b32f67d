import Foundation
@testable import LaunchPolicy
import Testing
import TestSupport

/// A text's lookup, held to the list of tags RFC 4647's lookup tries, written out here the plain way: the tag and
/// each shorter one, and for a language written in several scripts the other form's tags before the language alone.
/// `LocaleLookup` works out a key's place without the list, which for a tag of thousands of subtags cost time and
/// memory as its square.
@Suite struct LocaleLookupTests {
    /// The likely script of the languages `randomTag` draws that are written in several, by region (lower-cased), as
    /// CLDR has it; nil for a language written in one.
    static func likelyScript(_ language: String, region: String?) -> String? {
        switch (language, region) {
        case ("zh", "tw"?), ("zh", "hk"?), ("zh", "mo"?): return "hant"
        case ("zh", _): return "hans"
        case ("sr", "me"?): return "latn"
        case ("sr", _): return "cyrl"
        case ("uz", "af"?): return "arab"
        case ("uz", "cn"?): return "cyrl"
        case ("uz", _): return "latn"
        case ("kk", "cn"?), ("kk", "af"?), ("kk", "ir"?), ("kk", "mn"?): return "arab"
        case ("kk", _): return "cyrl"
        case ("mn", "cn"?): return "mong"
        case ("mn", _): return "cyrl"
        default: return nil
        }
    }

    /// The tags tried for `tag`, best first, lower-cased with `-`: the list `LocaleLookup` must agree with.
    static func triedTags(_ tag: String) -> [String] {
        let subtags = tag.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        func prefixes(_ subtags: [String], downTo shortest: Int) -> [String] {
            guard subtags.count >= shortest else { return [] }
            return (shortest...subtags.count).reversed().map { subtags[..<$0].joined(separator: "-") }
        }
        let language = subtags[0]
        let hasScript = subtags.count > 1 && subtags[1].count == 4 && subtags[1].allSatisfy(\.isLetter)
        let regionIndex = hasScript ? 2 : 1
        let region = regionIndex < subtags.count
            && (subtags[regionIndex].count == 2 && subtags[regionIndex].allSatisfy(\.isLetter)
                || subtags[regionIndex].count == 3 && subtags[regionIndex].allSatisfy(\.isNumber))
            ? subtags[regionIndex] : nil
        guard let script = likelyScript(language, region: region) else { return prefixes(subtags, downTo: 1) }
        var other: [String] = []
        if !hasScript {
            other = [language, script] + subtags.dropFirst()
        } else if subtags[1] == script, region != nil {
            other = [language] + subtags.dropFirst(2)
        }
        var tags = subtags.count == 1 ? [language] : prefixes(subtags, downTo: 2)
        tags += prefixes(other, downTo: 2) + [language]
        var seen: Set<String> = []
        return tags.filter { seen.insert($0).inserted }
    }

    /// A tag as tags compare: lower-cased, `_` as `-`.
    static func normal(_ tag: String) -> String { tag.lowercased().replacingOccurrences(of: "_", with: "-") }

    static func randomTag(using random: inout SeededGenerator) -> String {
        var subtags = [["zh", "ZH", "ja", "sr", "pt", "uz", "Sr", "kk", "mn"].randomElement(using: &random)!]
        if Bool.random(using: &random) {
            subtags.append(["Hant", "Hans", "Latn", "hant", "Cyrl", "Arab", "Mong"].randomElement(using: &random)!)
        }
        if Int.random(in: 0..<4, using: &random) > 0 {
            subtags.append(
                ["TW", "HK", "CN", "SG", "MO", "419", "tw", "RS", "BR", "ME", "AF", "UZ", "me", "KZ", "MN", "IR"]
                    .randomElement(using: &random)!)
        }
        if Int.random(in: 0..<4, using: &random) == 0 {
            subtags += [["x", "a"], ["1996"], ["u", "ca", "x"]].randomElement(using: &random)!
        }
        return subtags.joined(separator: Int.random(in: 0..<5, using: &random) == 0 ? "_" : "-")
    }

    @Test func eachKeysPlaceIsWhereTheLookupTriesIt() {
        var random = SeededGenerator(seed: 0x10CA1E)
        var found = 0
        for _ in 0..<3_000 {
            let tag = Self.randomTag(using: &random)
            let tried = Self.triedTags(tag)
            let lookup = LocaleLookup(tag)
            var keys: [String] = []
            for _ in 0..<6 { keys.append(Self.randomTag(using: &random)) }
            // Half the time, two of the tags tried too, so that many lookups find one.
            if Bool.random(using: &random) { keys += tried.shuffled(using: &random).prefix(2) }
            for key in keys {
                let expected = tried.firstIndex(of: Self.normal(key))
                // Places are in the same order as the list's, not the same numbers.
                if let expected, let place = lookup.place(of: key) {
                    let others = keys.compactMap { other -> (Int, Int)? in
                        guard let index = tried.firstIndex(of: Self.normal(other)),
                            let otherPlace = lookup.place(of: other)
                        else { return nil }
                        return (index, otherPlace)
                    }
                    for (index, otherPlace) in others {
                        #expect((index < expected) == (otherPlace < place), "\(tag): \(key)")
                        #expect((index == expected) == (otherPlace == place), "\(tag): \(key)")
                    }
                } else {
                    #expect(expected == nil && lookup.place(of: key) == nil, "\(tag): \(key)")
                }
            }
            var translations = ["default": "default"]
            for key in keys { translations[key] = key }
            let best = keys.filter { tried.contains(Self.normal($0)) }.min { one, other in
                let places = [one, other].map { tried.firstIndex(of: Self.normal($0))! }
                return places[0] != places[1] ? places[0] < places[1] : one < other
            }
            #expect(lookup.text(in: translations) == best ?? "default", "\(tag) among \(keys)")
            if best != nil { found += 1 }
        }
        // Many lookups found a text and the others fell back to the default: both paths were tried.
        #expect(found > 1_500 && found < 3_000, "\(found)")
    }

    /// Each language of several scripts, with and without a region, and in the regions written in another script,
    /// as CLDR's likely subtags have them; a language of one script, or a tag that is no language, has none.
    @Test(arguments: [
        ("zh", nil, "Hans"), ("zh", "TW", "Hant"), ("ZH", "hk", "Hant"), ("zh", "MO", "Hant"), ("zh", "SG", "Hans"),
        ("yue", "HK", "Hant"), ("yue", "CN", "Hans"), ("sr", "RS", "Cyrl"), ("sr", "ME", "Latn"), ("sr", "BA", "Cyrl"),
        ("uz", nil, "Latn"), ("uz", "AF", "Arab"), ("uz", "CN", "Cyrl"), ("az", "AZ", "Latn"), ("az", "IR", "Arab"),
        ("az", "RU", "Cyrl"), ("pa", "IN", "Guru"), ("pa", "PK", "Arab"), ("sd", "PK", "Arab"), ("sd", "IN", "Deva"),
        ("bs", "BA", "Latn"), ("ks", "IN", "Arab"), ("mni", "IN", "Beng"), ("sat", "IN", "Olck"), ("shi", "MA", "Tfng"),
        ("vai", "LR", "Vaii"), ("ff", "SN", "Latn"), ("su", "ID", "Latn"), ("kk", "KZ", "Cyrl"), ("kk", "CN", "Arab"),
        ("kk", "AF", "Arab"), ("kk", "IR", "Arab"), ("KK", "mn", "Arab"), ("kk", nil, "Cyrl"), ("mn", "MN", "Cyrl"),
        ("mn", "CN", "Mong"), ("ms", "MY", "Latn"), ("ms", "CC", "Arab"), ("ms", "ID", "Latn"), ("ha", "NG", "Latn"),
        ("ha", "SD", "Arab"), ("ha", "CM", "Arab"), ("hi", "IN", "Deva"), ("hi", nil, "Deva"), ("kok", "IN", "Deva"),
        ("kaa", "UZ", "Cyrl"), ("iu", "CA", "Cans"), ("bal", "PK", "Arab"), ("bm", "ML", "Latn"), ("kxv", "IN", "Latn"),
        ("hnj", "US", "Hmnp"), ("hnj", "LA", "Laoo"), ("rhg", "MM", "Rohg"),
        ("en", "US", nil), ("ja", "JP", nil), ("srp", "RS", nil), ("s", nil, nil), ("zh1", nil, nil), ("", nil, nil),
    ] as [(String, String?, String?)])
    func aLanguageOfSeveralScriptsHasItsRegionsLikelyOne(language: String, region: String?, script: String?) {
        #expect(LikelyScripts.script(language: language, region: region) == script)
        #expect(LikelyScripts.hasSeveralScripts(language + (region.map { "_" + $0 } ?? "")) == (script != nil))
    }

    /// A locale of thousands of subtags, as a context or as a message's key: found as a short one is, in time and
    /// memory that grow with its length, where listing every shorter tag grew with its square.
    @Test func aLocaleOfThousandsOfSubtagsIsLookedUpAsAnyOther() throws {
        let long = "pt-BR-" + Array(repeating: "ab", count: 20_000).joined(separator: "-")
        let lookup = LocaleLookup(long)
        #expect(lookup.text(in: ["default": "d", "pt": "pt", "pt-BR": "br"]) == "br")
        #expect(lookup.text(in: ["default": "d", "pt": "pt", long: "long"]) == "long")
        #expect(lookup.place(of: long) == 0)
        #expect(lookup.place(of: "pt-BR-ab") == 20_000 - 1)
        let context = try LaunchContext(locale: "zh_TW-" + Array(repeating: "ab", count: 20_000).joined(separator: "_"))
        #expect(context.localeLookup?.text(in: ["default": "d", "zh-Hant": "hant", "zh": "zh"]) == "hant")
    }
}
