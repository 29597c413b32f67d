import Foundation
@testable import LaunchPolicy
import Testing
import TestSupport

/// Feeds thousands of mutated inputs through the reader. A trap would end the test process; a hang would stall it.
/// Beyond surviving, every answer must be coherent: an error or a tree, positions inside the input and agreeing with
/// an independent count of lines and columns, and trees no larger than the alias budget.
@Suite struct MutationTests {
    static let seedCount: UInt64 = 4_000

    static func seeds() throws -> [[UInt8]] {
        var seeds: [[UInt8]] = [
            Array("a: &x [1, {b: *x}]\n".utf8),
            Array("rules:\n  - id: r\n    when: {platform: [ios, android], app-version: \"< 2.4\"}\n    then: block\n".utf8),
            Array("? [a, b]\n: |\n  text\n--- \n'q': \"\\u00e9\"\n".utf8),
        ]
        if let suite = Conformance.folder("yaml-test-suite") {
            for testCase in try YAMLTestSuiteTests.cases().prefix(400) {
                _ = suite
                seeds.append(try [UInt8](Data(contentsOf: testCase.directory.appendingPathComponent("in.yaml"))))
            }
        }
        let policies = Conformance.packageRoot.appendingPathComponent("policies")
        for name in (try? FileManager.default.contentsOfDirectory(atPath: policies.path)) ?? []
        where name.hasSuffix(".yaml") {
            seeds.append(try [UInt8](Data(contentsOf: policies.appendingPathComponent(name))))
        }
        return seeds
    }

    static let alphabet = Array("[]{}:,-?!&*#|>'\"%@` \t\n\r\\0aZ.~".utf8) + [0x00, 0xC3, 0xA9, 0xFF, 0xEF, 0xBB, 0xBF]

