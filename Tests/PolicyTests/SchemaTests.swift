import Foundation
import LaunchPolicy
import Testing
import TestSupport

/// Keeps schemas/launch-policy.schema.json and the decoder in step, and validates every example against it.
@Suite struct SchemaTests {
    /// The schema, read afresh each time (a `[String: Any]` cannot be shared between concurrent tests).
    static var schema: [String: Any] {
        let url = Conformance.packageRoot.appendingPathComponent("schemas/launch-policy.schema.json")
        let data = (try? Data(contentsOf: url)) ?? Data()
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }

    static func definition(_ name: String) -> [String: Any] {
        ((schema["definitions"] as? [String: Any])?[name] as? [String: Any]) ?? [:]
    }

    static func keys(_ object: [String: Any]) -> Set<String> {
        Set(((object["properties"] as? [String: Any]) ?? [:]).keys)
    }

    static func property(_ object: [String: Any], _ name: String) -> [String: Any] {
        ((object["properties"] as? [String: Any])?[name] as? [String: Any]) ?? [:]
    }

    @Test func theSchemaIsDraft07() {
        #expect(Self.schema["$schema"] as? String == "http://json-schema.org/draft-07/schema#")
    }

    @Test func everyKeyTheDecoderKnowsIsInTheSchemaAndTheOtherWayRound() {
        let rule = Self.definition("rule")
        let condition = Self.definition("condition")
        let testCase = Self.definition("testCase")
        let expect = Self.property(testCase, "expect")
        let gateObject = ((Self.property(expect, "gate")["oneOf"] as? [[String: Any]]) ?? []).first { $0["type"] as? String == "object" } ?? [:]
        #expect(Self.keys(Self.schema) == Set(PolicyLanguage.topLevelKeys))
        #expect(Self.keys(rule) == Set(PolicyLanguage.ruleKeys))
        #expect(Self.keys(condition) == Set(PolicyLanguage.conditionKeys))
        #expect(Self.keys(Self.property(condition, "date")) == Set(PolicyLanguage.dateWindowKeys))
        #expect(Self.keys(testCase) == Set(PolicyLanguage.testCaseKeys))
        #expect(Self.keys(expect) == Set(PolicyLanguage.expectKeys))
        #expect(Self.keys(gateObject) == Set(PolicyLanguage.expectedGateKeys))
        #expect(Self.keys(Self.property(testCase, "context")) == Set(PolicyLanguage.contextKeys))
    }

    @Test func closedSetsMatchTheDecoder() {
        let rule = Self.definition("rule")
        #expect(Set(Self.property(rule, "then")["enum"] as? [String] ?? []) == Set(Action.allCases.map(\.rawValue)))
        #expect(Set(Self.property(rule, "show")["enum"] as? [String] ?? []) == Set(ShowFrequency.allCases.map(\.rawValue)))
        #expect(Self.keys(Self.property(Self.schema, "store")) == Set(Platform.allCases.map(\.rawValue)))
    }

    @Test(arguments: ExamplePolicyTests.examples)
    func everyExampleValidates(url: URL) throws {
        let root = try #require(YAMLReader().read(Data(contentsOf: url)).root)
        let problems = MiniSchemaValidator(root: Self.schema).validate(JSONValue(root), Self.schema, at: "$")
        #expect(problems.isEmpty, "\(url.lastPathComponent): \(problems)")
    }

    /// An editor must not flag what CI passes: a policy that policy-lint (the decoder, the checks and the policy's
    /// tests) passes without a warning validates, over example policies mutated line by line and policies of random
    /// rules. One difference is kept on purpose: the schema asks for text as strings, so an editor flags `id: 12` or
    /// `app-version: 2.4`, which LaunchPolicy reads as the text written and policy-lint lets pass.
    @Test func whatPolicyLintPassesValidates() throws {
        let seeds = try PolicyMutations.seeds()
        var random = SeededGenerator(seed: 0x5C_4E3A)
        let linter = PolicyLinter(now: Date(timeIntervalSince1970: 1_795_176_000))
        let validator = MiniSchemaValidator(root: Self.schema)
        var passed = 0
        for iteration in 0..<3_000 {
            let input = iteration.isMultiple(of: 2)
                ? PolicyMutations.generatedPolicy(using: &random)
                : PolicyMutations.mutate(seeds.randomElement(using: &random)!, using: &random)
            guard linter.lint(input, path: "mutated.yaml").diagnostics.allSatisfy({ $0.severity == .note }),
                let root = YAMLReader().read(Data(input)).root
            else { continue }
            passed += 1
            let problems = validator.validate(JSONValue(root), Self.schema, at: "$").filter { problem in
                !["number", "integer", "boolean"].contains { problem.hasSuffix(": \($0) where string belongs") }
            }
            #expect(problems.isEmpty, "\(problems)\n\(String(decoding: input, as: UTF8.self))")
        }
        #expect(passed >= 250, "only \(passed) inputs passed policy-lint")
    }

