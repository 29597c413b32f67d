/// Reads range text into desugared comparators, following node-semver's desugaring rule for rule so that the
/// canonical forms agree with its test vectors.
///
/// Words and operands are spans of the text's UTF-8 bytes, never strings of their own: the decoder reads every range
/// of a policy at launch, and text is made only for messages. Every character a range may hold is ASCII, so a range
/// that reads is all ASCII; messages count positions in characters (Unicode scalars) from 0, and ``place(_:)`` turns
/// a byte offset into one.
struct RangeParser {
    let text: String
    let kind: VersionKind
    let includePrerelease: Bool
    /// The text's UTF-8, valid while ``parse(_:kind:includePrerelease:)`` runs.
    private let bytes: UnsafeBufferPointer<UInt8>

    private init(text: String, kind: VersionKind, includePrerelease: Bool, bytes: UnsafeBufferPointer<UInt8>) {
        self.text = text
        self.kind = kind
        self.includePrerelease = includePrerelease
        self.bytes = bytes
    }

    /// Reads `text` as a range of `kind`, over its UTF-8 in place.
    static func parse(
        _ text: String, kind: VersionKind, includePrerelease: Bool
    ) throws(VersionError) -> (alternatives: [[Constraint]], ambiguous: [VersionRange.AmbiguousOperand]) {
        var contiguous = text
        let result = contiguous.withUTF8 { bytes in
            Result { () throws(VersionError) in
                try RangeParser(text: text, kind: kind, includePrerelease: includePrerelease, bytes: bytes).parse()
            }
        }
        return try result.get()
    }

    typealias Comparator = VersionRange.Comparator
    typealias Constraint = VersionRange.Constraint

    /// A version as written in a range, possibly partial.
    struct Operand {
        /// The numeric parts before any wildcard.
        var parts: [Numeral]
        /// Whether fewer parts than a complete version were given, or a wildcard was.
        var isPartial: Bool
        /// Whether it is partial without saying so: no wildcard (`2.4`, not `2.4.x`), so people read it two ways.
        var isImplicitlyPartial: Bool
        var prerelease: [PrereleaseIdentifier]
        /// Where it is written.
        var word: Word
        var position: Int { word.start }
    }

    /// A run of bytes between spaces: `bytes[start..<end]`.
    struct Word {
        var start: Int
        var end: Int
        var isEmpty: Bool { start == end }
    }

    /// The text of a word, for messages.
    private func text(_ word: Word) -> String {
        String(decoding: bytes[word.start..<word.end], as: UTF8.self)
    }

    private func text(_ operand: Operand) -> String { text(operand.word) }

    /// Whether the word is exactly, or starts with, these characters.
    private func word(_ word: Word, is expected: String, prefixOnly: Bool = false) -> Bool {
        var index = word.start
        for byte in expected.utf8 {
            guard index < word.end, bytes[index] == byte else { return false }
            index += 1
        }
        return prefixOnly || index == word.end
    }

    /// The error at byte `offset`.
    func fail(_ reason: String, _ offset: Int?) -> VersionError {
        VersionError(input: text, kind: kind, reason: reason, position: offset.map(place), isRange: true)
    }

    /// The position in characters of byte `offset`: the bytes before it that start a character.
    private func place(_ offset: Int) -> Int {
        bytes[..<offset].reduce(0) { $1.isUTF8Continuation ? $0 : $0 + 1 }
    }

    /// Why the character at byte `offset` is not allowed, in ``VersionSyntax``'s words.
    private func refusal(at offset: Int) -> VersionError {
        let character = VersionSyntax.character(in: bytes, at: offset)
        return fail(VersionSyntax.describe(character, at: place(offset), kind: kind), offset)
    }

