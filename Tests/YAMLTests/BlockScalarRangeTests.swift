import LaunchPolicy
import Testing
import TestSupport

/// A block scalar (`|`, `>`) is written from its indicator to the end of its last line of text. libyaml ends it where
/// the next node starts, after the line breaks and blank lines that follow; a fix-it that replaced it took those with
/// it and joined the next line to its replacement.
@Suite struct BlockScalarRangeTests {
    /// Each text marks with `⟦…⟧` where its one block scalar is written.
    static let marked: [String] = [
        "m: ⟦|\n  text⟧\nnext: 1\n",
        // Blank lines after the text, kept by `+` or not, with spaces in them or not.
        "m: ⟦|+\n  text⟧\n\n\nnext: 1\n",
        "m: ⟦>\n  one\n  two⟧\n   \n\n  \nnext: 1\n",
        // Spaces that end the last line are its text.
        "m: ⟦|\n  text   ⟧\n\nnext: 1\n",
        // CR LF and CR break lines.
        "m: ⟦|\r\n  text⟧\r\n\r\nnext: 1\r\n",
        "m: ⟦|\r  text⟧\r\rnext: 1\r",
        // At the end of the input, with line breaks after it and without.
        "m: ⟦|\n  text⟧\n\n",
        "m: ⟦|\n  text⟧",
        "m: ⟦|\n  text⟧\n   ",
        // No text at all: the indicator.
        "m: ⟦|-⟧\n\nnext: 1\n",
        // A comment after the indicator; characters of several bytes before the end, after a byte order mark.
        "\u{FEFF}m: ⟦| # note\n  ключ é 🙂⟧\nnext: 1\n",
        // An item of a sequence, and a value nested deeper.
        "- ⟦>-\n  a\n\n  b⟧\n\n- x\n",
        "a:\n  b:\n    c: ⟦|2\n       indented\n      text⟧\n\n  d: 1\n",
    ]

    @Test(arguments: marked)
    func aBlockScalarEndsWithItsText(marked: String) throws {
        let (text, expected) = unmark(marked)
        let read = YAMLReader().read(text)
        #expect(read.diagnostics.isEmpty, "\(read.diagnostics)")
        let root = try #require(read.root)
        let blocks = Self.scalars(in: root).filter { $0.scalar?.style == .literal || $0.scalar?.style == .folded }
        #expect(blocks.count == 1)
        #expect(blocks.first?.range == expected, "\(text.debugDescription)")
    }

    /// Every scalar under `node`, in the order written.
    static func scalars(in node: YAMLNode) -> [YAMLNode] {
        switch node.content {
        case .scalar: [node]
        case .sequence(let items): items.flatMap(scalars(in:))
        case .mapping(let entries): entries.flatMap { scalars(in: $0.key) + scalars(in: $0.value) }
        }
    }
}
