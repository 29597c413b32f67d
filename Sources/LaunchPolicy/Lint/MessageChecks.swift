/// Messages: one missing a locale that other messages have (`lint.missing-translation`), one with two texts for the
/// same locale, of which one is never shown (`lint.duplicate-translation`), and one no rule shows
/// (`lint.unused-message`). LaunchGate/Gandalf files are skipped: their messages are made from the rules and have no
/// translations.
extension PolicyChecks {
    /// The findings on messages; missing translations within `translationPairs` message and locale pairs.
    func messages(translationPairs: Int = maximumTranslationPairs) -> [Diagnostic] {
        guard format == .policyLanguage else { return [] }
        var found: [Diagnostic] = []
        // Locales compare as the interpreter looks them up: case-insensitively, `_` as `-`, `iw` as `he`.
        let key = ValueSyntax.comparableLocale
        let messages = policy.messages
        var firstWithLocale: [String: FirstWritten] = [:]
        // Each message's tags as they compare, worked out once for both passes.
        var keys: [[String]] = []
        keys.reserveCapacity(messages.count)
        for index in messages.indices {
            var messageKeys: [String] = []
            messageKeys.reserveCapacity(messages[index].translations.count)
            for tag in messages[index].translations.keys where tag != "default" {
                let normalized = key(tag)
                messageKeys.append(normalized)
                // Within one message, the tag that sorts first names the locale, whatever order the table keeps.
                if let first = firstWithLocale[normalized], first.message != index || first.tag < tag { continue }
                firstWithLocale[normalized] = FirstWritten(tag: tag, message: index)
            }
            // Two tags of one message that compare the same: a message has a few, compared pair by pair (sorting
            // each message's tags cost lint of 48 rules 12K instructions more than this).
            let hasDuplicate = messageKeys.count <= 16
                ? messageKeys.indices.contains { messageKeys[..<$0].contains(messageKeys[$0]) }
                : Set(messageKeys).count < messageKeys.count
            if hasDuplicate { found += duplicateTranslations(of: index) }
            keys.append(messageKeys)
        }
        // The locales in order once, not once per message.
        let locales = firstWithLocale.keys.sorted()
        // How the interpreter looks each up (`ja-JP`, `ja`; `zh-TW`, `zh-Hant-TW`, `zh-Hant`, `zh`).
        let lookups = locales.map(LocaleLookup.init)
        // Each rule's message read in place: a rule handed to a closure is copied, every string and list in it.
        var used = Set<String>(minimumCapacity: policy.rules.count)
        for index in policy.rules.indices {
            if let id = policy.rules[index].message?.value { used.insert(id) }
        }
        var pairsLeft = translationPairs
        for (index, message) in messages.enumerated() {
            // A locale is covered when the interpreter's fallback reaches a translation: `ja` serves `ja-JP`,
            // `zh-Hant` serves `zh-TW`. A message that has the locale's own tag, as nearly every one has, needs no
            // search for another.
            // Spent no further once spent, as `Int` has 32 bits on some watches.
            if pairsLeft >= 0 { pairsLeft -= locales.count }
            let missing = pairsLeft < 0 ? [] : locales.indices.filter { place in
                !keys[index].contains(locales[place]) && !lookups[place].reaches(any: keys[index])
            }.compactMap { firstWithLocale[locales[$0]] }
            if !missing.isEmpty {
                // Named and noted up to a bound: messages each in a locale of its own miss every other's.
                let named = missing.prefix(Self.maximumNamedTranslations)
                let tags = named.map(\.tag)
                let more = missing.count - named.count
                let list = tags.count == 1 ? tags[0]
                    : more > 0 ? tags.joined(separator: ", ") + " and \(more) more"
                    : tags.dropLast().joined(separator: ", ") + " and " + tags.last!
                found.append(finding(.lintMissingTranslation,
                    "the message \"\(message.id)\" has no \(list) text, which other messages have; users with "
                        + "\(missing.count == 1 ? "that language" : "those languages") see its default text",
                    at: message.range,
                    notes: named.map {
                        let first = messages[$0.message]
                        return .init(message: "\"\(first.id)\" has \($0.tag)", range: first.range)
                    }))
            }
            if !used.contains(message.id) {
                found.append(finding(.lintUnusedMessage,
                    "no rule shows the message \"\(message.id)\"; remove it, or name it in a rule's message",
                    at: message.range))
            }
        }
        return found
    }

    /// The tags of a message that compare the same as another of its tags and sort after it: the interpreter finds
    /// them at the same place in its lookup and takes the one that sorts first, so their texts are never shown.
    private func duplicateTranslations(of index: Int) -> [Diagnostic] {
        let message = policy.messages[index]
        var tagsOfKey: [String: [String]] = [:]
        for tag in message.translations.keys where tag != "default" {
            tagsOfKey[ValueSyntax.comparableLocale(tag), default: []].append(tag)
        }
        // The message's mapping follows its id: its tags are among the next scalars, two for each translation.
        let within = 2 * message.translations.count + 2
        func range(of tag: String) -> SourceRange {
            scalars.key(tag, after: message.range.start.offset, within: within) ?? message.range
        }
        var found: [Diagnostic] = []
        for tags in tagsOfKey.values where tags.count > 1 {
            let sorted = tags.sorted()
            let shown = sorted[0]
            for unseen in sorted.dropFirst() {
                var why = "the same language tag"
                if let codes = [unseen, shown].lazy.compactMap(ValueSyntax.legacyLanguageCode(of:)).first,
                    ValueSyntax.normalizedLocale(unseen).prefix(2) != ValueSyntax.normalizedLocale(shown).prefix(2)
                {
                    why = "the same language: \(codes.legacy) is \(codes.current)'s code before 1989, which Java and "
                        + "Android still give"
                }
                found.append(finding(.lintDuplicateTranslation,
                    "the message \"\(message.id)\" has texts for both \(shown) and \(unseen), \(why); only the "
                        + "\(shown) text is ever shown, so keep one",
                    at: range(of: unseen),
                    notes: [.init(message: "the \(shown) text, which is shown, is here", range: range(of: shown))]))
            }
        }
        return found.sorted { $0.range.start.offset < $1.range.start.offset }
    }

    /// The most message and locale pairs the missing translations check looks at, in file order; messages past them are
    /// not checked. Each message is compared with every locale of the others, so messages each in a locale of its
    /// own made lint's time and memory grow with their square (3,000 took 19.6 s and 2.3 GB; the 25,000 a policy can
    /// hold, hours). A real app's thousand messages in two hundred locales are 200,000 pairs.
    static let maximumTranslationPairs = 1 << 22

    /// The most locales a missing translation names, and notes where another message has them; it says how many
    /// more there are.
    static let maximumNamedTranslations = 20

    /// The first message, by index, to have a translation for a locale, and the tag as it wrote it. The index, not
    /// the message: a copy of a message is its translations.
    private struct FirstWritten {
        let tag: String
        let message: Int
    }
}
