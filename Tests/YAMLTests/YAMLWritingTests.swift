import Foundation
@testable import LaunchPolicy
import Testing
import TestSupport

/// `YAMLWriting` promises that what it writes reads back as the same text wherever a scalar may stand: random texts
/// (YAML's indicators, quotes and escapes, spaces at either end, control characters, characters of several bytes,
/// Unicode's separators, words other tools retype) written as a block value, a flow value, a flow sequence's item and
/// a key, each read back by the reader.
@Suite struct YAMLWritingTests {
    /// The pieces a random text is made of.
    static let pieces = [
        "a", "Z", "0", "9", ".", "-", "_", " ", "  ", "\t", "\n", "\r", "\r\n", "#", " #", ": ", ":", ",", "[", "]",
        "{", "}", "\"", "'", "\\", "&", "*", "!", "|", ">", "%", "@", "`", "?", "~", "é", "日本", "😀", "\u{85}",
        "\u{2028}", "\u{2029}", "\u{1}", "\u{7F}", "\u{A0}", "\u{FEFF}", "no", "yes", "1.10", "010", "0x1F", "1e3",
        "null", "true", "---", "...", "<<", "=",
    ]

    static func text(using random: inout SeededGenerator) -> String {
        (0..<Int.random(in: 0...6, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
    }

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func whatItWritesReadsBackAsTheSameText(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        for _ in 0..<400 {
            let text = Self.text(using: &random)
            for written in [YAMLWriting.scalar(text), YAMLWriting.quoted(text)] {
                let documents = [
                    ("block value", "key: \(written)\nnext: 1\n"),
                    ("flow value", "{key: \(written), next: 1}\n"),
                    ("flow item", "[\(written), next]\n"),
                    ("block item", "- \(written)\n- next\n"),
                    ("key", "\(written): value\nnext: 1\n"),
                ]
                for (place, document) in documents {
                    let result = YAMLReader().read(document)
                    let root = try #require(result.root, "\(place) \(document.debugDescription): \(result.diagnostics)")
                    let read: String? = switch place {
                    case "block value", "flow value": root["key"]?.text
                    case "key": root.mapping?.first?.key.text
                    default: root.sequence?.first?.text
                    }
                    #expect(read == text, "\(place) \(document.debugDescription)")
                    #expect(!result.diagnostics.containsErrors, "\(place) \(document.debugDescription)")
                    // And the node that follows is where it was: the written text took nothing after it.
                    #expect(root["next"]?.text == (place.hasSuffix("value") || place == "key" ? "1" : nil))
                    if place.hasSuffix("item") { #expect(root.sequence?.count == 2) }
                }
            }
            // A word written bare is one other tools read as that text too.
            let bare = YAMLWriting.scalar(text)
            if !bare.hasPrefix("\"") { #expect(YAMLImplicitTyping.changedReading(of: bare) == nil) }
        }
    }
}

/// A node tells what is written around it, which decides what a fix-it may write in its place, from the input the
/// tree keeps: a `Data` or `[UInt8]` as given, any other bytes as a copy. All three read alike, a byte-order mark
/// included.
@Suite struct NodeSurroundingsTests {
    @Test(arguments: ["", "\u{FEFF}"])
    func aNodeTellsWhatIsWrittenAroundItWhateverTheInputIs(bom: String) throws {
        let text = bom + "key  : |-\n  x\ntests:\n|\n  y\nlast: [a, b]\n"
        let bytes = Array(text.utf8)
        let reads = [
            YAMLReader().read(Data(bytes)), YAMLReader().read(bytes), YAMLReader().read(bytes[...]),
        ]
        for read in reads {
            let entries = try #require(read.root?.mapping)
            #expect(entries.map(\.key.blanksBeforeColon) == [2, 0, 0])
            #expect(entries.map(\.key.startsItsLine) == [true, true, true])
            #expect(entries.map(\.value.startsItsLine) == [false, true, false])
            #expect(entries.map(\.value.blanksBeforeColon) == [nil, nil, nil])
            let items = try #require(entries.last?.value.sequence)
            #expect(items.map(\.startsItsLine) == [false, false])
        }
    }
}
