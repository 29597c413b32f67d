import Foundation
import LaunchPolicy
import Testing
import TestSupport

/// Runs the SemVer and node-semver vectors in ../shared/conformance/semver (see the README there).
///
/// Every row runs; the rows where we deliberately differ from node-semver are listed in `deliberateDifferences`
/// with the reason, and a listed row that stops differing fails the test, so that any change of behaviour shows.
@Suite struct SemVerConformanceTests {
    static let folder = Conformance.folder("semver")

    /// Rows of the vectors, the header and blank lines dropped; fields split on TAB (`\t` in a field is a TAB).
    static func rows(_ name: String) throws -> [[String]] {
        guard let folder else { return [] }
        let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: true)
            .filter { !$0.hasPrefix("#") }
            .map { $0.split(separator: "\t", omittingEmptySubsequences: false).map {
                String($0).replacingOccurrences(of: "\\t", with: "\t")
            } }
    }

    static func lines(_ name: String) throws -> [String] {
        guard let folder else { return [] }
        return try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            .split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") }
    }

    /// Whether the data is there; records an issue under CI, where it must be.
    static func available() -> Bool {
        if folder != nil { return true }
        if Conformance.isCI { Issue.record("\(Conformance.absenceMessage("semver")); CI must provide it") }
        else { print("SKIPPED: \(Conformance.absenceMessage("semver"))") }
        return false
    }

    static func semver(_ text: String) throws -> Version { try Version(text, kind: .semver) }

    /// Ranges (with the includePrerelease flag of the row) where we differ from node-semver on purpose.
    static let deliberateDifferences: [String: String] = [
        "": "an empty range is refused: in a policy it is a mistake, not 'any version'",
        "||": "an empty alternative is refused",
        "~>3.2.1": "'~>' is a lenient extra; we refuse it",
        "~>1": "'~>' is a lenient extra; we refuse it",
        "~> 1": "'~>' is a lenient extra; we refuse it",
        "^9007199254740991.0.0": "numbers have no size limit here (SemVer sets none), so the upper bound exists",
        "1.x.x-alpha+build": "a prerelease on a wildcard version means nothing; we refuse it",
        ">1.x.x-alpha+build": "a prerelease on a wildcard version means nothing; we refuse it",
        ">=1.x.x-alpha+build <2.x.x+build": "a prerelease on a wildcard version means nothing; we refuse it",
        "1.x.x-alpha+build || 2.x.x+build": "a prerelease on a wildcard version means nothing; we refuse it",
    ]

    static func isDeliberate(_ range: String) -> Bool {
        deliberateDifferences[range] != nil || range.hasPrefix("v") || range.contains(" v") || range.contains("=v")
    }

    @Test func comparisonsAndEquality() throws {
        guard Self.available() else { return }
        var checked = 0
        for row in try Self.rows("comparisons-strict.tsv") + Self.rows("equality-strict.tsv") {
            let expected = Int(row[2])!
            #expect(try Self.semver(row[0]).compare(to: Self.semver(row[1])) == expected, "\(row)")
            #expect(try Self.semver(row[1]).compare(to: Self.semver(row[0])) == -expected, "\(row) reversed")
            if expected == 0 { #expect(try Self.semver(row[0]) == Self.semver(row[1])) }
            checked += 1
        }
        #expect(checked == 40)
    }

    @Test func semverOrgValidInvalidPrecedenceAndTotalOrder() throws {
        guard Self.available() else { return }
        let valid = try Self.lines("semver-org/valid.txt")
        for text in valid { #expect(throws: Never.self, "\(text)") { try Self.semver(text) } }
        let invalid = try Self.lines("semver-org/invalid.txt")
        for text in invalid { #expect(throws: VersionError.self, "\(text)") { try Self.semver(text) } }
        let precedence = try Self.rows("semver-org/precedence.tsv")
        for row in precedence {
            #expect(try Self.semver(row[0]).compare(to: Self.semver(row[1])) == Int(row[2])!, "\(row)")
        }
        let order = try Self.lines("semver-org/total-order.txt").map(Self.semver)
        #expect(order.sorted() == order)
        for (index, version) in order.enumerated() {
            #expect(order.firstIndex(of: version) == index, "\(version) equals an earlier version")
        }
        print("semver-org: \(valid.count) valid, \(invalid.count) invalid, \(precedence.count) precedence, "
            + "\(order.count) in total order")
        #expect(valid.count == 31 && invalid.count == 39 && order.count == 30)
    }

    @Test func nodeSemverValidVersions() throws {
        guard Self.available() else { return }
        for row in try Self.rows("valid-versions.tsv") {
            if row[6] == "false" {
                // `v1.2.3` is valid for node-semver only; SemVer and we refuse it.
                #expect(throws: VersionError.self) { try Self.semver(row[0]) }
                continue
            }
            let version = try Self.semver(row[0])
            #expect(version.canonical.hasPrefix("\(row[1]).\(row[2]).\(row[3])"), "\(row)")
        }
    }

    @Test func nodeSemverInvalidVersions() throws {
        guard Self.available() else { return }
        for row in try Self.rows("invalid-versions.tsv") {
            if row[3] == "true" {
                // node-semver refuses numbers past 2^53; SemVer sets no limit and neither do we.
                #expect(throws: Never.self) { try Self.semver(row[0]) }
            } else {
                #expect(throws: VersionError.self, "\(row)") { try Self.semver(row[0]) }
            }
        }
    }

    @Test func rangeSatisfiesCore() throws {
        guard Self.available() else { return }
        var checked = 0
        for row in try Self.rows("range-satisfies-core.tsv") {
            let range = try VersionRange(row[0], kind: .semver, includePrerelease: false)
            #expect(range.contains(try Self.semver(row[1])) == (row[2] == "true"), "\(row)")
            checked += 1
        }
        print("range-satisfies-core: \(checked) rows")
        #expect(checked > 140)
    }

    @Test func rangeSatisfiesWithIncludePrerelease() throws {
        guard Self.available() else { return }
        var checked = 0
        for row in try Self.rows("range-satisfies.tsv") where row[3] == "false" && row[4] == "true" {
            let range = try VersionRange(row[0], kind: .semver, includePrerelease: true)
            #expect(range.contains(try Self.semver(row[1])) == (row[2] == "true"), "\(row)")
            checked += 1
        }
        print("range-satisfies includePrerelease: \(checked) rows")
        #expect(checked == 33)
    }

    @Test func rangeParseCanonicalForms() throws {
        guard Self.available() else { return }
        var checked = 0
        var skipped = 0
        var unexpected: [String] = []
        for row in try Self.rows("range-parse.tsv") where row[2] == "false" {
            let (text, expected, includePrerelease) = (row[0], row[1], row[3] == "true")
            let actual: String
            do {
                actual = try VersionRange(text, kind: .semver, includePrerelease: includePrerelease).canonical
            } catch {
                actual = "!INVALID"
            }
            if Self.isDeliberate(text) {
                skipped += 1
                if actual == expected { unexpected.append("\(text): listed as a deliberate difference but agrees") }
                continue
            }
            checked += 1
            if actual != expected { unexpected.append("'\(text)' (includePrerelease \(includePrerelease)): \(actual), expected \(expected)") }
        }
        print("range-parse: \(checked) rows agree, \(skipped) deliberate differences")
        #expect(unexpected.isEmpty, "\(unexpected.joined(separator: "\n"))")
    }
}
