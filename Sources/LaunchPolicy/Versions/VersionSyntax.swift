/// The strict syntax of each version kind, with messages that say what is wrong and where.
///
/// Versions are read over the text's UTF-8 bytes, and a part's number is added up as its digits are read: an app
/// makes its launch context from six versions at every launch, nine readings in all, and reading each as an array
/// of scalars with a string per part cost about 7,000 instructions. Every character a version may hold is ASCII, so
/// wherever a reading stops with an error, every byte before that point is one character, and a byte offset is also
/// the position in characters that messages give.
enum VersionSyntax {
    static func parseVersion(_ text: String, kind: VersionKind) throws(VersionError) -> Version {
        var contiguous = text
        let result = contiguous.withUTF8 { bytes in
            Result { () throws(VersionError) in try Reading(text: text, kind: kind, bytes: bytes).version() }
        }
        return try result.get()
    }

    /// One reading of a text's bytes as a version of one kind.
    private struct Reading {
        let text: String
        let kind: VersionKind
        let bytes: UnsafeBufferPointer<UInt8>

        func fail(_ reason: String, at position: Int?) -> VersionError {
            VersionError(input: text, kind: kind, reason: reason, position: position)
        }

        /// The character that starts at byte `index`, for a message: the bytes before it are all ASCII.
        func character(at index: Int) -> Unicode.Scalar { VersionSyntax.character(in: bytes, at: index) }

        func refuse(at index: Int) -> VersionError {
            fail(VersionSyntax.describe(character(at: index), at: index, kind: kind), at: index)
        }

        /// The number written in the digits `bytes[start..<end]`.
        func numeral(_ start: Int, _ end: Int) -> Numeral { Numeral(asciiDigits: bytes[start..<end]) }

        func version() throws(VersionError) -> Version {
            guard !bytes.isEmpty else { throw fail("it is empty; \(kind.shape)", at: nil) }
            switch kind {
            case .marketing, .build, .versionCode:
                let parts = try numericParts()
                if kind == .marketing, parts.count > 3 {
                    throw fail("it has \(parts.count) parts; \(kind.shape)", at: nil)
                }
                // A version code has one part: its dots were refused as they were read.
                if kind == .versionCode {
                    if let value = parts[0].intValue, value <= VersionKind.maximumVersionCode {} else {
                        throw fail("it is larger than 2100000000, the largest versionCode", at: 0)
                    }
                }
                return Version(kind: kind, text: text, parts: parts)
            case .semver:
                return try semVer()
            }
        }

        /// Dot-separated runs of ASCII digits.
        private func numericParts() throws(VersionError) -> [Numeral] {
            var parts: [Numeral] = []
            parts.reserveCapacity(4)
            var start = 0
            for index in bytes.indices where !VersionSyntax.isDigit(bytes[index]) {
                guard bytes[index] == UInt8(ascii: "."), kind != .versionCode else { throw refuse(at: index) }
                if index == start {
                    let problem = index == 0 ? "it starts with a dot" : "it has two dots in a row"
                    throw fail("\(problem); \(kind.shape)", at: index)
                }
                parts.append(numeral(start, index))
                start = index + 1
            }
            if start == bytes.count { throw fail("it ends with a dot; \(kind.shape)", at: bytes.count - 1) }
            parts.append(numeral(start, bytes.count))
            return parts
        }

