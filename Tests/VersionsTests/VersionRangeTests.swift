import LaunchPolicy
import Testing

private func range(_ text: String, _ kind: VersionKind = .marketing) throws(VersionError) -> VersionRange {
    try VersionRange(text, kind: kind)
}

/// The canonical form, or the error's reason.
private func canonical(_ text: String) -> String {
    do { return try range(text).canonical } catch { return "error: \(error.reason)" }
}

private func satisfies(_ text: String, _ version: String, _ kind: VersionKind = .marketing) throws -> Bool {
    try range(text, kind).contains(Version(version, kind: kind))
}

@Suite struct VersionRangeTests {
    @Test func partialVersionsAreXRangesAsInNodeSemver() throws {
        #expect(try range("<= 1.1").canonical == "<1.2.0")
        #expect(try range("= 1.1").canonical == ">=1.1.0 <1.2.0")
        #expect(try range("1.1").canonical == ">=1.1.0 <1.2.0")
        #expect(try range("> 1.1").canonical == ">=1.2.0")
        #expect(try range("< 2.4").canonical == "<2.4.0")
        #expect(try range(">= 2.0 < 3").canonical == ">=2.0.0 <3.0.0")
        #expect(try satisfies("<= 1.1", "1.1.9"))
        #expect(try !satisfies("<= 1.1", "1.2"))
        #expect(try satisfies("> 1.1", "1.2"))
        #expect(try !satisfies("> 1.1", "1.1.5"))
    }

    @Test func theTestedVersionIsCompleteWithZeros() throws {
        // A marketing 1.2 is 1.2.0 when it is the version being tested.
        #expect(try satisfies("1.2.0", "1.2"))
        #expect(try satisfies("< 2.4", "2.3.99"))
        #expect(try !satisfies("< 2.4", "2.4"))
        #expect(try satisfies("< 2.4", "2.3"))
    }

    @Test func theLaunchGateCasesAreRight() throws {
        #expect(try !satisfies("< 1.9", "1.10"))
        #expect(try satisfies("< 10.0", "9.5"))
        #expect(try !satisfies("< 1.1", "1.1.0"))
    }

    @Test func notEqualExcludesTheWholeXRange() throws {
        #expect(try !satisfies("!= 1.2", "1.2.5"))
        #expect(try !satisfies("!= 1.2", "1.2"))
        #expect(try satisfies("!= 1.2", "1.3"))
        #expect(try satisfies("!= 1.2", "1.1.9"))
        #expect(try !satisfies("!= 1.2.3", "1.2.3"))
        #expect(try satisfies("!= 1.2.3", "1.2.4"))
        #expect(try range("!= 1.2.3").canonical == "!=1.2.3")
        #expect(try range(">= 1 != 1.2").canonical == ">=1.0.0 !(>=1.2.0 <1.3.0)")
        #expect(try !range("!= *").canMatch)
    }

    @Test func tildeCaretHyphenStarAndAlternatives() throws {
        #expect(try range("~1.2").canonical == ">=1.2.0 <1.3.0")
        #expect(try range("^1.2").canonical == ">=1.2.0 <2.0.0")
        #expect(try range("^0.2.3").canonical == ">=0.2.3 <0.3.0")
        #expect(try range("1.2 - 2.3.4").canonical == ">=1.2.0 <2.3.5")
        #expect(try range("*").canonical == "*")
        #expect(try range("2.x").canonical == ">=2.0.0 <3.0.0")
        #expect(try range("1.2 || >= 3").canonical == ">=1.2.0 <1.3.0||>=3.0.0")
        #expect(try satisfies("1.2 || >= 3", "3.1"))
        #expect(try !satisfies("1.2 || >= 3", "2.0"))
    }

    @Test func prereleasesCompareByPlainPrecedenceInPolicies() throws {
        #expect(try satisfies("< 2.0.0", "2.0.0-beta.1", .semver))
        #expect(try satisfies(">= 1.0.0 < 2.0.0", "1.5.0-rc.1", .semver))
        let nodeDefault = try VersionRange("< 2.0.0", kind: .semver, includePrerelease: false)
        #expect(!nodeDefault.contains(try Version("2.0.0-beta.1", kind: .semver)))
    }

