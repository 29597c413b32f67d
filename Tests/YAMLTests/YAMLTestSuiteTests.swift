import Foundation
import LaunchPolicy
import Testing
import TestSupport

/// Runs every case of the official YAML test suite through the event reader.
///
/// A valid case passes when our event stream, printed in the suite's notation, equals `test.event`; an error case
/// passes when it is rejected. libyaml 0.2.5 is not fully conformant: the cases it gets wrong are listed below with
/// the reason, and a listed case that starts to pass fails the test too, so that any change of behaviour shows.
@Suite struct YAMLTestSuiteTests {
    struct Case {
        let id: String
        let directory: URL
        let isError: Bool
    }

    static func cases() throws -> [Case] {
        guard let root = Conformance.folder("yaml-test-suite") else { return [] }
        var cases: [Case] = []
        let fileManager = FileManager.default
        for name in try fileManager.contentsOfDirectory(atPath: root.path).sorted() {
            let directory = root.appendingPathComponent(name)
            if fileManager.fileExists(atPath: directory.appendingPathComponent("in.yaml").path) {
                cases.append(Case(id: name, directory: directory, isError: fileManager.fileExists(
                    atPath: directory.appendingPathComponent("error").path)))
                continue
            }
            var isDirectory: ObjCBool = false
            guard fileManager.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue
            else { continue }
            for sub in try fileManager.contentsOfDirectory(atPath: directory.path).sorted() {
                let subDirectory = directory.appendingPathComponent(sub)
                guard fileManager.fileExists(atPath: subDirectory.appendingPathComponent("in.yaml").path)
                else { continue }
                cases.append(Case(id: "\(name)/\(sub)", directory: subDirectory, isError: fileManager.fileExists(
                    atPath: subDirectory.appendingPathComponent("error").path)))
            }
        }
        return cases
    }

    /// Outcome of one case.
    enum Outcome: Equatable {
        case pass
        case wrongEvents
        case rejectedValid
        case acceptedInvalid
    }

    static func run(_ testCase: Case) throws -> Outcome {
        let input = try [UInt8](Data(contentsOf: testCase.directory.appendingPathComponent("in.yaml")))
        let result = suiteEvents(input)
        if testCase.isError {
            return result.error == nil ? .acceptedInvalid : .pass
        }
        if result.error != nil { return .rejectedValid }
        let expected = try String(
            contentsOf: testCase.directory.appendingPathComponent("test.event"), encoding: .utf8
        ).split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        return expected == result.lines ? .pass : .wrongEvents
    }

    @Test func everyCaseOfTheSuite() throws {
        guard Conformance.folder("yaml-test-suite") != nil else {
            if Conformance.isCI {
                Issue.record("\(Conformance.absenceMessage("yaml-test-suite")); CI must provide it")
            } else {
                print("SKIPPED: \(Conformance.absenceMessage("yaml-test-suite"))")
            }
            return
        }
        let cases = try Self.cases()
        #expect(cases.count > 300, "the suite should hold over 300 cases, found \(cases.count)")
        var tally: [Outcome: Int] = [:]
        var unexpected: [String] = []
        for testCase in cases {
            let outcome = try Self.run(testCase)
            tally[outcome, default: 0] += 1
            let known = LibYAMLKnownDifferences.cases[testCase.id]
            switch (outcome, known) {
            case (.pass, nil): break
            case (.pass, .some):
                unexpected.append("\(testCase.id): now passes; remove it from the known differences")
            case (_, nil):
                unexpected.append("\(testCase.id): \(outcome)")
            case (let outcome, .some(let difference)) where difference.outcome != outcome:
                unexpected.append("\(testCase.id): expected \(difference.outcome), got \(outcome)")
            default: break
            }
        }
        let summary = tally.sorted { "\($0.key)" < "\($1.key)" }.map { "\($0.key): \($0.value)" }
        print("yaml-test-suite: \(cases.count) cases, \(LibYAMLKnownDifferences.cases.count) known differences; "
            + summary.joined(separator: ", "))
        #expect(unexpected.isEmpty, "\(unexpected.joined(separator: "\n"))")
    }
}

extension YAMLTestSuiteTests.Outcome: Hashable {}

/// Checks the node tree, not just the events: every valid single-document case that libyaml reads must compose, and
/// where the suite gives the expected data (`in.json`), the tree must hold it — scalars compared as text, since the
/// reader types nothing (`42` in JSON matches the plain scalar `42`).
@Suite struct YAMLTestSuiteCompositionTests {
    @Test func treesMatchTheSuiteData() throws {
        guard Conformance.folder("yaml-test-suite") != nil else {
            if Conformance.isCI { Issue.record("\(Conformance.absenceMessage("yaml-test-suite"))") }
            return
        }
        var compared = 0
        var mismatches: [String] = []
        for testCase in try YAMLTestSuiteTests.cases() where !testCase.isError {
            guard LibYAMLKnownDifferences.cases[testCase.id] == nil else { continue }
            let input = try [UInt8](Data(contentsOf: testCase.directory.appendingPathComponent("in.yaml")))
            let events = suiteEvents(input)
            let documentCount = events.lines.filter { $0.hasPrefix("+DOC") }.count
            guard documentCount == 1 else { continue }
            let result = read(bytes: input)
            let problems = result.diagnostics.filter { $0.code != .yamlDuplicateKey }
            if !problems.isEmpty || result.root == nil {
                mismatches.append("\(testCase.id): \(problems.map(\.description))")
                continue
            }
            let jsonURL = testCase.directory.appendingPathComponent("in.json")
            guard let json = try? Data(contentsOf: jsonURL),
                let expected = try? JSONSerialization.jsonObject(with: json, options: [.fragmentsAllowed])
            else { continue }
            // Keys that repeat in the YAML collapse in JSON; such cases cannot be compared entry by entry.
            guard !result.diagnostics.contains(where: { $0.code == .yamlDuplicateKey }) else { continue }
            compared += 1
            if !matches(result.root!, expected) { mismatches.append("\(testCase.id): tree differs from in.json") }
        }
        print("yaml-test-suite composition: \(compared) trees compared with in.json")
        #expect(compared > 150)
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }

    /// Whether the node holds the JSON value, scalars compared as text.
    private func matches(_ node: YAMLNode, _ value: Any) -> Bool {
        switch node.content {
        case .scalar(let scalar):
            if let string = value as? String { return scalar.text == string }
            if value is NSNull { return ["", "~", "null", "Null", "NULL"].contains(scalar.text) }
            if let number = value as? NSNumber {
                if ["true", "false"].contains(scalar.text.lowercased()) {
                    return scalar.text.lowercased() == (number.boolValue ? "true" : "false")
                }
                return Double(scalar.text) == number.doubleValue
                    || Int(scalar.text.replacingOccurrences(of: "0o", with: ""), radix: 8).map(Double.init)
                        == number.doubleValue
                    || Int(scalar.text.replacingOccurrences(of: "0x", with: ""), radix: 16).map(Double.init)
                        == number.doubleValue
            }
            return false
        case .sequence(let items):
            guard let array = value as? [Any], array.count == items.count else { return false }
            return zip(items, array).allSatisfy { matches($0, $1) }
        case .mapping(let entries):
            guard let object = value as? [String: Any], object.count == entries.count else { return false }
            return entries.allSatisfy { entry in
                guard let key = entry.key.scalar?.text, let expected = object[key] else { return false }
                return matches(entry.value, expected)
            }
        }
    }
}