        /// SemVer 2.0.0's grammar, exactly.
        private func semVer() throws(VersionError) -> Version {
            var index = 0
            var core: [Numeral] = []
            core.reserveCapacity(3)
            while core.count < 3 {
                let start = index
                while index < bytes.count, VersionSyntax.isDigit(bytes[index]) { index += 1 }
                if index == start {
                    if index < bytes.count, bytes[index] != UInt8(ascii: ".") { throw refuse(at: index) }
                    throw fail(
                        index >= bytes.count
                            ? "it has \(core.count) of the 3 numbers MAJOR.MINOR.PATCH; \(kind.shape)"
                            : "a number is missing at position \(index + 1); \(kind.shape)", at: index)
                }
                if index - start > 1, bytes[start] == UInt8(ascii: "0") {
                    throw fail(
                        "the number at position \(start + 1) has a leading zero, which SemVer forbids", at: start)
                }
                core.append(numeral(start, index))
                if core.count < 3 {
                    guard index < bytes.count else {
                        throw fail("it has \(core.count) of the 3 numbers MAJOR.MINOR.PATCH; \(kind.shape)", at: nil)
                    }
                    guard bytes[index] == UInt8(ascii: ".") else { throw refuse(at: index) }
                    index += 1
                }
            }
            var prerelease: [PrereleaseIdentifier] = []
            var build: [String] = []
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") {
                index += 1
                for identifier in try identifiers(from: &index, stopAt: UInt8(ascii: "+"), what: "prerelease") {
                    if bytes[identifier].allSatisfy(VersionSyntax.isDigit) {
                        if identifier.count > 1, bytes[identifier.lowerBound] == UInt8(ascii: "0") {
                            let position = identifier.lowerBound
                            throw fail("the prerelease number at position \(position + 1) has a leading zero, "
                                + "which SemVer forbids", at: position)
                        }
                        prerelease.append(.numeric(numeral(identifier.lowerBound, identifier.upperBound)))
                    } else {
                        prerelease.append(.alphanumeric(String(decoding: bytes[identifier], as: UTF8.self)))
                    }
                }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") {
                index += 1
                build = try identifiers(from: &index, stopAt: nil, what: "build metadata").map {
                    String(decoding: bytes[$0], as: UTF8.self)
                }
            }
            if index < bytes.count { throw refuse(at: index) }
            return Version(kind: kind, text: text, parts: core, prerelease: prerelease, buildMetadata: build)
        }

        /// Where each dot-separated, non-empty identifier of [0-9A-Za-z-] is, up to `stop` or the end.
        private func identifiers(
            from index: inout Int, stopAt stop: UInt8?, what: String
        ) throws(VersionError) -> [Range<Int>] {
            var result: [Range<Int>] = []
            while true {
                let start = index
                while index < bytes.count, VersionSyntax.isIdentifierCharacter(bytes[index]) { index += 1 }
                if index == start {
                    throw fail("the \(what) has an empty identifier at position \(start + 1)", at: start)
                }
                result.append(start..<index)
                guard index < bytes.count else { return result }
                if bytes[index] == UInt8(ascii: ".") {
                    index += 1
                    continue
                }
                if let stop, bytes[index] == stop { return result }
                let shown = character(at: index).escaped(asASCII: false)
                throw fail(
                    "'\(shown)' at position \(index + 1) is not allowed in the \(what) (only 0-9, A-Z, a-z and -)",
                    at: index)
            }
        }
    }

    /// Why a character is not allowed, naming the common mistakes.
    static func describe(_ scalar: Unicode.Scalar, at index: Int, kind: VersionKind) -> String {
        let shown = "'\(scalar.escaped(asASCII: false))' at position \(index + 1)"
        if scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" {
            return "it contains a space at position \(index + 1); \(kind.shape)"
        }
        if index == 0, scalar == "v" || scalar == "V" {
            return "it starts with '\(scalar)'; write the number alone (2.4, not v2.4)"
        }
        if index == 0, scalar == "+" || scalar == "-" {
            return "it starts with a sign; \(kind.shape)"
        }
        switch scalar {
        case "-", "+":
            return kind == .semver
                ? "\(shown) is not allowed here; \(kind.shape)"
                : "\(shown) starts a prerelease or build suffix, which a \(kind) version cannot have; use semver versioning for prereleases"
        case "e", "E":
            return "\(shown) is not allowed (exponents are not versions); \(kind.shape)"
        case "_":
            return "\(shown) is not allowed (no underscores); \(kind.shape)"
        case ".":
            return "\(shown): \(kind.shape)"
        default:
            if scalar.properties.numericType != nil {
                return "\(shown) is not an ASCII digit (only 0-9 are allowed); \(kind.shape)"
            }
            return "\(shown) is not allowed; \(kind.shape)"
        }
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }

    /// The character whose UTF-8 starts at byte `index` of `bytes`.
    static func character(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Unicode.Scalar {
        var iterator = bytes[index...].makeIterator()
        var decoder = UTF8()
        if case .scalarValue(let scalar) = decoder.decode(&iterator) { return scalar }
        return "\u{FFFD}"
    }

    /// Whether the byte may stand in a SemVer identifier: [0-9A-Za-z-].
    static func isIdentifierCharacter(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || byte == UInt8(ascii: "-")
    }
}
