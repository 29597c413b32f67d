/// Reads range text into desugared comparators, following node-semver's desugaring rule for rule so that the
/// canonical forms agree with its test vectors.
struct RangeParser {
    let text: String
    let kind: VersionKind
    let includePrerelease: Bool
    private let scalars: [Unicode.Scalar]

    init(text: String, kind: VersionKind, includePrerelease: Bool) {
        self.text = text
        self.kind = kind
        self.includePrerelease = includePrerelease
        self.scalars = Array(text.unicodeScalars)
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
        var text: String
        var position: Int
    }

    private struct Word {
        var text: String
        var position: Int
    }

    func fail(_ reason: String, _ position: Int?) -> VersionError {
        VersionError(input: text, kind: kind, reason: reason, position: position, isRange: true)
    }

    func parse() throws(VersionError) -> (alternatives: [[Constraint]], ambiguous: [VersionRange.AmbiguousOperand]) {
        var alternatives: [[Constraint]] = []
        var ambiguous: [VersionRange.AmbiguousOperand] = []
        var start = 0
        var index = 0
        var pieces: [(Int, Int)] = []
        while index <= scalars.count {
            if index == scalars.count {
                pieces.append((start, index))
                break
            }
            if scalars[index] == "|" {
                guard index + 1 < scalars.count, scalars[index + 1] == "|" else {
                    throw fail("a single '|' at position \(index + 1); write '||' between alternatives", index)
                }
                pieces.append((start, index))
                index += 2
                start = index
                continue
            }
            index += 1
        }
        for (pieceStart, pieceEnd) in pieces {
            let words = split(pieceStart, pieceEnd)
            if words.isEmpty {
                throw fail(
                    pieces.count == 1
                        ? "it is empty; write * for any version"
                        : "an alternative between '||' is empty at position \(pieceStart + 1)",
                    pieceStart)
            }
            let (constraints, flagged) = try alternative(words)
            alternatives.append(constraints)
            ambiguous += flagged
        }
        return (simplify(alternatives), ambiguous)
    }

    private func split(_ start: Int, _ end: Int) -> [Word] {
        var words: [Word] = []
        var current = ""
        var currentStart = start
        for index in start..<end {
            let scalar = scalars[index]
            if scalar == " " || scalar == "\t" {
                if !current.isEmpty { words.append(Word(text: current, position: currentStart)) }
                current = ""
            } else {
                if current.isEmpty { currentStart = index }
                current.unicodeScalars.append(scalar)
            }
        }
        if !current.isEmpty { words.append(Word(text: current, position: currentStart)) }
        return words
    }

    private static let operators = ["<=", ">=", "!=", "<", ">", "=", "~", "^"]

    /// One alternative: a hyphen range, or comparators separated by whitespace.
    private func alternative(_ words: [Word]) throws(VersionError) -> ([Constraint], [VersionRange.AmbiguousOperand]) {
        if words.count == 3, words[1].text == "-" {
            let from = try operand(words[0])
            let to = try operand(words[2])
            var flagged: [VersionRange.AmbiguousOperand] = []
            if to.isImplicitlyPartial, !to.parts.isEmpty {
                flagged.append(ambiguity("-", to, meaning: "the top of \(words[0].text) - \(to.text) takes in every \(to.text).x"))
            }
            return (hyphen(from, to), flagged)
        }
        var constraints: [Constraint] = []
        var flagged: [VersionRange.AmbiguousOperand] = []
        var index = 0
        while index < words.count {
            let word = words[index]
            if word.text == "-" {
                throw fail("a hyphen range is written 'LOW - HIGH', with one version on each side", word.position)
            }
            if word.text.hasPrefix("~>") {
                throw fail("'~>' is not supported; write '~' (for example ~1.2)", word.position)
            }
            if word.text.hasPrefix("==") || word.text.hasPrefix("=<") || word.text.hasPrefix("=>")
                || word.text.hasPrefix("<>")
            {
                throw fail("'\(word.text.prefix(2))' is not an operator; use <, <=, >, >=, =, !=, ~ or ^", word.position)
            }
            let op = Self.operators.first { word.text.hasPrefix($0) } ?? ""
            var operandWord = Word(
                text: String(word.text.unicodeScalars.dropFirst(op.unicodeScalars.count)),
                position: word.position + op.unicodeScalars.count)
            if operandWord.text.isEmpty {
                guard index + 1 < words.count else {
                    throw fail("'\(op)' at position \(word.position + 1) has no version after it", word.position)
                }
                index += 1
                operandWord = words[index]
                if Self.operators.contains(where: { operandWord.text.hasPrefix($0) }) {
                    throw fail("two operators in a row at position \(operandWord.position + 1)", operandWord.position)
                }
            }
            let value = try operand(operandWord)
            switch op {
            case "~": constraints += tilde(value).map(Constraint.compare)
            case "^": constraints += caret(value).map(Constraint.compare)
            case "!=": constraints.append(.exclude(primitive("=", value)))
            default: constraints += primitive(op, value).map(Constraint.compare)
            }
            if value.isImplicitlyPartial, !value.parts.isEmpty, ["<=", ">", "=", "!=", ""].contains(op) {
                let bounds = primitive(op == "!=" ? "=" : op, value).map(\.text).joined(separator: " ")
                let meaning = op == "!=" ? "not \(bounds)" : bounds
                flagged.append(ambiguity(op, value, meaning: "\(op.isEmpty ? "" : op + " ")\(value.text) means \(meaning)"))
            }
            index += 1
        }
        return (constraints, flagged)
    }

