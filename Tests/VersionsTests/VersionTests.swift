import LaunchPolicy
import Testing

private func marketing(_ text: String) throws(VersionError) -> Version { try Version(text, kind: .marketing) }

@Suite struct MarketingVersionTests {
    @Test func theLaunchGateFailuresCompareCorrectly() throws {
        #expect(try marketing("1.10") > marketing("1.9"))
        #expect(try marketing("9.5") < marketing("10.0"))
        #expect(try marketing("1.1") == marketing("1.1.0"))
        #expect(try marketing("1.1").hashValue == marketing("1.1.0").hashValue)
    }

    @Test func missingPartsAreZeroAndLeadingZerosAreIgnored() throws {
        #expect(try marketing("1") == marketing("1.0"))
        #expect(try marketing("1") == marketing("1.0.0"))
        #expect(try marketing("1.01") == marketing("1.1"))
        #expect(try marketing("007.000.01") == marketing("7.0.1"))
        #expect(try marketing("1.01").canonical == "1.1.0")
        #expect(try marketing("1.01").text == "1.01")
    }

    @Test func hugePartsCompareAsNumbersOfAnySize() throws {
        let huge = "123456789012345678901234567890"
        #expect(try marketing("1.\(huge)") > marketing("1.\(huge.dropLast())"))
        #expect(try marketing("1.\(huge)") < marketing("1.\(huge.dropLast())9"))
        #expect(try marketing("99999999999999999999") > marketing("18446744073709551615"))
        #expect(try marketing("0000000000000000000000000001") == marketing("1"))
        #expect(try marketing("999999999999999999") < marketing("1000000000000000000"))
        #expect(try marketing("1000000000000000000").canonical == "1000000000000000000.0.0")
    }

    @Test(arguments: [
        ("1.2-beta", 3), ("v1.2", 0), ("V1.2", 0), ("1.2.3.4", nil), ("1.", 1), (".1", 0), ("1..2", 2),
        (" 1.2", 0), ("1.2 ", 3), ("1. 2", 2), ("", nil), ("١.٢", 0), ("+1.2", 0), ("-1.2", 0), ("1e3", 1),
        ("1_000", 1), ("1.2+5", 3), ("1,2", 1), ("１.2", 0),
    ] as [(String, Int?)])
    func invalidFormsAreRefusedWithAPosition(text: String, position: Int?) {
        #expect {
            try marketing(text)
        } throws: { error in
            guard let error = error as? VersionError else { return false }
            return error.position == position && error.kind == .marketing && !error.reason.isEmpty
        }
    }

    /// Positions count characters, and a message shows the character itself, wherever it stands and however many
    /// bytes it takes.
    @Test(arguments: [
        ("1.2é", VersionKind.marketing, 3, "'é' at position 4"),
        ("12.٣", .build, 3, "'٣' at position 4 is not an ASCII digit"),
        ("2.0.1-b€ta", .semver, 7, "'€' at position 8 is not allowed in the prerelease"),
        ("2.0.1-beta.🚀", .semver, 11, "empty identifier at position 12"),
        ("2.0.1+sha.5ü", .semver, 11, "'ü' at position 12 is not allowed in the build metadata"),
        ("2.0.٠", .semver, 4, "'٠' at position 5 is not an ASCII digit"),
        ("2..ä", .marketing, 2, "two dots in a row"),
    ] as [(String, VersionKind, Int, String)])
    func positionsCountCharacters(text: String, kind: VersionKind, position: Int, reason: String) {
        #expect {
            try Version(text, kind: kind)
        } throws: { error in
            guard let error = error as? VersionError else { return false }
            return error.position == position && error.reason.contains(reason)
        }
    }

    @Test func messagesNameTheMistake() {
        func reason(_ text: String) -> String {
            do { _ = try marketing(text); return "" } catch { return error.reason }
        }
        #expect(reason("v1.2").contains("not v2.4"))
        #expect(reason("1.2-beta").contains("semver"))
        #expect(reason("1.2.3.4").contains("4 parts"))
        #expect(reason("1.").contains("ends with a dot"))
        #expect(reason("1 .2").contains("space"))
        #expect(reason("١").contains("ASCII digit"))
        #expect(reason("1_0").contains("underscore"))
        #expect(reason("1e3").contains("exponent"))
        #expect(reason("").contains("empty"))
        let error = VersionError(input: "v1", kind: .marketing, reason: "r")
        #expect(error.description == "\"v1\" is not a valid marketing version: r")
    }
}

@Suite struct BuildAndVersionCodeTests {
    @Test func buildNumbersHaveAnyNumberOfParts() throws {
        let build = { (text: String) throws -> Version in try Version(text, kind: .build) }
        #expect(try build("2.4.1.7") > build("2.4.1.6"))
        #expect(try build("2.4.1.7.1") > build("2.4.1.7"))
        #expect(try build("40") == build("40.0.0.0"))
        #expect(try build("100") > build("99"))
        #expect(try build("1.2.3.4.5.6.7.8").canonical == "1.2.3.4.5.6.7.8")
        for invalid in ["", "1.", "1..2", "a1", "1-2", " 1", "1.2b"] {
            #expect(throws: VersionError.self, "\(invalid)") { try build(invalid) }
        }
    }

    @Test func versionCodesAreWholeNumbersUpTo2100000000() throws {
        let code = { (text: String) throws -> Version in try Version(text, kind: .versionCode) }
        #expect(try code("119") < code("120"))
        #expect(try code("0") < code("1"))
        #expect(try code("2100000000").canonical == "2100000000")
        #expect(try code("007") == code("7"))
        for invalid in ["2100000001", "99999999999999999999999", "-1", "+1", "1.0", "1 ", "", "1e3", "0x10"] {
            #expect(throws: VersionError.self, "\(invalid)") { try code(invalid) }
        }
        // A dot is refused where it stands, and the message says what a version code is.
        #expect {
            try code("12.5")
        } throws: { error in
            guard let error = error as? VersionError else { return false }
            return error.position == 2 && error.reason.contains("'.' at position 3")
                && error.reason.contains("whole number")
        }
    }

    @Test func versionsOfDifferentKindsAreNeverEqualButStillOrdered() throws {
        let a = try Version("1", kind: .marketing)
        let b = try Version("1", kind: .build)
        #expect(a != b)
        #expect(a < b)
        #expect(a.compare(to: b) == -1 && b.compare(to: a) == 1)
    }
}

@Suite struct SemVerTests {
    @Test func precedenceFollowsSection11() throws {
        let order = ["1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2",
            "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0"].map { try! Version($0, kind: .semver) }
        #expect(order.sorted() == order)
        #expect(try Version("1.0.0+a", kind: .semver) == Version("1.0.0+b", kind: .semver))
        #expect(try Version("1.0.0-2", kind: .semver) < Version("1.0.0-10", kind: .semver))
        #expect(try Version("1.0.0-Z", kind: .semver) < Version("1.0.0-a", kind: .semver))
    }

    @Test func buildMetadataIsKept() throws {
        let version = try Version("1.2.3-rc.1+sha.5114f85", kind: .semver)
        #expect(version.buildMetadata == ["sha", "5114f85"])
        #expect(version.isPrerelease)
        #expect(version.canonical == "1.2.3-rc.1")
    }

    @Test(arguments: ["v1.2.3", "1.2", "01.2.3", "1.2.3-01", "1.2.3-", "1.2.3+", "1.2.3-a..b", "1.2.3 ", "1.2.3-ä",
        "1.2.3.4"])
    func invalidSemVerIsRefused(text: String) {
        #expect(throws: VersionError.self) { try Version(text, kind: .semver) }
    }
}