    @Test func aTestCaseMayExpectOneRuleScreenOrEntitlementWithoutAList() throws {
        let yaml = """
            policy: 1
            rules:
              - {id: a, then: grant, entitlements: pro}
            tests:
              - name: one of each
                context: {}
                memory: a
                expect: {prompts: a, notices: a, presentations: home, grants: pro}
            """
        let root = try #require(YAMLReader().read(Data(yaml.utf8)).root)
        #expect(MiniSchemaValidator(root: Self.schema).validate(JSONValue(root), Self.schema, at: "$").isEmpty)
    }

    @Test func theValidatorRejectsWhatTheSchemaForbids() throws {
        let root = try #require(YAMLReader().read("policy: 1\nrules:\n  - {id: a, then: explode, colour: red}\n").root)
        let problems = MiniSchemaValidator(root: Self.schema).validate(JSONValue(root), Self.schema, at: "$")
        #expect(problems.contains { $0.contains("explode") })
        #expect(problems.contains { $0.contains("colour") })
    }
}

/// A YAML node typed as yaml-language-server types it (YAML 1.2 core schema), for validation only.
enum JSONValue {
    case null, bool(Bool), integer(Int), number(Double), string(String), array([JSONValue]), object([(String, JSONValue)])

    init(_ node: YAMLNode) {
        switch node.content {
        case .sequence(let items): self = .array(items.map(JSONValue.init))
        case .mapping(let entries): self = .object(entries.map { ($0.key.scalar?.text ?? "", JSONValue($0.value)) })
        case .scalar(let scalar):
            guard scalar.style == .plain else { self = .string(scalar.text); return }
            switch scalar.text {
            case "", "~", "null", "Null", "NULL": self = .null
            case "true", "True", "TRUE": self = .bool(true)
            case "false", "False", "FALSE": self = .bool(false)
            default:
                if let value = Int(scalar.text) { self = .integer(value) }
                else if let value = Double(scalar.text), scalar.text.first?.isNumber == true || scalar.text.first == "-" { self = .number(value) }
                else { self = .string(scalar.text) }
            }
        }
    }

    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .integer: "integer"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

/// The subset of JSON Schema draft-07 the policy schema uses.
struct MiniSchemaValidator {
    let root: [String: Any]

    func validate(_ value: JSONValue, _ schema: [String: Any], at path: String) -> [String] {
        if let reference = schema["$ref"] as? String {
            let name = String(reference.split(separator: "/").last ?? "")
            let target = ((root["definitions"] as? [String: Any])?[name] as? [String: Any]) ?? [:]
            return validate(value, target, at: path)
        }
        var problems: [String] = []
        if let alternatives = schema["oneOf"] as? [[String: Any]] {
            let passing = alternatives.filter { validate(value, $0, at: path).isEmpty }.count
            if passing != 1 { problems.append("\(path): matches \(passing) of the oneOf alternatives") }
        }
        let types = (schema["type"] as? [String]) ?? (schema["type"] as? String).map { [$0] } ?? []
        if !types.isEmpty {
            let name = value.typeName
            if !(types.contains(name) || (name == "integer" && types.contains("number"))) {
                return problems + ["\(path): \(name) where \(types.joined(separator: " or ")) belongs"]
            }
        }
        if let allowed = schema["enum"] as? [Any] {
            let matches = allowed.contains { candidate in
                switch value {
                case .string(let text): return candidate as? String == text
                case .integer(let number): return (candidate as? NSNumber)?.intValue == number && !(candidate is String)
                default: return false
                }
            }
            if !matches { problems.append("\(path): \(value) is not one of \(allowed)") }
        }
        if let pattern = schema["pattern"] as? String, case .string(let text) = value,
            text.range(of: pattern, options: .regularExpression) == nil
        {
            problems.append("\(path): \"\(text)\" does not match \(pattern)")
        }
        switch value {
        case .array(let items):
            if let minimum = schema["minItems"] as? Int, items.count < minimum { problems.append("\(path): too few items") }
            if let itemSchema = schema["items"] as? [String: Any] {
                for (index, item) in items.enumerated() { problems += validate(item, itemSchema, at: "\(path)[\(index)]") }
            }
        case .object(let entries):
            let properties = schema["properties"] as? [String: Any] ?? [:]
            for required in schema["required"] as? [String] ?? [] where !entries.contains(where: { $0.0 == required }) {
                problems.append("\(path): missing \(required)")
            }
            if let minimum = schema["minProperties"] as? Int, entries.count < minimum { problems.append("\(path): too few keys") }
            for (key, entry) in entries {
                if let names = schema["propertyNames"] as? [String: Any], let pattern = names["pattern"] as? String,
                    key.range(of: pattern, options: .regularExpression) == nil
                {
                    problems.append("\(path): key \(key) does not match \(pattern)")
                }
                if let propertySchema = properties[key] as? [String: Any] {
                    problems += validate(entry, propertySchema, at: "\(path).\(key)")
                } else if let additional = schema["additionalProperties"] as? [String: Any] {
                    problems += validate(entry, additional, at: "\(path).\(key)")
                } else if schema["additionalProperties"] as? Bool == false {
                    problems.append("\(path): unknown key \(key)")
                }
            }
        default:
            break
        }
        return problems
    }
}
