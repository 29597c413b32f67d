/// The strict syntax of each version kind, with messages that say what is wrong and where.
enum VersionSyntax {
    static func parseVersion(_ text: String, kind: VersionKind) throws(VersionError) -> Version {
        let scalars = Array(text.unicodeScalars)
        func fail(_ reason: String, at position: Int?) -> VersionError {
            VersionError(input: text, kind: kind, reason: reason, position: position)
        }
        guard !scalars.isEmpty else { throw fail("it is empty; \(kind.shape)", at: nil) }

        switch kind {
        case .marketing, .build, .versionCode:
            let parts = try numericParts(scalars, kind: kind, fail: fail)
            if kind == .marketing, parts.count > 3 {
                throw fail("it has \(parts.count) parts; \(kind.shape)", at: nil)
            }
            if kind == .versionCode {
                guard parts.count == 1 else {
                    throw fail("it has a dot; \(kind.shape)", at: scalars.firstIndex(of: "."))
                }
                if let value = parts[0].intValue, value <= VersionKind.maximumVersionCode {} else {
                    throw fail("it is larger than 2100000000, the largest versionCode", at: 0)
                }
            }
            return Version(kind: kind, text: text, parts: parts)
        case .semver:
            return try parseSemVer(text, scalars, fail: fail)
        }
    }

    /// Dot-separated runs of ASCII digits.
    private static func numericParts(
        _ scalars: [Unicode.Scalar], kind: VersionKind, fail: (String, Int?) -> VersionError
    ) throws(VersionError) -> [Numeral] {
        var parts: [Numeral] = []
        var current = ""
        for (index, scalar) in scalars.enumerated() {
            if isDigit(scalar) {
                current.unicodeScalars.append(scalar)
            } else if scalar == ".", kind != .versionCode {
                if current.isEmpty {
                    throw fail(index == 0 ? "it starts with a dot; \(kind.shape)" : "it has two dots in a row; \(kind.shape)", index)
                }
                parts.append(Numeral(digits: Substring(current)))
                current = ""
            } else {
                throw fail(describe(scalar, at: index, kind: kind), index)
            }
        }
        if current.isEmpty { throw fail("it ends with a dot; \(kind.shape)", scalars.count - 1) }
        parts.append(Numeral(digits: Substring(current)))
        return parts
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

    static func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= 48 && scalar.value <= 57 }

    private static func isIdentifierCharacter(_ scalar: Unicode.Scalar) -> Bool {
        isDigit(scalar) || (scalar.value >= 65 && scalar.value <= 90) || (scalar.value >= 97 && scalar.value <= 122)
            || scalar == "-"
    }

    /// SemVer 2.0.0's grammar, exactly.
    private static func parseSemVer(
        _ text: String, _ scalars: [Unicode.Scalar], fail: (String, Int?) -> VersionError
    ) throws(VersionError) -> Version {
        let kind = VersionKind.semver
        var index = 0
        var core: [Numeral] = []
        while core.count < 3 {
            let start = index
            while index < scalars.count, isDigit(scalars[index]) { index += 1 }
            if index == start {
                if index < scalars.count, scalars[index] != "." {
                    throw fail(describe(scalars[index], at: index, kind: kind), index)
                }
                throw fail(
                    index >= scalars.count && core.count < 3
                        ? "it has \(core.count) of the 3 numbers MAJOR.MINOR.PATCH; \(kind.shape)"
                        : "a number is missing at position \(index + 1); \(kind.shape)", index)
            }
            if index - start > 1, scalars[start] == "0" {
                throw fail("the number at position \(start + 1) has a leading zero, which SemVer forbids", start)
            }
            core.append(Numeral(digits: Substring(String(String.UnicodeScalarView(scalars[start..<index])))))
            if core.count < 3 {
                guard index < scalars.count else {
                    throw fail("it has \(core.count) of the 3 numbers MAJOR.MINOR.PATCH; \(kind.shape)", nil)
                }
                guard scalars[index] == "." else {
                    throw fail(describe(scalars[index], at: index, kind: kind), index)
                }
                index += 1
            }
        }
        var prerelease: [PrereleaseIdentifier] = []
        var build: [String] = []
        if index < scalars.count, scalars[index] == "-" {
            index += 1
            for identifier in try identifiers(scalars, from: &index, stopAt: "+", what: "prerelease", fail: fail) {
                let (start, value) = identifier
                if value.unicodeScalars.allSatisfy(isDigit) {
                    if value.count > 1, value.hasPrefix("0") {
                        throw fail("the prerelease number at position \(start + 1) has a leading zero, which SemVer forbids", start)
                    }
                    prerelease.append(.numeric(Numeral(digits: Substring(value))))
                } else {
                    prerelease.append(.alphanumeric(value))
                }
            }
        }
        if index < scalars.count, scalars[index] == "+" {
            index += 1
            build = try identifiers(scalars, from: &index, stopAt: nil, what: "build metadata", fail: fail).map(\.1)
        }
        if index < scalars.count {
            throw fail(describe(scalars[index], at: index, kind: kind), index)
        }
        return Version(kind: kind, text: text, parts: core, prerelease: prerelease, buildMetadata: build)
    }

    /// Dot-separated, non-empty identifiers of [0-9A-Za-z-], up to `stop` or the end.
    private static func identifiers(
        _ scalars: [Unicode.Scalar], from index: inout Int, stopAt stop: Unicode.Scalar?, what: String,
        fail: (String, Int?) -> VersionError
    ) throws(VersionError) -> [(Int, String)] {
        var result: [(Int, String)] = []
        while true {
            let start = index
            while index < scalars.count, isIdentifierCharacter(scalars[index]) { index += 1 }
            if index == start {
                throw fail("the \(what) has an empty identifier at position \(start + 1)", start)
            }
            result.append((start, String(String.UnicodeScalarView(scalars[start..<index]))))
            guard index < scalars.count else { return result }
            if scalars[index] == "." {
                index += 1
                continue
            }
            if let stop, scalars[index] == stop { return result }
            throw fail("'\(scalars[index].escaped(asASCII: false))' at position \(index + 1) is not allowed in the \(what) (only 0-9, A-Z, a-z and -)", index)
        }
    }
}