    private func ambiguity(_ op: String, _ operand: Operand, meaning: String) -> VersionRange.AmbiguousOperand {
        VersionRange.AmbiguousOperand(op: op, operand: operand.text, position: operand.position, meaning: meaning)
    }

    // MARK: Operands

    private func operand(_ word: Word) throws(VersionError) -> Operand {
        var body = Array(word.text.unicodeScalars)
        var build: [Unicode.Scalar] = []
        if let plus = body.firstIndex(of: "+") {
            guard kind == .semver else {
                throw fail(VersionSyntax.describe("+", at: word.position + plus, kind: kind), word.position + plus)
            }
            build = Array(body[(plus + 1)...])
            body = Array(body[..<plus])
            if build.isEmpty || build.contains(where: { !isIdentifier($0) && $0 != "." })
                || build.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty)
            {
                throw fail("the build metadata of '\(word.text)' is not valid", word.position + plus)
            }
        }
        var parts: [Numeral] = []
        var sawWildcard = false
        var index = 0
        var prerelease: [PrereleaseIdentifier] = []
        let maximumParts = kind.fullLength ?? Int.max
        while index < body.count {
            let partStart = index
            if let first = body.first, index == 0, first == "v" || first == "V" {
                throw fail(VersionSyntax.describe(first, at: word.position, kind: kind), word.position)
            }
            if body[index] == "x" || body[index] == "X" || body[index] == "*" {
                sawWildcard = true
                index += 1
            } else {
                while index < body.count, VersionSyntax.isDigit(body[index]) { index += 1 }
                if index == partStart {
                    let position = word.position + index
                    if index < body.count {
                        throw fail(VersionSyntax.describe(body[index], at: position, kind: kind), position)
                    }
                    throw fail("'\(word.text)' ends with a dot", position - 1)
                }
                if sawWildcard {
                    throw fail("a number cannot follow a wildcard in '\(word.text)' (write 1.x, not x.1)", word.position + partStart)
                }
                if kind == .semver, index - partStart > 1, body[partStart] == "0" {
                    throw fail("'\(word.text)' has a leading zero, which SemVer forbids", word.position + partStart)
                }
                parts.append(Numeral(digits: Substring(String(String.UnicodeScalarView(body[partStart..<index])))))
            }
            let count = parts.count + (sawWildcard ? 1 : 0)
            if count > maximumParts {
                throw fail("'\(word.text)' has more than \(maximumParts) part\(maximumParts == 1 ? "" : "s"); \(kind.shape)", word.position)
            }
            guard index < body.count else { break }
            if body[index] == "." {
                index += 1
                if index == body.count { throw fail("'\(word.text)' ends with a dot", word.position + index - 1) }
                continue
            }
            if body[index] == "-", kind == .semver, !sawWildcard, parts.count == 3 {
                let preStart = index + 1
                let identifiers = body[preStart...].split(separator: ".", omittingEmptySubsequences: false)
                var offset = preStart
                for identifier in identifiers {
                    if identifier.isEmpty || identifier.contains(where: { !isIdentifier($0) }) {
                        throw fail("the prerelease of '\(word.text)' is not valid", word.position + offset)
                    }
                    let string = String(String.UnicodeScalarView(identifier))
                    if identifier.allSatisfy(VersionSyntax.isDigit) {
                        if identifier.count > 1, identifier.first == "0" {
                            throw fail("the prerelease of '\(word.text)' has a leading zero, which SemVer forbids", word.position + offset)
                        }
                        prerelease.append(.numeric(Numeral(digits: Substring(string))))
                    } else {
                        prerelease.append(.alphanumeric(string))
                    }
                    offset += identifier.count + 1
                }
                index = body.count
                break
            }
            let position = word.position + index
            if body[index] == "-", kind == .semver {
                throw fail("a prerelease needs all three numbers MAJOR.MINOR.PATCH before it, in '\(word.text)'", position)
            }
            throw fail(VersionSyntax.describe(body[index], at: position, kind: kind), position)
        }
        if kind == .versionCode, let value = parts.first,
            (value.intValue ?? Int.max) > VersionKind.maximumVersionCode
        {
            throw fail("\(value) is larger than 2100000000, the largest versionCode", word.position)
        }
        let isPartial = sawWildcard || parts.count < (kind.fullLength ?? parts.count)
        return Operand(parts: parts, isPartial: isPartial, isImplicitlyPartial: isPartial && !sawWildcard,
            prerelease: prerelease, text: word.text, position: word.position)
    }

    private func isIdentifier(_ scalar: Unicode.Scalar) -> Bool {
        VersionSyntax.isDigit(scalar) || (scalar.value >= 65 && scalar.value <= 90)
            || (scalar.value >= 97 && scalar.value <= 122) || scalar == "-"
    }

    // MARK: Desugaring (node-semver's rules)

    /// `-0` when prereleases compare by plain precedence: the lowest version with a given core.
    private var lowestPrerelease: [PrereleaseIdentifier] { includePrerelease ? [.numeric(.zero)] : [] }
    private static let zeroPrerelease: [PrereleaseIdentifier] = [.numeric(.zero)]

    private func bound(_ parts: [Numeral], _ prerelease: [PrereleaseIdentifier] = []) -> Version {
        Version(kind: kind, text: "", parts: parts, prerelease: prerelease)
    }

    /// The parts with the one at `index` incremented and everything after it dropped (zero).
    private func increment(_ parts: [Numeral], at index: Int) -> [Numeral] {
        Array(parts[..<index]) + [parts[index].successor]
    }

    private func compare(_ op: VersionRange.Operator, _ version: Version) -> Comparator {
        Comparator(op: op, version: version)
    }

    private var nullSet: [Comparator] { [compare(.less, bound([], Self.zeroPrerelease))] }

    /// A comparator or x-range: `op` is one of `<`, `<=`, `>`, `>=`, `=` or empty.
    func primitive(_ op: String, _ operand: Operand) -> [Comparator] {
        let parts = operand.parts
        if parts.isEmpty {
            return op == "<" || op == ">" ? nullSet : []
        }
        if !operand.isPartial {
            let version = bound(parts, operand.prerelease)
            switch op {
            case "<": return [compare(.less, version)]
            case "<=": return [compare(.lessOrEqual, version)]
            case ">": return [compare(.greater, version)]
            case ">=": return [compare(.greaterOrEqual, version)]
            default: return [compare(.equal, version)]
            }
        }
        let last = parts.count - 1
        switch op {
        case ">": return [compare(.greaterOrEqual, bound(increment(parts, at: last), lowestPrerelease))]
        case ">=": return [compare(.greaterOrEqual, bound(parts, lowestPrerelease))]
        case "<": return [compare(.less, bound(parts, Self.zeroPrerelease))]
        case "<=": return [compare(.less, bound(increment(parts, at: last), Self.zeroPrerelease))]
        default:
            return [
                compare(.greaterOrEqual, bound(parts, lowestPrerelease)),
                compare(.less, bound(increment(parts, at: last), Self.zeroPrerelease)),
            ]
        }
    }

    /// `~`: changes below the second given part (the minor), or below the first when only one is given.
    func tilde(_ operand: Operand) -> [Comparator] {
        let parts = operand.parts
        guard !parts.isEmpty else { return [] }
        let lower = operand.isPartial ? bound(parts, lowestPrerelease) : bound(parts, operand.prerelease)
        let upper = bound(increment(parts, at: min(1, parts.count - 1)), Self.zeroPrerelease)
        return [compare(.greaterOrEqual, lower), compare(.less, upper)]
    }

    /// `^`: changes that keep the first non-zero given part.
    func caret(_ operand: Operand) -> [Comparator] {
        let parts = operand.parts
        guard !parts.isEmpty else { return [] }
        let index = parts.firstIndex { !$0.isZero } ?? parts.count - 1
        let pivot = operand.isPartial ? min(index, parts.count - 1) : index
        let lower = operand.isPartial ? bound(parts, lowestPrerelease) : bound(parts, operand.prerelease)
        return [compare(.greaterOrEqual, lower), compare(.less, bound(increment(parts, at: pivot), Self.zeroPrerelease))]
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
    private func simplify(_ alternatives: [[Constraint]]) -> [[Constraint]] {
        var result: [[Constraint]] = []
        for alternative in alternatives {
            var seen: Set<String> = []
            var kept: [Constraint] = []
            var isNull = false
            for constraint in alternative {
                if case .compare(let comparator) = constraint {
                    if comparator.op == .greaterOrEqual, comparator.version.parts.isEmpty,
                        comparator.version.prerelease == lowestPrerelease
                    {
                        continue
                    }
                    if comparator.isNullSet { isNull = true }
                }
                if case .exclude(let comparators) = constraint, comparators.isEmpty { isNull = true }
                if seen.insert(constraint.text).inserted { kept.append(constraint) }
            }
            result.append(isNull ? nullSet.map(Constraint.compare) : kept)
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
    fileprivate var isNullComparison: Bool {
        if case .compare(let comparator) = self { return comparator.isNullSet }
        return false
    }
}