    @Test func otherKindsUseTheirOwnOrderings() throws {
        #expect(try satisfies("< 120", "119", .versionCode))
        #expect(try !satisfies("< 120", "120", .versionCode))
        #expect(try range("<= 120", .versionCode).canonical == "<=120")
        #expect(try satisfies("< 40", "39.9", .build))
        // A build number is complete as written: 40 is 40.0, so <= 40 stops there.
        #expect(try !satisfies("<= 40", "40.1", .build))
        #expect(try satisfies("40.x", "40.1", .build))
        #expect(try !satisfies("40.x", "41", .build))
        #expect(try range("40.x", .build).canonical == ">=40 <41")
    }

    @Test(arguments: [
        ("", 0), ("||", 0), ("1 ||", 4), ("~> 1.2", 0), ("v1.2", 0), ("< v1", 2), ("1.2.3.4", 0), ("1.x.3", 4),
        ("< ", 0), ("1 - ", 2), ("1 -", 2), ("== 1", 0), (">= a", 3), ("1 | 2", 2), ("<= >= 1", 3), ("1.2-beta", 3),
    ] as [(String, Int)])
    func invalidRangesAreRefusedWithAPosition(text: String, position: Int) {
        #expect {
            try range(text)
        } throws: { error in
            guard let error = error as? VersionError else { return false }
            return error.isRange && error.position == position
        }
    }

    /// Positions count characters, however many bytes the characters before them take, and a message shows the
    /// character itself.
    @Test(arguments: [
        ("≥2 | 3", VersionKind.marketing, 3, "a single '|' at position 4"),
        ("1é+x", .marketing, 2, "'+' at position 3 starts a prerelease or build suffix"),
        ("1.2.3-bé+x", .semver, 6, "the prerelease of '1.2.3-bé+x' is not valid"),
        ("1.0.0+bü || 2", .semver, 5, "the build metadata of '1.0.0+bü' is not valid"),
        ("🚀 - 2", .marketing, 0, "'🚀' at position 1 is not allowed"),
        (">= 1.٢", .marketing, 5, "'٢' at position 6 is not an ASCII digit"),
    ] as [(String, VersionKind, Int, String)])
    func positionsCountCharacters(text: String, kind: VersionKind, position: Int, reason: String) {
        #expect {
            try VersionRange(text, kind: kind)
        } throws: { error in
            guard let error = error as? VersionError else { return false }
            return error.isRange && error.position == position && error.reason.contains(reason)
        }
    }

    @Test func numbersAreReadWhateverTheirLength() {
        #expect(canonical("< 00000000000000000000012") == "<12.0.0")
        #expect(canonical(">= 999999999999999999") == ">=999999999999999999.0.0")
        #expect(canonical("< 123456789012345678901") == "<123456789012345678901.0.0")
        #expect(try! satisfies("< 123456789012345678901", "123456789012345678900"))
        #expect(try! !satisfies("< 123456789012345678901", "123456789012345678901"))
        // Bounds one above: from the largest number held as a plain integer to the first held as digits, and a
        // carry through every digit of one held as digits.
        #expect(canonical("<= 999999999999999999") == "<1000000000000000000.0.0")
        #expect(canonical("<= 99999999999999999999") == "<100000000000000000000.0.0")
        #expect(canonical("<= 0000123456789012345678909") == "<123456789012345678910.0.0")
    }

    @Test func repeatedComparatorsAreWrittenOnce() {
        #expect(canonical(">= 2.0 >= 2.0 < 3") == ">=2.0.0 <3.0.0")
        #expect(canonical("!= 2.1 != 2.1 < 3") == "!(>=2.1.0 <2.2.0) <3.0.0")
        // Many repeats: a long alternative is deduplicated with a set, and the answer is the same.
        #expect(canonical(Array(repeating: "< 3", count: 40).joined(separator: " ")) == "<3.0.0")
    }

    @Test func invalidRangeMessagesReadWell() {
        do {
            _ = try range("~> 1.2")
            Issue.record("accepted ~>")
        } catch {
            #expect(error.description == "\"~> 1.2\" is not a valid marketing range: '~>' is not supported; write '~' (for example ~1.2)")
        }
    }

    @Test func canMatchFindsEmptyRanges() throws {
        #expect(try !range(">= 3 < 2").canMatch)
        #expect(try range(">= 2 < 3").canMatch)
        #expect(try !range("> 1.2.3 < 1.2.4").canMatch)
        #expect(try range("> 1.2.3 < 1.2.4", .build).canMatch)
        // Between them lies the prerelease 1.2.4-0.
        #expect(try range("> 1.2.3 < 1.2.4", .semver).canMatch)
        #expect(try !range("< 0").canMatch)
        #expect(try !range(">= 1.2 < 1.2").canMatch)
        #expect(try range(">= 1.2 <= 1.2.0").canMatch)
        #expect(try !range("1.2 != 1.2").canMatch)
        #expect(try range("1.2 != 1.2.3").canMatch)
        #expect(try !range("> 119 < 120", .versionCode).canMatch)
        #expect(try range("< 1 || > 3 < 2").canMatch)
    }

    @Test func inclusionBetweenRanges() throws {
        #expect(try range("< 3").includes(range("< 2.4")))
        #expect(try !range("< 2.4").includes(range("< 3")))
        #expect(try range("*").includes(range(">= 1 < 2 || 5.x")))
        #expect(try range(">= 1").includes(range("1.2 || 2.x")))
        #expect(try !range(">= 1 != 2.1").includes(range("2.x")))
        #expect(try range(">= 1 != 2.1").includes(range("2.2.x")))
        #expect(try range("<= 2.4").includes(range("< 2.4.5")))
        // An empty range is included in any range.
        #expect(try range("< 5").includes(range(">= 3 < 2")))
    }

    /// Ranges taken together narrow one interval comparison by comparison: a bound met twice keeps the stricter of
    /// the two, whichever comes first. (Full versions: a partial one is a range of its own, `> 2` being `>= 3`.)
    @Test func aBoundMetTwiceKeepsTheStricterOfTheTwo() throws {
        // Marketing versions have none between 2.0.0 and 2.0.1: excluding 2.0.0 below and 2.0.1 above leaves nothing.
        #expect(try !VersionRange.canMatch(all: [range("> 2.0.0"), range(">= 2.0.0 < 2.0.1")]))
        #expect(try !VersionRange.canMatch(all: [range(">= 2.0.0"), range("> 2.0.0 < 2.0.1")]))
        #expect(try VersionRange.canMatch(all: [range(">= 2.0.0"), range(">= 2.0.0 < 2.0.1")]))
        #expect(try !VersionRange.canMatch(all: [range("< 2.0.0"), range("<= 2.0.0 >= 2.0.0")]))
        #expect(try !VersionRange.canMatch(all: [range("<= 2.0.0"), range("< 2.0.0 >= 2.0.0")]))
        #expect(try VersionRange.canMatch(all: [range("<= 2.0.0"), range("<= 2.0.0 >= 2.0.0")]))
        // A looser bound after a stricter one changes nothing.
        #expect(try !VersionRange.canMatch(all: [range(">= 3.0.0"), range(">= 1.0.0 < 2.0.0")]))
        #expect(try !VersionRange.canMatch(all: [range("< 2.0.0"), range("< 5.0.0 >= 3.0.0")]))
        // An x-range's bounds sit just below a core (1.x is >= 1.0.0-0 < 2.0.0-0).
        #expect(try VersionRange.canMatch(all: [range("1.x"), range(">= 1.5.0")]))
        #expect(try !VersionRange.canMatch(all: [range("1.x"), range(">= 2.0.0")]))
        #expect(try range("1.x").includes(range(">= 1.2.0 < 1.9.0")))
        #expect(try !range("1.x").includes(range(">= 1.2.0 <= 2.0.0")))
    }

    @Test func rangesTakenTogether() throws {
        #expect(try !VersionRange.canMatch(all: [range("< 2"), range(">= 3")]))
        #expect(try VersionRange.canMatch(all: [range("< 3"), range(">= 2")]))
        #expect(try !VersionRange.canMatch(all: [range("< 3"), range("3.x || 4.x"), range("!= 4")]))
        #expect(VersionRange.canMatch(all: []), "no constraint at all matches any version")
        #expect(try !VersionRange.canMatch(all: [range("*"), range("*", .build)]), "kinds never mix")
        #expect(try range("< 3").includes(all: [range(">= 1"), range("< 2.5")]))
        #expect(try !range("< 2").includes(all: [range(">= 1"), range("< 2.5")]))
        #expect(try range("< 1").includes(all: [range(">= 3"), range("< 2")]), "nothing matches both, so any range holds them")
    }

    @Test func rangesThatMatchEveryVersion() throws {
        #expect(try range("*").matchesEveryVersion)
        #expect(try range(">= 0").matchesEveryVersion)
        #expect(try range("< 2 || >= 2").matchesEveryVersion)
        #expect(try range("x", .build).matchesEveryVersion)
        #expect(try !range("< 2 || > 2").matchesEveryVersion)
        #expect(try !range(">= 0.0.1").matchesEveryVersion)
        #expect(try range(">= 0", .versionCode).matchesEveryVersion)
    }

    @Test func analysisStaysSmallForRangesWithManyAlternatives() throws {
        // 300 alternatives: without dropping empty intervals as they arise, the complement would multiply out.
        let many = try range((0..<300).map { "\($0).x" }.joined(separator: " || "))
        let gaps = try range((0..<300).map { "\($0).5.x" }.joined(separator: " || "))
        #expect(many.includes(gaps))
        #expect(!gaps.includes(many))
        #expect(!many.matchesEveryVersion)
        #expect(try !VersionRange.canMatch(all: [many, range(">= 300")]))
        #expect(try VersionRange.canMatch(all: [many, range(">= 299")]))
    }

    /// Each ambiguous operand is placed where it is written, however many a range holds: they are placed in one walk
    /// over the text, in the order they are found.
    @Test func ambiguousOperandsArePlacedWhereWritten() throws {
        let text = "1.0 - 2.1 || <= 3.4 || != 5.6 4.0.0 || " + (0..<2_000).map { "7.\($0)" }.joined(separator: " || ")
        let flagged = try range(text).ambiguousOperands
        #expect(flagged.map(\.operand) == ["2.1", "3.4", "5.6"] + (0..<2_000).map { "7.\($0)" })
        var searched = text.startIndex
        for operand in flagged {
            let found = try #require(text.range(of: operand.operand, range: searched..<text.endIndex))
            #expect(operand.position == text.distance(from: text.startIndex, to: found.lowerBound), "\(operand.operand)")
            searched = found.upperBound
        }
    }

    @Test func ambiguousPartialOperandsAreReported() throws {
        let flagged = try range("<= 2.4").ambiguousOperands
        #expect(flagged.count == 1)
        #expect(flagged.first?.op == "<=")
        #expect(flagged.first?.operand == "2.4")
        #expect(flagged.first?.position == 3)
        #expect(flagged.first?.meaning == "<= 2.4 means <2.5.0")
        #expect(try range("> 2").ambiguousOperands.count == 1)
        #expect(try range("= 2.1").ambiguousOperands.count == 1)
        #expect(try range("!= 2.1").ambiguousOperands.first?.meaning == "!= 2.1 means not >=2.1.0 <2.2.0")
        #expect(try range("2.1").ambiguousOperands.count == 1)
        #expect(try range("1.0 - 2.1").ambiguousOperands.first?.op == "-")
        #expect(try range("< 2.4").ambiguousOperands.isEmpty)
        #expect(try range(">= 2").ambiguousOperands.isEmpty)
        #expect(try range("<= 2.4.0").ambiguousOperands.isEmpty)
        #expect(try range("~2.4").ambiguousOperands.isEmpty)
        #expect(try range("<= 120", .versionCode).ambiguousOperands.isEmpty)
        #expect(try range("<= 40", .build).ambiguousOperands.isEmpty)
        // A written wildcard says what it means.
        #expect(try range("4.x").ambiguousOperands.isEmpty)
        #expect(try range("<= 2.4.x").ambiguousOperands.isEmpty)
        #expect(try range("1.0 - 2.x").ambiguousOperands.isEmpty)
        #expect(try range("> 40.x", .build).ambiguousOperands.isEmpty)
    }

    @Test func aVersionOfAnotherKindNeverSatisfies() throws {
        #expect(try !range("*").contains(Version("1", kind: .build)))
    }
}
