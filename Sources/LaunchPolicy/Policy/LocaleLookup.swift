/// Which of a message's translations serves a locale: RFC 4647's lookup, which tries the locale's tag and then
/// each shorter tag (`ja-JP`, then `ja`), with a language written in several scripts found by script and by region.
///
/// Chinese, Serbian and a dozen more languages are written in more than one script, which a tag may name
/// (`zh-Hant-TW`, `sr-Latn-RS`, as iOS gives them) or leave to its region (`zh-TW`, `sr-RS`, as Android often gives
/// them): each form is looked up under the other's tags too, after its own of two subtags or more and before the
/// language alone, so that `zh-TW` finds `zh-Hant`, `zh-Hant-TW` finds `zh-TW` and `sr-RS` finds `sr-Cyrl`
/// (``ValueSyntax/lookupAlternate(of:)``: the script from the region as CLDR's likely subtags have it,
/// ``LikelyScripts``). The order, for `zh-TW`: `zh-TW`, `zh-Hant-TW`, `zh-Hant`, `zh`; for `zh-Hant-TW`:
/// `zh-Hant-TW`, `zh-Hant`, `zh-TW`, `zh`. A tag whose script is not its region's likely one has no other form:
/// `sr-Latn-RS` tries `sr-Latn-RS`, `sr-Latn`, `sr`, and not `sr-RS`, which is Cyrillic.
///
/// A translation's place in that order is worked out from its own tag, without listing the tags tried: a locale
/// of thousands of subtags (a context, or a message's key in a hostile file) would have as many tags to try, each
/// as long, which cost time and memory as the square of its length.
struct LocaleLookup: Sendable {
    /// The locale's tag, as given.
    let tag: String
    /// The other form its texts are also looked up under, if any.
    let alternate: String?
    /// The number of subtags of each.
    private let tagSubtags, alternateSubtags: Int

    /// The lookup for a locale's tag (`_` counts as `-`).
    init(_ tag: String) {
        self.init(tag, alternate: ValueSyntax.lookupAlternate(of: tag))
    }

    /// The lookup for a locale's tag whose other form (``ValueSyntax/otherForms(of:)``) is already worked out.
    init(_ tag: String, alternate: String?) {
        self.tag = tag
        self.alternate = alternate
        tagSubtags = ValueSyntax.subtagCount(tag)
        alternateSubtags = alternate.map(ValueSyntax.subtagCount) ?? 0
    }

    /// The place of a translation's tag in the order tags are tried, 0 first; nil when no tag tried is it.
    func place(of key: String) -> Int? {
        // The language alone comes last for a language of several scripts, after the other form's tags.
        let last = tagSubtags + alternateSubtags
        if let subtags = ValueSyntax.subtags(of: key.utf8, holding: tag.utf8) {
            // The locale's own tags: each shorter tag down to the language, or, with another form, down to two.
            return alternate == nil || subtags >= min(2, tagSubtags) ? tagSubtags - subtags : last
        }
        guard let alternate, let subtags = ValueSyntax.subtags(of: key.utf8, holding: alternate.utf8) else {
            return nil
        }
        return subtags >= 2 ? last - subtags : last
    }

    /// The text of the translation found first among `translations` (keyed by tag, `default` aside), else the
    /// `default` text. Of two keys that are the same tag (`pt_BR` and `pt-BR`), the one that sorts first, so that
    /// the answer is the same every run.
    func text(in translations: [String: String]) -> String {
        var best: (place: Int, key: String, text: String)?
        for (key, text) in translations where key != "default" {
            guard let place = place(of: key) else { continue }
            if let found = best, found.place < place || (found.place == place && found.key < key) { continue }
            best = (place, key, text)
        }
        return best?.text ?? translations["default"] ?? ""
    }

    /// Whether some tag tried is one of `keys`.
    func reaches(any keys: [String]) -> Bool {
        keys.contains { place(of: $0) != nil }
    }
}
