/// How other YAML tools type an unquoted (plain) scalar, which this reader never does: YAML 1.1's types (PyYAML,
/// libyaml-based tools, Yams, Ruby's Psych) and YAML 1.2's core schema (js-yaml, go-yaml v3, ruamel).
///
/// The linter asks one question: would such a tool turn this text into a value that prints back differently? `1.10`
/// becomes the number 1.1, `no` the boolean false, `010` the number 8 (or 10), `1e3` the number 1000. Text that
/// comes back as written (`2.4`, `true`, `12`) is not reported.
public enum YAMLImplicitTyping {
    /// What a YAML 1.1 or 1.2 tool reads the plain scalar `text` as, in words ("the number 1.1"), when that value
    /// prints back as something other than `text`; nil when it stays a string or prints back unchanged.
    public static func changedReading(of text: String) -> String? {
        switch candidate(text) {
        case .number:
            // Digits alone, without a leading zero (`policy: 1`, the number nearly every policy writes), are the same
            // integer to every reader and no float, which their bytes show: the readings below make strings.
            if isPlainDecimal(text) { return nil }
            if let number = integer(text), number != text { return "the number \(number)" }
            if let number = float(text), number != text { return "the number \(number)" }
            return nil
        case .tilde:
            return text == "~" ? "null" : nil
        case .word:
            // Most words asked about (`then`, `first`, `free`) are none of these, which their letters show without
            // comparing the words: only one that is one of them in some case is looked up.
            let code = foldedCode(text)
            if booleanCodes.contains(code), let boolean = booleans[text], boolean != text {
                return "the boolean \(boolean)"
            }
            if code == nullCode, text == "Null" || text == "NULL" { return "null" }
            return nil
        case nil:
            return nil
        }
    }

    /// False when ``changedReading(of:)`` is nil whatever the rest of `text`. Small enough to be decided where the
    /// text lies, without handing the text on: policy-lint asks of every plain scalar, and most are words no reading
    /// can change.
    @inline(__always)
    static func mayChangeReading(_ text: String) -> Bool {
        candidate(text) != nil
    }

    /// Which readings are possible, by the first byte and the length; nil for none.
    private enum Candidate {
        /// A number's first character (`010`, `+1`, `.5`, `_1`).
        case number
        /// `~`, null.
        case tilde
        /// A word of at most five letters that may be a boolean or null (`no`, `Yes`, `OFF`, `NULL`).
        case word
    }