    static func mutate(_ input: [UInt8], with other: [UInt8], using random: inout SeededGenerator) -> [UInt8] {
        var bytes = input
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<6, using: &random) {
            case 0 where !bytes.isEmpty:
                bytes[position] = UInt8.random(in: 0...255, using: &random)
            case 1:
                bytes.insert(alphabet.randomElement(using: &random)!, at: min(position, bytes.count))
            case 2 where !bytes.isEmpty:
                let end = min(bytes.count, position + Int.random(in: 1...16, using: &random))
                bytes.removeSubrange(position..<end)
            case 3 where !bytes.isEmpty:
                let end = min(bytes.count, position + Int.random(in: 1...32, using: &random))
                bytes.insert(contentsOf: bytes[position..<end], at: position)
            case 4 where !other.isEmpty:
                let start = Int.random(in: 0..<other.count, using: &random)
                let end = min(other.count, start + Int.random(in: 1...64, using: &random))
                bytes.insert(contentsOf: other[start..<end], at: min(position, bytes.count))
            default:
                bytes.insert(contentsOf: Array(repeating: alphabet.randomElement(using: &random)!, count: 70),
                    at: min(position, bytes.count))
            }
        }
        return bytes
    }

    /// Line and column of an offset in ASCII text, counted independently of the reader.
    static func asciiLocation(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        var index = 0
        while index < offset {
            if bytes[index] == 0x0A || bytes[index] == 0x0D {
                if bytes[index] == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A, index + 1 < offset {
                    index += 1
                }
                line += 1
                lineStart = index + 1
            }
            index += 1
        }
        return (line, offset - lineStart + 1)
    }

    /// Characters of two to four bytes, line breaks (CR LF, CR) and the separators libyaml breaks lines at and we do
    /// not (NEL, LS, PS), for inputs whose positions a count of ASCII alone cannot check.
    static let wideCharacters = ["é", "日本", "😀", "\u{85}", "\u{2028}", "\u{2029}", "\r\n", "\r", "\t"]
        .map { Array($0.utf8) }

    /// A seed, mutated for odd iterations, with one to `most` of `characters` put where characters start, so that the
    /// input stays UTF-8 where it was. Half the inputs unmutated more often leave a tree to check.
    static func input(
        _ iteration: Int, of seeds: [[UInt8]], inserting characters: [[UInt8]], upTo most: Int,
        using random: inout SeededGenerator
    ) -> [UInt8] {
        var input = iteration.isMultiple(of: 2) ? seeds.randomElement(using: &random)! : mutate(
            seeds.randomElement(using: &random)!, with: seeds.randomElement(using: &random)!, using: &random)
        for _ in 0..<Int.random(in: 1...most, using: &random) {
            var position = Int.random(in: 0...input.count, using: &random)
            while position < input.count, input[position] & 0xC0 == 0x80 { position += 1 }
            input.insert(contentsOf: characters.randomElement(using: &random)!, at: position)
        }
        return input
    }

    /// Every position the reader gives, for nodes (start and end) and for diagnostics and their notes, is the line and
    /// column that a separate count over the bytes (`SourceMap.location(ofByte:in:)`) finds at its offset, on
    /// inputs holding characters of several bytes and Unicode line breaks in quoted, plain and block scalars, in
    /// comments and between tokens, with and without a byte-order mark.
    @Test(arguments: [UInt64(1), 2, 3])
    func everyPositionAgreesWithACountOfItsBytes(seed: UInt64) throws {
        let seeds = try Self.seeds()
        var random = SeededGenerator(seed: seed)
        var checked = 0
        var nonASCII = 0
        var treesWithWideCharacters = 0
        for iteration in 0..<1_200 {
            var input = Self.input(iteration, of: seeds, inserting: Self.wideCharacters, upTo: 3, using: &random)
            if Int.random(in: 0..<5, using: &random) == 0 { input.insert(contentsOf: [0xEF, 0xBB, 0xBF], at: 0) }
            if input.contains(where: { $0 >= 0x80 }) { nonASCII += 1 }
            let result = YAMLReader(limits: YAMLLimits(maximumExpandedNodes: 5_000)).read(input)
            var locations: [LaunchPolicy.SourceLocation] = []
            for diagnostic in result.diagnostics {
                locations += [diagnostic.range.start, diagnostic.range.end]
                for note in diagnostic.notes where note.path == nil { locations += [note.range.start, note.range.end] }
            }
            if let root = result.root {
                var pending = [root]
                while let node = pending.popLast() {
                    locations += [node.range.start, node.range.end]
                    switch node.content {
                    case .scalar: break
                    case .sequence(let items): pending += items
                    case .mapping(let entries): for entry in entries { pending += [entry.key, entry.value] }
                    }
                }
            }
            input.withUnsafeBytes { bytes in
                for location in locations {
                    let counted = SourceMap.location(ofByte: location.offset, in: bytes)
                    #expect(counted.line == location.line && counted.column == location.column,
                        """
                        seed \(seed) iteration \(iteration): \(location) at offset \(location.offset), \
                        counted \(counted)
                        \(String(decoding: input, as: UTF8.self).debugDescription)
                        """)
                }
            }
            checked += locations.count
            if result.root != nil, input.contains(where: { $0 >= 0x80 }) { treesWithWideCharacters += 1 }
        }
        #expect(checked > 4_000)
        #expect(nonASCII > 1_000)
        #expect(treesWithWideCharacters > 150, "\(treesWithWideCharacters)")
    }

    /// NEL, LS and PS, and ordinary characters of as many bytes that no input here holds, for the test below.
    static let separatorTwins: [(separator: [UInt8], twin: [UInt8])] = [
        ("\u{85}", "\u{1C2}"), ("\u{2028}", "\u{3020}"), ("\u{2029}", "\u{3021}"),
    ].map { (Array($0.0.utf8), Array($0.1.utf8)) }

    /// NEL, LS and PS are read as YAML 1.2 reads them, as ordinary characters: an input holding them reads as the same
    /// input with another character of as many bytes in their place does, tree and problems alike (kinds, ranges,
    /// anchors, tags, styles, codes, messages), and each text differs only where the separator stands. Inputs are
    /// the seeds, mutated or not, with separators put where characters start, in every kind of place the seeds have.
    @Test(arguments: [UInt64(1), 2])
    func separatorsReadAsAnyOtherCharacterWould(seed: UInt64) throws {
        let seeds = try Self.seeds()
        var random = SeededGenerator(seed: seed)
        var compared = 0
        var trees = 0
        var separatorsInText = 0
        for iteration in 0..<800 {
            let input = Self.input(iteration, of: seeds, inserting: Self.separatorTwins.map(\.separator), upTo: 4,
                using: &random)
            var twin = input
            for (separator, replacement) in Self.separatorTwins {
                guard !input.contains(replacement) else { continue }
                while let range = twin.firstRange(of: separator) { twin.replaceSubrange(range, with: replacement) }
            }
            guard !Self.separatorTwins.contains(where: { twin.contains($0.separator) }) else { continue }
            let read = Self.described(YAMLReader().read(input))
            let readTwin = Self.described(YAMLReader().read(twin))
            #expect(read == readTwin, "seed \(seed) iteration \(iteration):\n\(read)\n\(readTwin)")
            compared += 1
            if read.contains(where: { $0.hasPrefix("scalar") }) { trees += 1 }
            if read.contains(where: { line in
                line.hasPrefix("scalar") && ["\u{1C2}", "\u{3020}", "\u{3021}"].contains { line.contains($0) }
            }) {
                separatorsInText += 1
            }
        }
        #expect(compared > 750 && trees > 200 && separatorsInText > 100, "\(compared), \(trees), \(separatorsInText)")
    }

    /// A read as lines to compare: each problem, then each node in order, texts with separators written as their
    /// twins.
    private static func described(_ result: YAMLReadResult) -> [String] {
        func place(_ range: LaunchPolicy.SourceRange) -> String {
            "\(range.start.line):\(range.start.column)@\(range.start.offset)-\(range.end.line):\(range.end.column)"
                + "@\(range.end.offset)"
        }
        func twinned(_ text: String) -> String {
            var bytes = Array(text.utf8)
            for (separator, twin) in separatorTwins {
                while let range = bytes.firstRange(of: separator) { bytes.replaceSubrange(range, with: twin) }
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        var lines = result.diagnostics.map { "\($0.code) \(place($0.range)) \(twinned($0.message))" }
        for document in result.documents {
            var pending = [document]
            while let node = pending.popLast() {
                var line = "\(node.kindName) \(place(node.range)) &\(node.anchor ?? "") !\(node.tag ?? "")"
                switch node.content {
                case .scalar(let scalar): line += " \(scalar.style) \(twinned(scalar.text).debugDescription)"
                case .sequence(let items): pending += items.reversed()
                case .mapping(let entries): for entry in entries.reversed() { pending += [entry.value, entry.key] }
                }
                lines.append(line)
            }
        }
        return lines
    }

    @Test func mutatedInputsNeverTrapAndAlwaysGiveACoherentAnswer() throws {
        let seeds = try Self.seeds()
        var random = SeededGenerator(seed: 0x1A0C_4B01)
        let limits = YAMLLimits(maximumExpandedNodes: 5_000)
        var errors = 0
        for iteration in 0..<Self.seedCount {
            let input = Self.mutate(
                seeds.randomElement(using: &random)!, with: seeds.randomElement(using: &random)!, using: &random)
            let result = YAMLReader(limits: limits).read(input)
            if result.diagnostics.containsErrors { errors += 1 }
            #expect(
                result.diagnostics.containsErrors || result.root != nil,
                "iteration \(iteration): neither a tree nor an error")
            let isASCII = input.allSatisfy { $0 < 0x80 && $0 != 0 }
            for diagnostic in result.diagnostics {
                let start = diagnostic.range.start
                #expect(start.offset >= 0 && start.offset <= input.count, "iteration \(iteration): \(diagnostic)")
                #expect(start.line >= 1 && start.column >= 1)
                if isASCII {
                    let expected = Self.asciiLocation(of: start.offset, in: input)
                    #expect(
                        expected.line == start.line && expected.column == start.column,
                        "iteration \(iteration): \(diagnostic) but offset \(start.offset) is at \(expected)")
                }
            }
            if let root = result.root {
                var pending = [root]
                var nodes = 0
                while let node = pending.popLast() {
                    nodes += 1
                    #expect(node.range.start.offset <= node.range.end.offset && node.range.end.offset <= input.count)
                    switch node.content {
                    case .scalar: break
                    case .sequence(let items): pending += items
                    case .mapping(let entries): for entry in entries { pending += [entry.key, entry.value] }
                    }
                }
                #expect(nodes <= limits.maximumExpandedNodes)
            }
        }
        // The mutations must actually break inputs, or this test proves nothing.
        #expect(errors > Int(Self.seedCount) / 4)
        #expect(errors < Int(Self.seedCount))
    }
}
