import Foundation

/// The small value syntaxes of the language: dates, durations, percentages, locale and region codes.
enum ValueSyntax {
    /// An ISO 8601 date and time with a time zone: `2026-12-01T02:00:00Z`, `2026-12-01T03:00+01:00`, fractional
    /// seconds allowed. Returns nil with the reason when the text is not one, or names a day that does not exist.
    static func date(_ text: String) -> Result<Date, DateProblem> {
        // Over the text's own bytes: a copy of them was an array made and freed for every date read.
        var contiguous = text
        return contiguous.withUTF8 { date(bytes: $0) }
    }

    private static func date(bytes: UnsafeBufferPointer<UInt8>) -> Result<Date, DateProblem> {
        var cursor = ByteCursor(bytes: bytes)
        guard let year = cursor.number(4), cursor.expect("-"), let month = cursor.number(2), cursor.expect("-"),
            let day = cursor.number(2)
        else { return .failure(.syntax) }
        guard cursor.expect("T") || cursor.expect("t") || cursor.expect(" ") else { return .failure(.noTime) }
        guard let hour = cursor.number(2), cursor.expect(":"), let minute = cursor.number(2) else {
            return .failure(.syntax)
        }
        var second = 0
        var fraction = 0.0
        if cursor.expect(":") {
            guard let value = cursor.number(2) else { return .failure(.syntax) }
            second = value
            if cursor.expect(".") {
                let digits = cursor.digits()
                guard !digits.isEmpty else { return .failure(.syntax) }
                fraction = Double("0." + String(decoding: digits, as: UTF8.self)) ?? 0
            }
        }
        var offsetSeconds: Int
        if cursor.expect("Z") || cursor.expect("z") {
            offsetSeconds = 0
        } else if let sign = cursor.expect("+") ? 1 : cursor.expect("-") ? -1 : nil {
            guard let hours = cursor.number(2) else { return .failure(.syntax) }
            _ = cursor.expect(":")  // `+09:00` and `+0900` are both ISO 8601
            guard let minutes = cursor.number(2), hours <= 23, minutes <= 59 else { return .failure(.syntax) }
            offsetSeconds = sign * (hours * 3600 + minutes * 60)
        } else if cursor.atEnd {
            return .failure(.noTimeZone)
        } else {
            return .failure(.syntax)
        }
        guard cursor.atEnd else { return .failure(.syntax) }
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let daysInMonth = switch month {
        case 2: leap ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
        guard (1...12).contains(month), day >= 1, day <= daysInMonth, hour <= 23, minute <= 59,
            second <= 59
        else { return .failure(.impossible) }
        // Days from 1970-01-01 (the civil-from-days algorithm, proleptic Gregorian).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        // The day's seconds apart from the days': where `Int` has 32 bits (Apple Watch), `days * 86_400` passes its
        // largest value after 2038-01-19 and stopped the app. Both sums are exact in a Double at any year written.
        let seconds = Double(days) * 86_400 + Double(hour * 3600 + minute * 60 + second - offsetSeconds) + fraction
        return .success(Date(timeIntervalSince1970: seconds))
    }

    enum DateProblem: Error {
        case syntax, noTime, noTimeZone, impossible

        var reason: String {
            switch self {
            case .syntax: "is not an ISO 8601 date and time such as 2026-12-01T02:00:00Z"
            case .noTime: "has no time; write a time and a time zone, such as 2026-12-01T00:00:00Z"
            case .noTimeZone: "has no time zone; add Z for UTC or an offset such as +09:00"
            case .impossible: "names a date or time that does not exist"
            }
        }
    }

    /// A duration such as `12h`, `3d`, `1w`, `90m`, `30s`, in seconds.
    static func duration(_ text: String) -> TimeInterval? {
        guard let unit = text.last, let number = Double(text.dropLast()), number > 0, number.isFinite,
            text.dropLast().allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") })
        else { return nil }
        switch unit {
        case "s": return number
        case "m": return number * 60
        case "h": return number * 3600
        case "d": return number * 86_400
        case "w": return number * 604_800
        default: return nil
        }
    }

    /// A percentage from 0 to 100, written `25%` or `25`, decimals allowed.
    static func percentage(_ text: String) -> Double? {
        // As bytes: by characters, with their Unicode properties, this cost a few thousand instructions a rollout.
        var digits = Substring(text).utf8
        if digits.last == UInt8(ascii: "%") { digits = digits.dropLast() }
        // The digits as a whole number, and how many follow the point: `12.5` is 125 and 1.
        var number: UInt64 = 0, count = 0, fractionDigits = 0, points = 0
        for byte in digits {
            if byte == UInt8(ascii: ".") {
                points += 1
            } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                if count < 15 { number = number * 10 + UInt64(byte - UInt8(ascii: "0")) }
                count += 1
                if points > 0 { fractionDigits += 1 }
            } else {
                return nil
            }
        }
        guard count > 0, points <= 1 else { return nil }
        // Up to 15 digits, the number and the power of ten are exact doubles, and their quotient is the nearest
        // double to the text, as `Double(_:)` reads it. Reading it that way cost about 1,100 instructions a rollout.
        let value = count <= 15 ? Double(number) / Self.powersOfTen[fractionDigits] : Double(Substring(digits))
        guard let value, value >= 0, value <= 100 else { return nil }
        return value
    }