    func parse() throws(VersionError) -> (alternatives: [[Constraint]], ambiguous: [VersionRange.AmbiguousOperand]) {
        // A single '|' is reported before anything else is read.
        var index = 0
        // Counting where words start on the way, which bounds the words of any one alternative.
        var wordStarts = 0
        var afterBlank = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "|") {
                guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "|") else {
                    throw fail("a single '|' at position \(place(index) + 1); write '||' between alternatives", index)
                }
                index += 1
                afterBlank = true
            } else if Self.isBlank(byte) {
                afterBlank = true
            } else if afterBlank {
                wordStarts += 1
                afterBlank = false
            }
            index += 1
        }
        // The words of each alternative in turn, in a buffer of the bound's size: on the stack for a range of a few
        // words, as nearly every range is, where an array of them was an allocation and its release per range.
        return try withUnsafeTemporaryAllocation(of: Word.self, capacity: max(wordStarts, 1)) {
            (buffer) throws(VersionError) in
            var alternatives: [[Constraint]] = []
            var ambiguous: [Ambiguity] = []
            var start = 0
            index = 0
            while index <= bytes.count {
                guard index == bytes.count || bytes[index] == UInt8(ascii: "|") else {
                    index += 1
                    continue
                }
                let words = UnsafeBufferPointer(rebasing: buffer[..<split(start, index, into: buffer)])
                if words.isEmpty {
                    throw fail(
                        start == 0 && index == bytes.count
                            ? "it is empty; write * for any version"
                            : "an alternative between '||' is empty at position \(place(start) + 1)",
                        start)
                }
                alternatives.append(try alternative(words, flagging: &ambiguous))
                index += 2
                start = index
            }
            return (simplify(alternatives), placed(ambiguous))
        }
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    /// An operand read more than one way, at its byte offset until the whole range is read.
    private struct Ambiguity {
        let op: String
        let operand: String
        let offset: Int
        let meaning: String
    }

    /// The ambiguous operands with their offsets in characters, worked out in one walk over the text, as they are found
    /// left to right: ``place(_:)`` walks from the start, and for each of the thousands of partial versions a range of
    /// 64 KiB can hold, that cost the square of its length (230M instructions for one range, at an app's launch).
    private func placed(_ found: [Ambiguity]) -> [VersionRange.AmbiguousOperand] {
        var offset = 0
        var place = 0
        return found.map { ambiguity in
            if ambiguity.offset < offset { (offset, place) = (0, 0) }
            while offset < ambiguity.offset {
                if !bytes[offset].isUTF8Continuation { place += 1 }
                offset += 1
            }
            return VersionRange.AmbiguousOperand(
                op: ambiguity.op, operand: ambiguity.operand, position: place, meaning: ambiguity.meaning)
        }
    }

    /// Writes the words of `bytes[start..<end]` to the start of `words`, and returns how many there are. `words`
    /// holds as many as the whole range has word starts (`parse()` counts them): every word of an alternative starts
    /// after a blank, after `||` or at the start, and so is one of them.
    private func split(_ start: Int, _ end: Int, into words: UnsafeMutableBufferPointer<Word>) -> Int {
        var count = 0
        var wordStart: Int?
        func add(_ word: Word) {
            assert(count < words.count, "more words than the range has word starts")
            words[count] = word
            count += 1
        }
        for index in start..<end {
            if Self.isBlank(bytes[index]) {
                if let first = wordStart { add(Word(start: first, end: index)) }
                wordStart = nil
            } else if wordStart == nil {
                wordStart = index
            }
        }
        if let first = wordStart { add(Word(start: first, end: end)) }
        return count
    }

    /// An operator as written before an operand; `none` for a bare operand.
    enum WrittenOperator: String {
        case none = "", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">=", equal = "=",
            notEqual = "!=", tilde = "~", caret = "^"

        /// Its length in bytes.
        var length: Int {
            switch self {
            case .none: 0
            case .less, .greater, .equal, .tilde, .caret: 1
            case .lessOrEqual, .greaterOrEqual, .notEqual: 2
            }
        }

        /// Whether a partial operand after it is read two ways (`<= 2.4`, `> 2.4`, `= 2.4`, `!= 2.4`, `2.4`).
        var makesPartialAmbiguous: Bool {
            switch self {
            case .lessOrEqual, .greater, .equal, .notEqual, .none: true
            case .less, .greaterOrEqual, .tilde, .caret: false
            }
        }
    }

    /// Words that look like operators but are not.
    private static let wrongOperators = ["==", "=<", "=>", "<>"]

    /// The operator a word starts with.
    private func leadingOperator(_ word: Word) -> WrittenOperator {
        guard !word.isEmpty else { return .none }
        let equals = word.start + 1 < word.end && bytes[word.start + 1] == UInt8(ascii: "=")
        switch bytes[word.start] {
        case UInt8(ascii: "<"): return equals ? .lessOrEqual : .less
        case UInt8(ascii: ">"): return equals ? .greaterOrEqual : .greater
        case UInt8(ascii: "!"): return equals ? .notEqual : .none
        case UInt8(ascii: "="): return .equal
        case UInt8(ascii: "~"): return .tilde
        case UInt8(ascii: "^"): return .caret
        default: return .none
        }
    }

    /// One alternative: a hyphen range, or comparators separated by whitespace. Partial operands people read two
    /// ways are added to `flagged`.
    private func alternative(
        _ words: UnsafeBufferPointer<Word>, flagging flagged: inout [Ambiguity]
    ) throws(VersionError) -> [Constraint] {
        if words.count == 3, word(words[1], is: "-") {
            let from = try operand(words[0])
            let to = try operand(words[2])
            if to.isImplicitlyPartial, !to.parts.isEmpty {
                let toText = text(to)
                flagged.append(ambiguity(
                    "-", to, meaning: "the top of \(text(words[0])) - \(toText) takes in every \(toText).x"))
            }
            return hyphen(from, to)
        }
        var constraints: [Constraint] = []
        constraints.reserveCapacity(2)
        var index = 0
        while index < words.count {
            let word = words[index]
            // By the first byte before any comparison of text: most words start with a digit or `<`/`>`, and each
            // comparison walks a string.
            switch bytes[word.start] {
            case UInt8(ascii: "-") where self.word(word, is: "-"):
                throw fail("a hyphen range is written 'LOW - HIGH', with one version on each side", word.start)
            case UInt8(ascii: "~") where self.word(word, is: "~>", prefixOnly: true):
                throw fail("'~>' is not supported; write '~' (for example ~1.2)", word.start)
            case UInt8(ascii: "="), UInt8(ascii: "<"):
                for wrong in Self.wrongOperators where self.word(word, is: wrong, prefixOnly: true) {
                    throw fail("'\(wrong)' is not an operator; use <, <=, >, >=, =, !=, ~ or ^", word.start)
                }
            default:
                break
            }
            let op = leadingOperator(word)
            var operandWord = Word(start: word.start + op.length, end: word.end)
            if operandWord.isEmpty {
                guard index + 1 < words.count else {
                    throw fail(
                        "'\(op.rawValue)' at position \(place(word.start) + 1) has no version after it", word.start)
                }
                index += 1
                operandWord = words[index]
                if leadingOperator(operandWord) != .none {
                    throw fail("two operators in a row at position \(place(operandWord.start) + 1)", operandWord.start)
                }
            }
            let value = try operand(operandWord)
            switch op {
            case .tilde: tilde(value).append(to: &constraints)
            case .caret: caret(value).append(to: &constraints)
            case .notEqual: constraints.append(.exclude(primitive(.equal, value).comparators))
            default: primitive(op, value).append(to: &constraints)
            }
            if value.isImplicitlyPartial, !value.parts.isEmpty, op.makesPartialAmbiguous {
                let bounds = primitive(op == .notEqual ? .equal : op, value).comparators.map(\.text)
                    .joined(separator: " ")
                let meaning = op == .notEqual ? "not \(bounds)" : bounds
                let written = op == .none ? "" : op.rawValue + " "
                flagged.append(ambiguity(op.rawValue, value, meaning: "\(written)\(text(value)) means \(meaning)"))
            }
            index += 1
        }
        return constraints
    }

    private func ambiguity(_ op: String, _ operand: Operand, meaning: String) -> Ambiguity {
        Ambiguity(op: op, operand: text(operand), offset: operand.position, meaning: meaning)
    }

    // MARK: Operands

    private func operand(_ word: Word) throws(VersionError) -> Operand {
        let base = word.start
        var end = word.end
        if let plus = bytes[base..<end].firstIndex(of: UInt8(ascii: "+")) {
            guard kind == .semver else { throw refusal(at: plus) }
            let build = bytes[(plus + 1)..<end]
            let dot = UInt8(ascii: ".")
            if build.isEmpty || build.contains(where: { !isIdentifier($0) && $0 != dot })
                || build.split(separator: dot, omittingEmptySubsequences: false).contains(where: \.isEmpty)
            {
                throw fail("the build metadata of '\(text(word))' is not valid", plus)
            }
            end = plus
        }
        var parts: [Numeral] = []
        parts.reserveCapacity(kind.fullLength ?? 4)
        var sawWildcard = false
        var index = base
        var prerelease: [PrereleaseIdentifier] = []
        let maximumParts = kind.fullLength ?? Int.max
        while index < end {
            let partStart = index
            if index == base, bytes[base] == UInt8(ascii: "v") || bytes[base] == UInt8(ascii: "V") {
                throw refusal(at: base)
            }
            let byte = bytes[index]
            if byte == UInt8(ascii: "x") || byte == UInt8(ascii: "X") || byte == UInt8(ascii: "*") {
                sawWildcard = true
                index += 1
            } else {
                while index < end, VersionSyntax.isDigit(bytes[index]) { index += 1 }
                if index == partStart {
                    if index < end { throw refusal(at: index) }
                    throw fail("'\(text(word))' ends with a dot", index - 1)
                }
                if sawWildcard {
                    throw fail("a number cannot follow a wildcard in '\(text(word))' (write 1.x, not x.1)", partStart)
                }
                if kind == .semver, index - partStart > 1, bytes[partStart] == UInt8(ascii: "0") {
                    throw fail("'\(text(word))' has a leading zero, which SemVer forbids", partStart)
                }
                parts.append(numeral(partStart, index))
            }
            let count = parts.count + (sawWildcard ? 1 : 0)
            if count > maximumParts {
                throw fail("'\(text(word))' has more than \(maximumParts) part\(maximumParts == 1 ? "" : "s"); \(kind.shape)", base)
            }
            guard index < end else { break }
            if bytes[index] == UInt8(ascii: ".") {
                index += 1
                if index == end { throw fail("'\(text(word))' ends with a dot", index - 1) }
                continue
            }
            if bytes[index] == UInt8(ascii: "-"), kind == .semver, !sawWildcard, parts.count == 3 {
                let identifiers = bytes[(index + 1)..<end]
                    .split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
                var offset = index + 1
                for identifier in identifiers {
                    if identifier.isEmpty || identifier.contains(where: { !isIdentifier($0) }) {
                        throw fail("the prerelease of '\(text(word))' is not valid", offset)
                    }
                    if identifier.allSatisfy(VersionSyntax.isDigit) {
                        if identifier.count > 1, identifier.first == UInt8(ascii: "0") {
                            throw fail("the prerelease of '\(text(word))' has a leading zero, which SemVer forbids", offset)
                        }
                        prerelease.append(.numeric(Numeral(asciiDigits: identifier)))
                    } else {
                        prerelease.append(.alphanumeric(String(decoding: identifier, as: UTF8.self)))
                    }
                    offset += identifier.count + 1
                }
                index = end
                break
            }
            if bytes[index] == UInt8(ascii: "-"), kind == .semver {
                throw fail("a prerelease needs all three numbers MAJOR.MINOR.PATCH before it, in '\(text(word))'", index)
            }
            throw refusal(at: index)
        }
        if kind == .versionCode, let value = parts.first,
            (value.intValue ?? Int.max) > VersionKind.maximumVersionCode
        {
            throw fail("\(value) is larger than 2100000000, the largest versionCode", base)
        }
        let isPartial = sawWildcard || parts.count < (kind.fullLength ?? parts.count)
        return Operand(parts: parts, isPartial: isPartial, isImplicitlyPartial: isPartial && !sawWildcard,
            prerelease: prerelease, word: word)
    }

    /// The number written in the digits `bytes[start..<end]`.
    private func numeral(_ start: Int, _ end: Int) -> Numeral { Numeral(asciiDigits: bytes[start..<end]) }

    private func isIdentifier(_ byte: UInt8) -> Bool { VersionSyntax.isIdentifierCharacter(byte) }

    // MARK: Desugaring (node-semver's rules)

    /// `-0` when prereleases compare by plain precedence: the lowest version with a given core.
    private var lowestPrerelease: [PrereleaseIdentifier] { includePrerelease ? Self.zeroPrerelease : [] }
    private static let zeroPrerelease: [PrereleaseIdentifier] = [.numeric(.zero)]

    private func bound(_ parts: [Numeral], _ prerelease: [PrereleaseIdentifier] = []) -> Version {
        Version(kind: kind, text: "", parts: parts, prerelease: prerelease)
    }

    /// The parts with the one at `index` incremented and everything after it dropped (zero).
    private func increment(_ parts: [Numeral], at index: Int) -> [Numeral] {
        var incremented = Array(parts[...index])
        incremented[index] = parts[index].successor
        return incremented
    }

    private func compare(_ op: VersionRange.Operator, _ version: Version) -> Comparator {
        Comparator(op: op, version: version)
    }

    /// `<0.0.0-0`, which matches nothing.
    private var nullComparator: Comparator { compare(.less, bound([], Self.zeroPrerelease)) }

    /// What one written comparator desugars to: none, one or two comparators, held inline. An array for each
    /// was an allocation per comparator of every range a policy writes.
    struct Bounds {
        let first: Comparator?
        let second: Comparator?

        init(_ first: Comparator? = nil, _ second: Comparator? = nil) {
            self.first = first
            self.second = second
        }

        var comparators: [Comparator] { [first, second].compactMap { $0 } }

        func append(to constraints: inout [Constraint]) {
            if let first { constraints.append(.compare(first)) }
            if let second { constraints.append(.compare(second)) }
        }
    }

    /// A comparator or x-range: `op` is one of `<`, `<=`, `>`, `>=`, `=` or none.
    func primitive(_ op: WrittenOperator, _ operand: Operand) -> Bounds {
        let parts = operand.parts
        if parts.isEmpty {
            return op == .less || op == .greater ? Bounds(nullComparator) : Bounds()
        }
        if !operand.isPartial {
            let version = bound(parts, operand.prerelease)
            switch op {
            case .less: return Bounds(compare(.less, version))
            case .lessOrEqual: return Bounds(compare(.lessOrEqual, version))
            case .greater: return Bounds(compare(.greater, version))
            case .greaterOrEqual: return Bounds(compare(.greaterOrEqual, version))
            default: return Bounds(compare(.equal, version))
            }
        }
        let last = parts.count - 1
        switch op {
        case .greater: return Bounds(compare(.greaterOrEqual, bound(increment(parts, at: last), lowestPrerelease)))
        case .greaterOrEqual: return Bounds(compare(.greaterOrEqual, bound(parts, lowestPrerelease)))
        case .less: return Bounds(compare(.less, bound(parts, Self.zeroPrerelease)))
        case .lessOrEqual: return Bounds(compare(.less, bound(increment(parts, at: last), Self.zeroPrerelease)))
        default:
            return Bounds(
                compare(.greaterOrEqual, bound(parts, lowestPrerelease)),
                compare(.less, bound(increment(parts, at: last), Self.zeroPrerelease)))
        }
    }

    /// `~`: changes below the second given part (the minor), or below the first when only one is given.
    func tilde(_ operand: Operand) -> Bounds {
        let parts = operand.parts
        guard !parts.isEmpty else { return Bounds() }
        let lower = operand.isPartial ? bound(parts, lowestPrerelease) : bound(parts, operand.prerelease)
        let upper = bound(increment(parts, at: min(1, parts.count - 1)), Self.zeroPrerelease)
        return Bounds(compare(.greaterOrEqual, lower), compare(.less, upper))
    }

    /// `^`: changes that keep the first non-zero given part.
    func caret(_ operand: Operand) -> Bounds {
        let parts = operand.parts
        guard !parts.isEmpty else { return Bounds() }
        let index = parts.firstIndex { !$0.isZero } ?? parts.count - 1
        let pivot = operand.isPartial ? min(index, parts.count - 1) : index
        let lower = operand.isPartial ? bound(parts, lowestPrerelease) : bound(parts, operand.prerelease)
        return Bounds(
            compare(.greaterOrEqual, lower), compare(.less, bound(increment(parts, at: pivot), Self.zeroPrerelease)))
    }

    /// `LOW - HIGH`, inclusive at both ends, partial ends widened as x-ranges.
    func hyphen(_ from: Operand, _ to: Operand) -> [Constraint] {
        var result: [Comparator] = []
        if !from.parts.isEmpty {
            if from.isPartial {
                result.append(compare(.greaterOrEqual, bound(from.parts, lowestPrerelease)))
            } else if !from.prerelease.isEmpty {
                result.append(compare(.greaterOrEqual, bound(from.parts, from.prerelease)))
            } else {
                result.append(compare(.greaterOrEqual, bound(from.parts, lowestPrerelease)))
            }
        }
        if !to.parts.isEmpty {
            if to.isPartial {
                result.append(compare(.less, bound(increment(to.parts, at: to.parts.count - 1), Self.zeroPrerelease)))
            } else if !to.prerelease.isEmpty {
                result.append(compare(.lessOrEqual, bound(to.parts, to.prerelease)))
            } else if includePrerelease {
                let full = (0..<(kind.fullLength ?? to.parts.count)).map { $0 < to.parts.count ? to.parts[$0] : .zero }
                result.append(compare(.less, bound(increment(full, at: full.count - 1), Self.zeroPrerelease)))
            } else {
                result.append(compare(.lessOrEqual, bound(to.parts)))
            }
        }
        return result.map(Constraint.compare)
    }

    /// node-semver's clean-up: `>=0.0.0` means any; a null comparator makes its alternative null; duplicates go;
    /// null alternatives go when others remain; an alternative that matches anything makes the range `*`.
    /// An alternative left as it is is not copied: nearly every range a policy writes comes back unchanged.
    private func simplify(_ alternatives: [[Constraint]]) -> [[Constraint]] {
        var result = alternatives
        for (index, alternative) in alternatives.enumerated() {
            // Duplicates are found by their text, as node-semver finds them; a short alternative compares its kept
            // constraints pairwise, which makes text only where two could be the same, and a long one uses a set,
            // so that no written range costs quadratic time.
            // The kept constraints are a copy only once one is dropped; until then they are the alternative's first.
            var seen: Set<String>? = alternative.count > 8 ? [] : nil
            var copy: [Constraint]?
            var isNull = false
            for position in alternative.indices {
                let constraint = alternative[position]
                var isDropped = constraint.isLowestBound(lowestPrerelease)
                if constraint.isNullComparison || constraint.isEmptyExclusion { isNull = true }
                if !isDropped {
                    let kept = copy.map { $0[...] } ?? alternative[..<position]
                    isDropped = seen != nil
                        ? !seen!.insert(constraint.text).inserted
                        : kept.contains { $0.writesTheSame(as: constraint) }
                }
                if isDropped {
                    if copy == nil { copy = Array(alternative[..<position]) }
                } else {
                    copy?.append(constraint)
                }
            }
            if isNull {
                result[index] = [.compare(nullComparator)]
            } else if let copy {
                result[index] = copy
            }
        }
        if result.count > 1 {
            let notNull = result.filter { !($0.count == 1 && $0[0].isNullComparison) }
            result = notNull.isEmpty ? [result[0]] : notNull
            if result.count > 1, result.contains(where: \.isEmpty) { result = [[]] }
        }
        return result
    }
}

