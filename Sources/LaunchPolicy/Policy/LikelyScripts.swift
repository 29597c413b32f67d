/// The script a language is written in where CLDR's locales write it in more than one (Serbian in Cyrillic and in
/// Latin, Chinese in Simplified and Traditional characters), by region, as CLDR's likely subtags have it: `sr` and
/// `sr-RS` are Cyrillic, `sr-ME` Latin; `uz` is Latin, `uz-AF` Arabic; `zh` is Simplified, `zh-TW` Traditional.
///
/// A tag may name its script (`sr-Latn-RS`, as iOS gives it) or leave it to the language and region (`sr-RS`, as
/// Android gives it, and `zh-TW`), and a policy may write its texts and conditions either way. ``LocaleLookup`` and
/// `locale` conditions read a tag without a script also with its likely one (``ValueSyntax/alternateLocale(of:)``),
/// so that a text written for `sr-Cyrl` serves `sr-RS`. For every other language a tag is read as written: a script
/// there names no other form a policy writes.
enum LikelyScripts {
    /// A language written in several scripts: the script of its tags without a region, and of every region not
    /// listed in `regions`.
    private struct Language {
        /// The language subtag, lower-case, packed as ``code(ofLanguageIn:)`` packs it.
        let code: UInt32
        let script: String
        /// The regions (upper-case) where it is written in another script, and that script.
        let regions: [Region]

        init(_ language: String, _ script: String, _ regions: [Region] = []) {
            code = LikelyScripts.code(ofLanguageIn: language) ?? 0
            self.script = script
            self.regions = regions
        }
    }

    private struct Region {
        let codes: [String]
        let script: String

        init(_ codes: [String], _ script: String) {
            self.codes = codes
            self.script = script
        }
    }

    /// The languages whose CLDR locales are named with a script (`sr_Latn`, `uz_Arab`, `kk_Arab`: the locales of
    /// CLDR's JSON data), as each is written in more than one, and the script CLDR's likely subtags give each (CLDR
    /// 45), with the regions where that differs. English is left out (`en_Dsrt`, `en_Shaw`: Deseret and Shavian,
    /// which no platform offers as a locale): every English launch would work out a second form of its tag for texts
    /// no policy writes. Sorted by code, for ``entry(for:)``'s binary search.
    private static let languages: [Language] = [
        Language("az", "Latn", [Region(["IQ", "IR"], "Arab"), Region(["RU"], "Cyrl")]),  // Azerbaijani
        Language("bal", "Arab"),  // Balochi
        Language("bm", "Latn"),  // Bambara
        Language("bs", "Latn"),  // Bosnian
        Language("ff", "Latn"),  // Fula
        Language("ha", "Latn", [Region(["CM", "SD"], "Arab")]),  // Hausa
        Language("hi", "Deva"),  // Hindi
        // Hmong Njua
        Language("hnj", "Hmnp", [Region(["AU", "CN", "FR", "GF", "LA", "MM", "SR", "TH", "VN"], "Laoo")]),
        Language("iu", "Cans"),  // Inuktitut
        Language("kaa", "Cyrl"),  // Karakalpak
        Language("kk", "Cyrl", [Region(["AF", "CN", "IR", "MN"], "Arab")]),  // Kazakh
        Language("kok", "Deva"),  // Konkani
        Language("ks", "Arab"),  // Kashmiri
        Language("kxv", "Latn"),  // Kuvi
        Language("mn", "Cyrl", [Region(["CN"], "Mong")]),  // Mongolian
        Language("mni", "Beng"),  // Manipuri
        Language("ms", "Latn", [Region(["CC"], "Arab")]),  // Malay
        Language("pa", "Guru", [Region(["PK"], "Arab")]),  // Punjabi
        Language("rhg", "Rohg"),  // Rohingya
        Language("sat", "Olck"),  // Santali
        Language("sd", "Arab", [Region(["IN"], "Deva")]),  // Sindhi
        Language("shi", "Tfng"),  // Tachelhit
        Language("sr", "Cyrl", [Region(["ME", "RO", "RU", "TR"], "Latn")]),  // Serbian
        Language("su", "Latn"),  // Sundanese
        Language("uz", "Latn", [Region(["AF"], "Arab"), Region(["CN"], "Cyrl")]),  // Uzbek
        Language("vai", "Vaii"),  // Vai
        Language("yue", "Hant", [Region(["CN"], "Hans")]),  // Cantonese
        Language("zh", "Hans", [Region(["TW", "HK", "MO"], "Hant")]),  // Chinese
    ].sorted { $0.code < $1.code }

    /// Whether a tag's language is written in several scripts, read from its first bytes: nearly every tag's is not.
    static func hasSeveralScripts(_ tag: String) -> Bool {
        code(ofLanguageIn: tag).flatMap(entry(for:)) != nil
    }

    /// The likely script of `language` in `region` (nil: the tag has none), or nil for a language written in one
    /// script. Case does not matter.
    static func script(language: some StringProtocol, region: (some StringProtocol)?) -> String? {
        guard let entry = code(ofLanguageIn: String(language)).flatMap(entry(for:)) else { return nil }
        guard let region = region?.uppercased() else { return entry.script }
        return entry.regions.first { $0.codes.contains(region) }?.script ?? entry.script
    }

    /// The language of `code`, found in five steps among the table's 28, where a walk of the table asked every tag of
    /// another language 28 times.
    private static func entry(for code: UInt32) -> Language? {
        let index = languages.partitionPoint { $0.code >= code }
        return index < languages.endIndex && languages[index].code == code ? languages[index] : nil
    }

    /// A tag's language subtag (its bytes up to the first `-` or `_`) packed into a number, lower-case, when it is
    /// two or three ASCII letters; nil otherwise. Over the text's bytes in place: through a generic collection of
    /// bytes, each was a call.
    private static func code(ofLanguageIn tag: String) -> UInt32? {
        tag.utf8.withContiguousStorageIfAvailable(code(ofLanguageIn:)) ?? code(ofLanguageIn: Array(tag.utf8))
    }

    private static func code(ofLanguageIn tag: some Collection<UInt8>) -> UInt32? {
        var code: UInt32 = 0
        var length = 0
        for byte in tag {
            if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") { break }
            let lower = byte | 0x20
            guard length < 3, lower >= UInt8(ascii: "a"), lower <= UInt8(ascii: "z") else { return nil }
            code = code << 8 | UInt32(lower)
            length += 1
        }
        return length >= 2 ? code : nil
    }
}
