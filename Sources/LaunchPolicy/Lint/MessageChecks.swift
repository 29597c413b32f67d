/// Messages: one missing a locale that other messages have (`lint.missing-translation`), and one no rule shows
/// (`lint.unused-message`). LaunchGate/Gandalf files are skipped: their messages are made from the rules and have no
/// translations.
extension PolicyChecks {
    func messages() -> [Diagnostic] {
        guard format == .policyLanguage else { return [] }
        var found: [Diagnostic] = []
        // Locales compare as the interpreter looks them up: case-insensitively, `_` as `-`.
        let key = ValueSyntax.normalizedLocale
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
            keys.append(messageKeys)
        }
        // The locales in order once, not once per message.
        let locales = firstWithLocale.keys.sorted()
        // How the interpreter looks each up (`ja-JP`, `ja`; `zh-TW`, `zh-Hant-TW`, `zh-Hant`, `zh`).
        let lookups = locales.map(LocaleLookup.init)
        let used = Set(policy.rules.compactMap { $0.message?.value })
        for (index, message) in messages.enumerated() {
            // A locale is covered when the interpreter's fallback reaches a translation: `ja` serves `ja-JP`,
            // `zh-Hant` serves `zh-TW`. A message that has the locale's own tag, as nearly every one has, needs no
            // search for another.
            let missing = locales.indices.filter { place in
                !keys[index].contains(locales[place]) && !lookups[place].reaches(any: keys[index])
            }.compactMap { firstWithLocale[locales[$0]] }
            if !missing.isEmpty {
                let tags = missing.map(\.tag)
                let list = tags.count == 1 ? tags[0] : tags.dropLast().joined(separator: ", ") + " and " + tags.last!
                found.append(finding(.lintMissingTranslation,
                    "the message \"\(message.id)\" has no \(list) text, which other messages have; users with "
                        + "\(tags.count == 1 ? "that language" : "those languages") see its default text",
                    at: message.range,
                    notes: missing.map {
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

    /// The first message, by index, to have a translation for a locale, and the tag as it wrote it. The index, not
    /// the message: a copy of a message is its translations.
    private struct FirstWritten {
        let tag: String
        let message: Int
    }
}