extension VersionRange.Constraint {
    /// Whether the two are written the same, compared as cheaply as can be: a comparison and an exclusion never are
    /// (an exclusion is written with `!`), nor are two comparisons with different operators.
    fileprivate func writesTheSame(as other: Self) -> Bool {
        switch (self, other) {
        case (.compare(let a), .compare(let b)): a.op == b.op && (a == b || a.text == b.text)
        case (.exclude, .exclude): text == other.text
        default: false
        }
    }

    fileprivate var isNullComparison: Bool {
        if case .compare(let comparator) = self { return comparator.isNullSet }
        return false
    }

    /// Whether it is an exclusion of nothing, which no version passes.
    fileprivate var isEmptyExclusion: Bool {
        if case .exclude(let comparators) = self { return comparators.isEmpty }
        return false
    }

    /// Whether it is `>=` the lowest version there is (`0`, with the `-0` prerelease given where prereleases are
    /// included), which every version passes. Asked of the version's part count, not of its parts: a version with a
    /// key makes the list of its parts when asked for it.
    fileprivate func isLowestBound(_ lowestPrerelease: [PrereleaseIdentifier]) -> Bool {
        guard case .compare(let comparator) = self else { return false }
        return comparator.op == .greaterOrEqual && comparator.version.partCount == 0
            && comparator.version.prerelease == lowestPrerelease
    }
}
