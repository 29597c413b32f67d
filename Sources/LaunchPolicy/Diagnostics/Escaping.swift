extension String {
    /// Appends `text` with each Unicode scalar that `replacement` gives text for replaced by that text: the escapes
    /// of GitHub's workflow commands, of the simulation's SVG and CSV, and of text shown in a terminal.
    ///
    /// The runs between replacements are appended whole, and an ASCII byte is its own scalar, read without decoding.
    /// Appending scalar by scalar (`unicodeScalars.append`) cost about 460 instructions a scalar, and policy-lint
    /// writes megabytes this way over a large repository.
    mutating func append(_ text: String, replacing replacement: (Unicode.Scalar) -> String?) {
        let utf8 = text.utf8
        var runStart = utf8.startIndex
        var index = runStart
        while index < utf8.endIndex {
            let start = index
            let scalar: Unicode.Scalar
            let byte = utf8[index]
            if byte < 0x80 {
                scalar = Unicode.Scalar(byte)
                utf8.formIndex(after: &index)
            } else {
                scalar = text.unicodeScalars[index]
                text.unicodeScalars.formIndex(after: &index)
            }
            if let replaced = replacement(scalar) {
                append(contentsOf: text[runStart..<start])
                append(replaced)
                runStart = index
            }
        }
        append(contentsOf: text[runStart...])
    }
}

/// Text as a terminal or a log may show it: each character that would break the line, start an escape sequence,
/// move the cursor or reorder the text is replaced by one visible character. A policy file, a server's answer or a
/// population can then neither rewrite a developer's terminal (`\e[2J`, a window title) nor make a diagnostic two
/// lines, and a column still counts one character for each of the text's. Every text report and diagnostic the
/// library renders is shown so; the JSON, SARIF and CSV formats keep the text as it is, escaped as each format
/// escapes.
///
/// - C0 controls and DEL as their Control Pictures (`␛` for ESC, `␊` for LF); tab kept, and LF too with
///   `keepingLineFeeds`, for a text of several lines;
/// - NEL, LS and PS, which some terminals break lines at, as `␤`;
/// - the other C1 controls (CSI, U+009B, is ESC `[` to many terminals) and the bidirectional controls (which can
///   show text in another order than it is written) as `�`.
public enum TerminalText {
    /// `text` with every character a terminal would act on shown visibly.
    public static func visible(_ text: String, keepingLineFeeds: Bool = false) -> String {
        var shown = ""
        shown.appendVisible(text, keepingLineFeeds: keepingLineFeeds)
        return shown
    }

    /// How many columns a terminal gives `scalar` as ``visible(_:keepingLineFeeds:)`` shows it, for a caret to
    /// stand under it: 2 for the wide characters of East Asian scripts (Unicode's East Asian Width W and F, the
    /// blocks below) and for emoji shown as emoji; 0 for combining marks, format characters (a zero-width joiner)
    /// and the vowels and finals of conjoining Hangul; 1 for the rest, a character shown in a control's place too.
    static func columns(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x300 || String.visibleStandIn(for: scalar) != nil { return 1 }
        if wideRanges.contains(where: { $0.contains(value) }) || scalar.properties.isEmojiPresentation { return 2 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: return (0x1160...0x11FF).contains(value) ? 0 : 1
        }
    }

    /// The blocks of wide characters: Hangul initials, CJK radicals, punctuation, kana and ideographs, Yi, Hangul
    /// syllables, compatibility ideographs, vertical and small forms, fullwidth forms, and the ideograph planes.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
        0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60,
        0xFFE0...0xFFE6, 0x1_6FE0...0x1_6FE4, 0x1_7000...0x1_8CFF, 0x1_B000...0x1_B2FF, 0x2_0000...0x3_FFFD,
    ]
}

extension String {
    /// Appends ``TerminalText/visible(_:keepingLineFeeds:)``. Text with no character to replace is appended whole.
    mutating func appendVisible(_ text: String, keepingLineFeeds: Bool = false) {
        append(text) { Self.visibleStandIn(for: $0, keepingLineFeeds: keepingLineFeeds) }
    }

    /// What ``TerminalText/visible(_:keepingLineFeeds:)`` shows in place of `scalar`, or nil when it is shown as it
    /// is.
    static func visibleStandIn(for scalar: Unicode.Scalar, keepingLineFeeds: Bool = false) -> String? {
        switch scalar.value {
        case 0x09: nil
        case 0x0A where keepingLineFeeds: nil
        case 0x00..<0x20: String(Unicode.Scalar(0x2400 + scalar.value)!)
        case 0x7F: "\u{2421}"
        case 0x85, 0x2028, 0x2029: "\u{2424}"
        case 0x80...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: "\u{FFFD}"
        default: nil
        }
    }
}
