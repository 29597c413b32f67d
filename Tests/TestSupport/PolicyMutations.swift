import Foundation

/// Policies for randomized tests: the example policies in `policies/` mutated line by line, and policies of random
/// rules. Tests of the checks (that they never trap) and of the schema (that it takes what the decoder takes) share
/// them.
public enum PolicyMutations {
    /// Values a policy could hold, well-formed or not, that exercise the checks.
    public static let values = [
        "\"< 2.4\"", "\">= 3.0.0 < 2.0.0\"", "\"*\"", "\"<= 2.4\"", "1.10", "no", "NO", "010", "1e3", "ios", "android",
        "[ios, android]", "\"2.x || 4.x\"", "\"!= 2.1\"",
        "{from: \"2026-12-01T02:00:00Z\", until: \"2027-01-01T00:00:00Z\"}",
        "{until: \"2020-01-01T00:00:00Z\"}", "0%", "50%", "[]", "{}", "block", "require-update", "suggest-update",
        "{not: {platform: ios}}", "[{platform: ios}, {platform: android}]", "\"> 119\"", "\"1.0 - 2\"", "~", "\"\"",
        "upgrade", "[first, normal]", "once-per-version", "12h", "pro", "[pro, team]",
    ]

    public static func seeds() throws -> [[UInt8]] {
        let folder = Conformance.packageRoot.appendingPathComponent("policies")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".yaml") }.sorted()
            .map { [UInt8](try Data(contentsOf: folder.appendingPathComponent($0))) }
    }

    public static func mutate(_ seed: [UInt8], using random: inout SeededGenerator) -> [UInt8] {
        var lines = String(decoding: seed, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            guard !lines.isEmpty else { break }
            let index = Int.random(in: 0..<lines.count, using: &random)
            switch Int.random(in: 0..<4, using: &random) {
            case 0, 1:
                // Replace what follows the last `: ` of a line with another value.
                if let colon = lines[index].range(of: ": ", options: .backwards) {
                    lines[index] = lines[index][..<colon.upperBound] + values.randomElement(using: &random)!
                }
            case 2:
                lines.remove(at: index)
            default:
                // Repeat a stretch of lines (a rule copied and pasted).
                let end = min(lines.count, index + Int.random(in: 1...6, using: &random))
                lines.insert(contentsOf: lines[index..<end], at: end)
            }
        }
        return Array(lines.joined(separator: "\n").utf8)
    }

    /// A policy of random rules that decodes: random platforms, ranges, regions, windows and rollouts under random
    /// actions, so that every semantic check has something to find.
    public static func generatedPolicy(using random: inout SeededGenerator) -> [UInt8] {
        func pick(_ choices: [String]) -> String { choices.randomElement(using: &random)! }
        // pt-BR twice, as two spellings (`lint.duplicate-translation`).
        let locales = ["de", "ja", "pt-BR", "pt_BR"].filter { _ in Bool.random(using: &random) }
        var yaml = "policy: 1\nstore: {" + ["ios: \"https://a\"", "android: \"https://b\""]
            .filter { _ in Bool.random(using: &random) }.joined(separator: ", ") + "}\nmessages:\n"
        for message in ["m0", "m1", "m2"] {
            yaml += "  \(message): {default: \"x\"" + locales.filter { _ in Int.random(in: 0..<4, using: &random) > 0 }
                .map { ", \($0): \"y\"" }.joined() + "}\n"
        }
        yaml += "rules:\n"
        // Each kind of entry with the values it may take.
        let entries: [[String]] = [
            ["platform: ios", "platform: android", "platform: [ios, android]"],
            ["< 2.0.0", "< 3.0.0", ">= 2.0.0 < 3.0.0", ">= 3.0.0 < 2.0.0", "*", "<= 2.4", "2.x"]
                .map { "app-version: \"\($0)\"" },
            ["< 100", ">= 100", "< 50"].map { "build: \"\($0)\"" },
            ["\"NO\"", "SE", "\"NO\", SE"].map { "region: [\($0)]" },
            ["until: \"2026-11-01T00:00:00Z\"", "from: \"2026-12-01T00:00:00Z\", until: \"2026-12-20T00:00:00Z\"",
             "from: \"2026-12-01T00:00:00Z\"", "until: \"2026-12-01T06:00:00Z\""].map { "date: {\($0)}" },
            ["0%", "50%", "100%"].map { "rollout: \($0)" },
            ["< 2.0", "< 140"].map { "original-app-version: \"\($0)\"" },
        ]
        func entry() -> String { pick(entries.randomElement(using: &random)!) }
        for index in 0..<Int.random(in: 1...6, using: &random) {
            let action = pick(["block", "require-update", "suggest-update", "notify", "grant"])
            var condition = (0..<Int.random(in: 0...3, using: &random)).map { _ in entry() }
            if Int.random(in: 0..<5, using: &random) == 0 { condition.append("any: [{\(entry())}, {\(entry())}]") }
            // Keys may repeat: a repeated key is a reader error, which the run must survive too.
            yaml += "  - id: r\(index)\n"
            if !condition.isEmpty { yaml += "    when: {\(condition.joined(separator: ", "))}\n" }
            yaml += "    then: \(action)\n"
            yaml += action == "grant" ? "    entitlements: [e]\n" : "    message: \(pick(["m0", "m1"]))\n"
        }
        return Array(yaml.utf8)
    }
}