    @inline(__always)
    private static func candidate(_ text: String) -> Candidate? {
        guard let first = text.utf8.first, text.utf8.count <= 64 else { return nil }
        switch first {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "_"):
            return .number
        case UInt8(ascii: "~"):
            return .tilde
        case UInt8(ascii: "y"), UInt8(ascii: "Y"), UInt8(ascii: "n"), UInt8(ascii: "N"), UInt8(ascii: "t"),
            UInt8(ascii: "T"), UInt8(ascii: "f"), UInt8(ascii: "F"), UInt8(ascii: "o"), UInt8(ascii: "O"):
            return text.utf8.count <= 5 ? .word : nil
        default:
            return nil
        }
    }

    /// Whether `text` is ASCII digits without a leading zero (or the digit `0` alone).
    private static func isPlainDecimal(_ text: String) -> Bool {
        let bytes = text.utf8
        guard let first = bytes.first, first != UInt8(ascii: "0") || bytes.count == 1 else { return false }
        return bytes.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// A word of at most eight bytes as one number, the first byte highest, each byte or-ed with `0x20`: an ASCII
    /// capital becomes its small letter. The caller has checked there are at most five. Telling a word from the
    /// booleans and `null` is then comparing numbers: comparing it with each word letter by letter cost about a
    /// hundred instructions for each `then`, `not` or `once` policy-lint asked about. Other bytes may fold together
    /// too, which is why a match is then compared by its exact spelling.
    private static func foldedCode(_ word: String) -> UInt64 {
        // Over the bytes in place: walked through the string's UTF-8 view, each byte cost a call (14K instructions
        // a lint of 48 rules, for words that are mostly `then`).
        var word = word
        return word.withUTF8 { bytes in bytes.reduce(0) { $0 << 8 | UInt64($1 | 0x20) } }
    }

    /// The words YAML 1.1 reads as true and as false, in lower case.
    private static let trueWords = ["y", "yes", "true", "on"]
    private static let falseWords = ["n", "no", "false", "off"]
    private static let booleanCodes = (trueWords + falseWords).map(foldedCode)
    private static let nullCode = foldedCode("null")

    /// A table, not a `switch`: a switch over strings compares them one by one, and every plain `then`, `not` or
    /// `once` of a policy is asked about.
    private static let booleans: [String: String] = {
        var table: [String: String] = [:]
        for word in trueWords { for spelling in spellings(of: word) { table[spelling] = "true" } }
        for word in falseWords { for spelling in spellings(of: word) { table[spelling] = "false" } }
        return table
    }()

    /// The three casings YAML 1.1 accepts: `yes`, `Yes`, `YES`.
    private static func spellings(of word: String) -> [String] {
        [word, word.prefix(1).uppercased() + word.dropFirst(), word.uppercased()]
    }

    /// Integers in either version: decimal with a sign or leading zeros (1.1 reads `010` as octal 8, 1.2 as 10),
    /// `0x`, `0o` and `0b` prefixes, `_` separators and 1.1's base 60 (`1:30` is 90). The value as a decimal.
    private static func integer(_ text: String) -> String? {
        var body = Substring(text)
        var negative = false
        if let sign = body.first, sign == "+" || sign == "-" {
            negative = sign == "-"
            body = body.dropFirst()
        }
        guard let first = body.first, first.isASCII, first.isNumber else { return nil }
        let digits = body.filter { $0 != "_" }
        func signed(_ value: UInt64?) -> String? {
            guard let value else { return nil }
            return (negative && value != 0 ? "-" : "") + String(value)
        }
        if body.contains(":") {
            // 1.1 base 60: `1:30:00`, each later part 0...59.
            let parts = digits.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count > 1, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
                parts.dropFirst().allSatisfy({ $0.count <= 2 && (UInt64($0) ?? 60) < 60 })
            else { return nil }
            var total: UInt64 = 0
            for part in parts {
                let (shifted, overflow) = total.multipliedReportingOverflow(by: 60)
                guard !overflow, let value = UInt64(part) else { return nil }
                total = shifted &+ value
            }
            return signed(total)
        }
        for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] where digits.lowercased().hasPrefix(prefix) {
            guard digits.count > 2 else { return nil }
            return signed(UInt64(digits.dropFirst(2), radix: radix))
        }
        guard digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        // A leading zero: octal to YAML 1.1 when every digit allows it, decimal to YAML 1.2. Either way it changes.
        if digits.count > 1, digits.first == "0" {
            return signed(UInt64(digits, radix: digits.allSatisfy { $0 < "8" } ? 8 : 10))
        }
        // Very long numbers print back the same in tools with big integers; only the sign or `_` can change them.
        return (negative ? "-" : "") + String(digits)
    }

    /// Floats: 1.1 needs a dot (`1.10`, `.5`, `1.`), 1.2 also takes an exponent alone (`1e3`). The value in its
    /// shortest form; a float that prints back as written, or as written plus `.0`, does not change.
    private static let floatBytes = Array("0123456789+-.eE_".utf8)

    private static func float(_ text: String) -> String? {
        // Bytes, not a set of characters: this runs on every plain scalar policy-lint reads.
        guard text.utf8.allSatisfy({ floatBytes.contains($0) }), text.utf8.contains(where: { (48...57).contains($0) })
        else { return nil }
        let hasDot = text.contains(".")
        let hasExponent = text.lowercased().contains("e")
        guard hasDot || hasExponent, text.filter({ $0 == "." }).count <= 1, let value = Double(text.filter { $0 != "_" }),
            value.isFinite
        else { return nil }
        let shortest = value.description
        if shortest == text || shortest == text + ".0" { return nil }
        return shortest.hasSuffix(".0") ? String(shortest.dropLast(2)) : shortest
    }
}