    /// 10⁰ to 10¹⁵, each an exact double.
    private static let powersOfTen: [Double] = (0...15).map { exponent in
        (0..<exponent).reduce(1.0) { power, _ in power * 10 }
    }

    /// A BCP 47 language tag such as `ja`, `ja-JP`, `zh-Hant-TW` (`_` accepted for `-`).
    static func isLocaleTag(_ text: String) -> Bool {
        // Byte by byte, over the text's bytes in place: the decoder asks this for every translation of every
        // message, and walking the string's UTF-8 view cost a read of 48 rules 5K instructions more.
        var text = text
        return text.withUTF8(isLocaleTag)
    }

    private static func isLocaleTag(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var subtagLength = 0
        var isFirst = true
        for byte in bytes {
            if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") {
                guard isFirst ? subtagLength >= 2 : subtagLength >= 1 else { return false }
                isFirst = false
                subtagLength = 0
                continue
            }
            let isLetter = isASCIILetter(byte)
            let isDigit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
            guard isLetter || (isDigit && !isFirst) else { return false }
            subtagLength += 1
            if subtagLength > 8 { return false }
        }
        return isFirst ? subtagLength >= 2 : subtagLength >= 1
    }

    /// The language tag of a locale identifier as the platforms give it: Apple's `Locale.identifier` with its
    /// keywords left out (`ja_JP@calendar=japanese` is `ja_JP`, `en_US@rg=gbzzzz` is `en_US`), and Android's
    /// `Locale.toString()` with its script and extensions written as subtags, in a language tag's order
    /// (`zh_TW_#Hant` is `zh-Hant-TW`, `sr__#Latn` is `sr-Latn`, `en_US_#u-fw-mon-mu-celsius`, as Android 14 gives
    /// it when the user sets regional preferences, is `en-US-u-fw-mon-mu-celsius`, `zh_TW_#Hant_x-java` is
    /// `zh-Hant-TW-x-java`). Anything else is returned as it is.
    static func languageTag(ofPlatformLocale identifier: String) -> String {
        // Nearly every identifier has neither mark; looked for as bytes, not characters, at every launch.
        guard identifier.utf8.contains(where: { $0 == UInt8(ascii: "@") || $0 == UInt8(ascii: "#") }) else {
            return identifier
        }
        return platformTag(identifier)
    }

    /// An identifier with `@` keywords or Android's `#` script and extensions as a language tag.
    private static func platformTag(_ identifier: String) -> String {
        var tag = identifier
        if let keywords = tag.firstIndex(of: "@") { tag = String(tag[..<keywords]) }
        guard let mark = tag.range(of: "_#") ?? tag.range(of: "#") else { return tag }
        // `language[_REGION[_VARIANT]]_#[Script][_extensions]`: after the mark a script (four letters), then `_`
        // (or `-`) and the extensions; or the extensions alone (`u-…`, `x-…`, which start with a single letter).
        let parts = tag[..<mark.lowerBound].split(separator: "_", omittingEmptySubsequences: true)
        let rest = tag[mark.upperBound...]
        let first = rest.prefix { $0 != "_" && $0 != "-" }
        let isScript = first.utf8.count == 4 && first.utf8.allSatisfy(isASCIILetter)
        let script = isScript ? first : ""
        let extensions = isScript ? rest.dropFirst(first.count + 1) : rest
        guard let language = parts.first else { return tag }
        return ([language, script] + parts.dropFirst() + [extensions]).filter { !$0.isEmpty }.joined(separator: "-")
    }

    /// The number of subtags in a tag.
    static func subtagCount(_ tag: String) -> Int {
        var count = 1
        for byte in tag.utf8 where byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") { count += 1 }
        return count
    }

    /// The other form of a locale that `locale` conditions also match, or nil when it has none: with its script
    /// left out (`zh-Hans-CN` is also `zh-CN`, `sr-Latn-RS` also `sr-RS`, as RFC 4647's extended filtering reads a
    /// tag without a script), or for a language written in several scripts, without a script, with the script its
    /// region is written in (`zh-TW` is also `zh-Hant-TW`, `sr-RS` also `sr-Cyrl-RS`: ``LikelyScripts``;
    /// ``LocaleLookup`` says which).
    static func alternateLocale(of tag: String) -> String? { otherForms(of: tag).condition }

    /// The other form a text is looked up under (``LocaleLookup``), for a language written in several scripts:
    /// with the script of its region when it has none (`zh-TW`: `zh-Hant-TW`; `sr`: `sr-Cyrl`), without its script
    /// when the script is its region's (`zh-Hant-TW`: `zh-TW`); nil for a tag of another language, or whose script
    /// is not its region's (`zh-Hans-TW`, `sr-Latn-RS`), or that has a script and no region (`zh-Hant`). Where it is
    /// not nil, it is the ``alternateLocale(of:)`` that conditions match.
    static func lookupAlternate(of tag: String) -> String? { otherForms(of: tag).lookup }

    /// Both other forms of a tag, its language and subtags read once: a context works them out once, at launch.
    /// They are nil for nearly every locale, so a condition usually tests one tag.
    static func otherForms(of tag: String) -> (lookup: String?, condition: String?) {
        // Nearly every tag has no script and a language of one script: found by bytes, with no list of subtags.
        let hasSeveralScripts = LikelyScripts.hasSeveralScripts(tag)
        guard hasSeveralScripts || subtagCount(tag) > 2 else { return (nil, nil) }
        let subtags = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        if hasScript(subtags) {
            let scriptless = withoutScript(subtags)
            guard hasSeveralScripts, region(subtags) != nil,
                subtags[1].lowercased() == likelyScript(subtags)?.lowercased()
            else { return (nil, scriptless) }
            return (scriptless, scriptless)
        }
        guard hasSeveralScripts, let language = subtags.first, let script = likelyScript(subtags) else {
            return (nil, nil)
        }
        let scripted = ([language, script] + subtags.dropFirst()).joined(separator: "-")
        return (scripted, scripted)
    }

    /// Whether a `locale` condition's `tag` holds for a context's locale: the locale, or its
    /// ``alternateLocale(of:)``, lies within the tag (``locale(_:isWithin:)-(StringProtocol,_)``).
    static func locale(_ locale: String, alternate: String?, holds tag: String) -> Bool {
        self.locale(locale, isWithin: tag) || alternate.map { self.locale($0, isWithin: tag) } == true
    }

    /// Whether every locale that holds the condition tag `narrower` holds `wider` too, as far as the tags alone
    /// show: `wider` is a prefix of `narrower` (`pt-BR` within `pt`), or of `narrower` without its script
    /// (`zh-Hans-CN` within `zh-CN`). `zh-TW` does not lie within `zh-Hant` this way, as `zh-Hans-TW` holds
    /// `zh-TW` and not `zh-Hant`. Lint proves one rule shadows another with this, so it may say no where the answer
    /// is yes, never the other way.
    static func localeTag(_ narrower: String, isWithin wider: String) -> Bool {
        if locale(narrower, isWithin: wider) { return true }
        let subtags = narrower.split(whereSeparator: { $0 == "-" || $0 == "_" })
        guard hasScript(subtags), let scriptless = withoutScript(subtags) else { return false }
        return locale(scriptless, isWithin: wider)
    }

    /// A tag of a script and more, without the script (`zh-Hans-CN`: `zh-CN`); nil for a language and a script alone
    /// (`zh-Hant`), as `zh` adds nothing a tag within `zh-Hant` does not lie within already.
    private static func withoutScript<Subtag: StringProtocol>(_ subtags: [Subtag]) -> String? {
        subtags.count > 2 ? ([subtags[0]] + subtags.dropFirst(2)).joined(separator: "-") : nil
    }

    /// `tag` with the script of `other` put in after its language, when `other` has a script and `tag`, of the same
    /// language, has none and more than a language: `zh-TW` with the script of `zh-Hans` is `zh-Hans-TW`, a locale
    /// that holds both as conditions. Lint looks for a locale that holds several conditions among these.
    static func locale(_ tag: String, withScriptOf other: String) -> String? {
        let subtags = tag.split(whereSeparator: { $0 == "-" || $0 == "_" })
        let others = other.split(whereSeparator: { $0 == "-" || $0 == "_" })
        guard subtags.count > 1, !hasScript(subtags), hasScript(others), sameLocale(subtags[0], others[0]) else {
            return nil
        }
        return ([subtags[0], others[1]] + subtags.dropFirst()).joined(separator: "-")
    }

    /// Whether a tag's second subtag is a script (four letters: `Hant`, `Latn`).
    private static func hasScript<Subtag: StringProtocol>(_ subtags: [Subtag]) -> Bool {
        subtags.count > 1 && subtags[1].utf8.count == 4 && subtags[1].utf8.allSatisfy(isASCIILetter)
    }

    /// A tag's region: the subtag after the language and the script, when it is two letters or three digits.
    private static func region<Subtag: StringProtocol>(_ subtags: [Subtag]) -> Subtag? {
        let index = hasScript(subtags) ? 2 : 1
        guard index < subtags.count else { return nil }
        return isRegionCode(String(subtags[index])) ? subtags[index] : nil
    }

    /// The script a tag's language is written in, in its region, for a language written in several
    /// (``LikelyScripts``); nil for any other language.
    private static func likelyScript<Subtag: StringProtocol>(_ subtags: [Subtag]) -> String? {
        guard let language = subtags.first else { return nil }
        return LikelyScripts.script(language: language, region: region(subtags))
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    /// Whether the language tag `locale` lies within `tag`, matching by prefix on subtag boundaries: `pt-BR` lies
    /// within `pt` and `pt-BR`, not within `pt-PT` or `p`. Case does not matter and `_` counts as `-`.
    ///
    /// Byte by byte and without building strings: the interpreter asks this for every `locale` entry at launch.
    static func locale(_ locale: some StringProtocol, isWithin tag: some StringProtocol) -> Bool {
        self.locale(locale.utf8, isWithin: tag.utf8)
    }

    /// The same, over the tags' UTF-8 bytes.
    static func locale(_ locale: some Collection<UInt8>, isWithin tag: some Collection<UInt8>) -> Bool {
        subtags(of: tag, holding: locale) != nil
    }

    /// The number of subtags of `tag` when the language tag `locale` lies within it, else nil: in one pass, as a
    /// text's lookup asks both for each translation it shows (``LocaleLookup``).
    ///
    /// The languages Java and Android still give the codes ISO 639 replaced in 1989 are the same language under
    /// either code: `iw` is `he` (Hebrew), `in` is `id` (Indonesian), `ji` is `yi` (Yiddish). Android names the
    /// user's locale `iw_IL`, a policy may be written for `he` or, for Android's sake, `iw`, and either finds the
    /// other.
    static func subtags(of tag: some Collection<UInt8>, holding locale: some Collection<UInt8>) -> Int? {
        // Over the bytes where they lie, when both tags have them in one piece, as a native string's UTF-8 does:
        // walked through `String.UTF8View`'s iterator, each byte cost several times as much, and an evaluation asks
        // this for every `locale` entry and every translation of a message it shows.
        let inPlace: Int?? = tag.withContiguousStorageIfAvailable { tag in
            locale.withContiguousStorageIfAvailable { locale in subtagsOfBytes(of: tag, holding: locale) }
        } ?? nil
        return inPlace ?? subtagsOfBytes(of: tag, holding: locale)
    }

    /// ``subtags(of:holding:)``, over any collections of bytes.
    private static func subtagsOfBytes(of tag: some Collection<UInt8>, holding locale: some Collection<UInt8>) -> Int? {
        var mayBeLegacy = false
        if let subtags = matchedSubtags(of: tag, holding: locale, mayBeLegacy: &mayBeLegacy) { return subtags }
        guard mayBeLegacy else { return nil }
        let current = (withCurrentLanguageCode(tag), withCurrentLanguageCode(locale))
        guard current.0 != nil || current.1 != nil else { return nil }
        return matchedSubtags(
            of: current.0 ?? Array(tag), holding: current.1 ?? Array(locale), mayBeLegacy: &mayBeLegacy)
    }

    /// ``subtags(of:holding:)`` with the codes as written; `mayBeLegacy` is set when the tags first differ as those
    /// codes do (`i` and `h`, or `j` and `y`, first; `n` and `d` second). Nearly always they do not, and nothing
    /// more is read.
    private static func matchedSubtags(
        of tag: some Collection<UInt8>, holding locale: some Collection<UInt8>, mayBeLegacy: inout Bool
    ) -> Int? {
        var rest = locale.makeIterator()
        var subtags = 1
        var position = 0
        for byte in tag {
            let other = rest.next()
            guard let other, localeByte(other) == localeByte(byte) else {
                if position < 2, let other {
                    let pair = (min(byte | 0x20, other | 0x20), max(byte | 0x20, other | 0x20))
                    let (h, i, j, y) = (UInt8(ascii: "h"), UInt8(ascii: "i"), UInt8(ascii: "j"), UInt8(ascii: "y"))
                    mayBeLegacy = position == 0
                        ? pair == (h, i) || pair == (j, y) : pair == (UInt8(ascii: "d"), UInt8(ascii: "n"))
                }
                return nil
            }
            if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") { subtags += 1 }
            position += 1
        }
        guard let next = rest.next() else { return subtags }
        return localeByte(next) == UInt8(ascii: "-") ? subtags : nil
    }

    /// A tag whose language is `iw`, `in` or `ji` with `he`, `id` or `yi` in its place; nil for any other tag.
    private static func withCurrentLanguageCode(_ tag: some Collection<UInt8>) -> [UInt8]? {
        // Two bytes read for nearly every tag: its first is neither `i` nor `j`.
        guard let first = tag.first, first | 0x20 == UInt8(ascii: "i") || first | 0x20 == UInt8(ascii: "j") else {
            return nil
        }
        var bytes = tag.makeIterator()
        _ = bytes.next()
        guard let second = bytes.next() else { return nil }
        if let third = bytes.next(), third != UInt8(ascii: "-"), third != UInt8(ascii: "_") { return nil }
        let current: [UInt8]
        switch (first | 0x20, second | 0x20) {
        case (UInt8(ascii: "i"), UInt8(ascii: "w")): current = Array("he".utf8)
        case (UInt8(ascii: "i"), UInt8(ascii: "n")): current = Array("id".utf8)
        case (UInt8(ascii: "j"), UInt8(ascii: "i")): current = Array("yi".utf8)
        default: return nil
        }
        return current + tag.dropFirst(2)
    }

    /// Whether two language tags are the same tag: `pt_BR` is `pt-br`.
    static func sameLocale(_ one: some StringProtocol, _ other: some StringProtocol) -> Bool {
        sameLocale(one.utf8, other.utf8)
    }

    /// The same, over the tags' UTF-8 bytes.
    static func sameLocale(_ one: some Collection<UInt8>, _ other: some Collection<UInt8>) -> Bool {
        one.count == other.count && locale(one, isWithin: other)
    }

    /// A language tag as tags compare: lower-cased, `_` as `-` (`ja_JP` is `ja-jp`).
    static func normalizedLocale(_ tag: String) -> String {
        // Read in place, and the tag itself where no byte changes (`de`, `ja`), as most tags are written; a changed
        // one written in place: a tag is short enough to need no storage of its own, and a list of its bytes did.
        // Walking the tag's UTF-8 view for each tag cost lint of 48 rules 15K instructions more.
        var bytes = tag
        return bytes.withUTF8 { bytes in
            guard bytes.contains(where: { localeByte($0) != $0 }) else { return nil }
            return String(unsafeUninitializedCapacity: bytes.count) { buffer in
                for index in bytes.indices { buffer[index] = localeByte(bytes[index]) }
                return bytes.count
            }
        } ?? tag
    }

    /// A language tag as tags compare, the language's current code in place of one ISO 639 replaced (`iw_IL` is
    /// `he-il`, see ``subtags(of:holding:)``): two tags that compare the same have the same key.
    static func comparableLocale(_ tag: String) -> String {
        let normalized = normalizedLocale(tag)
        return withCurrentLanguageCode(normalized.utf8).map { String(decoding: $0, as: UTF8.self) } ?? normalized
    }

    /// The code ISO 639 replaced that `tag` is written with (`iw` for `iw_IL`) and the code that replaced it (`he`);
    /// nil when its language is written another way.
    static func legacyLanguageCode(of tag: String) -> (legacy: String, current: String)? {
        let normalized = normalizedLocale(tag)
        guard let current = withCurrentLanguageCode(normalized.utf8) else { return nil }
        return (String(normalized.prefix(2)), String(decoding: current.prefix(2), as: UTF8.self))
    }

    /// A byte of a language tag as tags compare: ASCII letters lower-cased, `_` as `-`.
    private static func localeByte(_ byte: UInt8) -> UInt8 {
        switch byte {
        case UInt8(ascii: "_"): UInt8(ascii: "-")
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte + 32
        default: byte
        }
    }

    /// Whether two region codes are the same, in any case (`no` is `NO`).
    static func sameRegion(_ one: String, _ other: String) -> Bool {
        // In place, as ``subtags(of:holding:)`` reads tags, when both strings keep their bytes in one piece.
        let inPlace = one.utf8.withContiguousStorageIfAvailable { one in
            other.utf8.withContiguousStorageIfAvailable { other in sameRegion(bytes: one, other) }
        } ?? nil
        return inPlace ?? sameRegion(bytes: one.utf8, other.utf8)
    }

    /// ``sameRegion(_:_:)``, over any collections of bytes.
    static func sameRegion(bytes one: some Collection<UInt8>, _ other: some Collection<UInt8>) -> Bool {
        one.count == other.count && zip(one, other).allSatisfy { asciiUppercased($0) == asciiUppercased($1) }
    }

    private static func asciiUppercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) ? byte - 32 : byte
    }

    /// A region code: ISO 3166-1 alpha-2 in any case (`NO`, `jp`), or a UN M.49 area of three digits (`419`, Latin
    /// America, which Android gives as the country of `es-419`), as language tags write regions.
    static func isRegionCode(_ text: String) -> Bool {
        let utf8 = text.utf8
        return (utf8.count == 2 && utf8.allSatisfy(isASCIILetter))
            || (utf8.count == 3 && utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
    }

    /// What `isRegionCode` asks for, in words, for errors.
    static let regionCodeForm = "a two-letter ISO 3166 region code such as NO or JP, or three digits such as 419"
}

/// A position in a short ASCII text, for the hand-written parsers of dates: plain reads of bytes, with no closure
/// capturing the position (a captured variable is checked for exclusive access on every read).
private struct ByteCursor {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    /// `digits` decimal digits as a number, moving past them; nil (not moving) when they are not all there.
    mutating func number(_ digits: Int) -> Int? {
        guard index + digits <= bytes.count else { return nil }
        var value = 0
        for offset in 0..<digits {
            let byte = bytes[index + offset]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        index += digits
        return value
    }

    /// Whether every byte has been read.
    var atEnd: Bool { index == bytes.count }

    /// The decimal digits from here on, moving past them.
    mutating func digits() -> Slice<UnsafeBufferPointer<UInt8>> {
        let start = index
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
        return bytes[start..<index]
    }

    /// Whether the next byte is `character`, moving past it when it is.
    mutating func expect(_ character: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }
}
