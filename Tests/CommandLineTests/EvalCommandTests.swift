import Foundation
import LaunchPolicy
import Testing
import TestSupport

@Suite struct EvalCommandTests {
    func run(_ arguments: String...) throws -> CommandResult {
        try Executables.run("launch-policy", ["eval"] + arguments)
    }

    func json(_ result: CommandResult) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8))
        return try #require(object as? [String: Any], "one JSON object: \(result.standardOutput)")
    }


    /// The report shows the policy's texts as a terminal may show them: a message spelling an escape sequence or a
    /// bidirectional override shows it visibly, and its lines stay lines.
    @Test func theTextReportSendsTheTerminalNoEscapeSequences() throws {
        let folder = try makeTemporaryFolder("eval-escapes")
        defer { try? FileManager.default.removeItem(at: folder) }
        let policy = folder.appendingPathComponent("p.yaml")
        try Data(#"""
            policy: 1
            messages:
              hi: {default: "\e]0;title\a\u202Eolleh\nsecond line"}
            rules:
              - {id: "n\e[2J", then: notify, message: hi}
            """#.utf8).write(to: policy)
        let result = try run(policy.path, "--platform", "ios", "--app-version", "1.0")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(!result.standardOutput.unicodeScalars.contains { [0x1B, 0x07, 0x202E].contains($0.value) },
            "\(result.standardOutput.debugDescription)")
        #expect(result.standardOutput.contains(
            "notify by n\u{241B}[2J: \"\u{241B}]0;title\u{2407}\u{FFFD}olleh\nsecond line\""),
            "\(result.standardOutput)")
    }

    @Test func jsonHasExactlyTheDocumentedKeys() throws {
        let result = try run("policies/minimum-version.yaml", "--platform", "ios", "--app-version", "2.3.9",
            "--locale", "ja-JP", "--format", "json")
        #expect(result.status == 0)
        #expect(result.standardError.isEmpty)
        #expect(result.standardOutput.hasSuffix("}\n"))
        let object = try json(result)
        #expect(Set(object.keys) == ["gate", "prompts", "notices", "presentations", "grants", "explanation"])
        let gate = try #require(object["gate"] as? [String: Any])
        #expect(Set(gate.keys) == ["action", "rule", "message", "text", "url"])
        #expect(gate["action"] as? String == "require-update")
        #expect(gate["rule"] as? String == "minimum-ios")
        #expect(gate["message"] as? String == "update-required")
        #expect(gate["text"] as? String == "Lanternを最新版に更新してください。")
        #expect(gate["url"] as? String == "itms-apps://apps.apple.com/app/id000000001")
        #expect((object["prompts"] as? [Any])?.isEmpty == true)
        let explanation = try #require(object["explanation"] as? [[String: Any]])
        #expect(explanation.map { $0["rule"] as? String } == ["minimum-ios", "optional-ios"])
        #expect(explanation[1]["outcome"] as? String == "hidden-by-gate")
    }

    @Test func jsonListsPromptsNoticesPresentationsAndGrantsWithTheirKeys() throws {
        let folder = try makeTemporaryFolder("eval")
        defer { try? FileManager.default.removeItem(at: folder) }
        let policy = folder.appendingPathComponent("all.yaml")
        try Data("""
            policy: 1
            store: {android: "market://details?id=app"}
            messages: {m: {default: "Hello", fr: "Bonjour"}, u: {default: "Update"}}
            rules:
              - {id: ask, when: {build: "< 130"}, then: suggest-update, message: u}
              - {id: hello, when: {attributes: {plan: pro}}, then: notify, message: m}
              - {id: tour, when: {launch: first}, then: present, screen: tour}
              - {id: pro, when: {attributes: {plan: pro}}, then: grant, entitlements: [premium]}
            """.utf8).write(to: policy)
        let object = try json(run(policy.path, "--platform", "android", "--build", "125", "--launch", "first",
            "--attribute", "plan=pro", "--locale", "fr-CA", "--format", "json"))
        let prompt = try #require((object["prompts"] as? [[String: Any]])?.first)
        #expect(Set(prompt.keys) == ["action", "rule", "message", "text", "url"])
        #expect(prompt["url"] as? String == "market://details?id=app")
        let notice = try #require((object["notices"] as? [[String: Any]])?.first)
        #expect(Set(notice.keys) == ["action", "rule", "message", "text"])
        #expect(notice["text"] as? String == "Bonjour")
        let presentation = try #require((object["presentations"] as? [[String: Any]])?.first)
        #expect(Set(presentation.keys) == ["action", "rule", "screen"])
        #expect(presentation["screen"] as? String == "tour")
        #expect(object["grants"] as? [String] == ["premium"])
    }

    @Test func textShowsWhatTheUserSeesThenWhy() throws {
        let result = try run("policies/minimum-version.yaml", "--platform", "ios", "--app-version", "2.5")
        #expect(result.status == 0)
        #expect(result.standardOutput == """
            gate          none
            prompts       suggest-update by optional-ios: "A new version of Lantern is available." → itms-apps://apps.apple.com/app/id000000001
            notices       none
            presentations none
            grants        none

            explanation
              minimum-ios   line 15  does not match: app-version 2.5 does not satisfy < 2.4
              optional-ios  line 21  matches: suggests an update

            """)
    }

    @Test func aContextFileIsReadAndOptionsOverrideIt() throws {
        let folder = try makeTemporaryFolder("eval")
        defer { try? FileManager.default.removeItem(at: folder) }
        let yaml = folder.appendingPathComponent("context.yaml")
        try Data("platform: ios\napp-version: \"2.3\"\nnow: \"2026-12-01T03:00:00Z\"\n".utf8).write(to: yaml)
        let json = folder.appendingPathComponent("context.json")
        try Data(#"{"platform": "ios", "app-version": "2.3", "attributes": {"plan": "pro"}}"#.utf8).write(to: json)

        #expect(try self.json(run("policies/minimum-version.yaml", "--context", yaml.path, "--format", "json"))["gate"]
            is [String: Any])
        let overridden = try self.json(run("policies/minimum-version.yaml", "--context", json.path, "--app-version", "3.0",
            "--format", "json"))
        #expect(overridden["gate"] is NSNull)
        let maintenance = try self.json(run("policies/maintenance-window.yaml", "--context", yaml.path, "--format", "json"))
        #expect((maintenance["gate"] as? [String: Any])?["rule"] as? String == "maintenance")

        let bad = folder.appendingPathComponent("bad.yaml")
        try Data("platform: ios\napp-verison: \"2.3\"\n".utf8).write(to: bad)
        let result = try run("policies/minimum-version.yaml", "--context", bad.path)
        #expect(result.status == 2)
        #expect(result.standardError.contains("bad.yaml:2:1: error:"))
        #expect(result.standardError.contains("app-version"))
    }

    /// The command decides as the library does, whether the launch comes as options or as a `--context` file:
    /// random policies at random launches (every key of the context, some left out), three ways each.
    @Test func optionsAContextFileAndTheLibraryDecideAlike() throws {
        let folder = try makeTemporaryFolder("eval-random")
        defer { try? FileManager.default.removeItem(at: folder) }
        var random = SeededGenerator(seed: 0xE7A1_0001)
        var compared = 0
        var seen: Set<String> = []
        while compared < 24 {
            let yaml = RandomPolicies.policy(using: &random)
            guard let policy = YAMLPolicyParser().parse(Data(yaml.utf8)).usablePolicy,
                let launch = RandomPolicies.launch(using: &random)
            else { continue }
            compared += 1
            let file = folder.appendingPathComponent("policy.yaml")
            try Data(yaml.utf8).write(to: file)
            var options: [String] = []
            var context = ""
            for (key, value) in launch.values.sorted(by: { $0.key < $1.key }) {
                switch value {
                case .text(let text):
                    options += ["--\(key)", text]
                    context += "\(key): \"\(text)\"\n"
                case .map(let attributes):
                    for (name, text) in attributes.sorted(by: { $0.key < $1.key }) {
                        options += ["--attribute", "\(name)=\(text)"]
                    }
                    context += "attributes: {" + attributes.sorted { $0.key < $1.key }
                        .map { "\($0.key): \"\($0.value)\"" }.joined(separator: ", ") + "}\n"
                case .list: Issue.record("a launch value is a list: \(value)")
                }
            }
            let contextFile = folder.appendingPathComponent("context.yaml")
            try Data(context.utf8).write(to: contextFile)

            let decision = policy.evaluate(launch.context)
            let expected: [String: String] = [
                "gate": decision.gate?.rule ?? "none",
                "prompts": decision.prompts.map(\.rule).joined(separator: " "),
                "notices": decision.notices.map(\.rule).joined(separator: " "),
                "grants": decision.grants.joined(separator: " "),
                "matched": decision.explanation.map { $0.matched ? "1" : "0" }.joined(),
            ]
            let shown = expected.filter { !$0.value.isEmpty && $0.value != "none" && $0.value.contains { $0 != "0" } }
            seen.formUnion(shown.keys)
            for arguments in [options, ["--context", contextFile.path]] {
                let result = try Executables.run("launch-policy", ["eval", file.path, "--format", "json"] + arguments)
                #expect(result.status == 0, "\(arguments): \(result.standardError)")
                guard result.status == 0 else { continue }
                let object = try json(result)
                let rules = { (key: String) in
                    let directives = (object[key] as? [[String: Any]]) ?? []
                    return directives.compactMap { $0["rule"] as? String }.joined(separator: " ")
                }
                let found: [String: String] = [
                    "gate": ((object["gate"] as? [String: Any])?["rule"] as? String) ?? "none",
                    "prompts": rules("prompts"),
                    "notices": rules("notices"),
                    "grants": ((object["grants"] as? [String]) ?? []).joined(separator: " "),
                    "matched": ((object["explanation"] as? [[String: Any]]) ?? [])
                        .map { ($0["matched"] as? Bool) == true ? "1" : "0" }.joined(),
                ]
                #expect(found == expected, "\(arguments)\n\(yaml)")
            }
        }
        // Decisions of every kind were compared, not only empty ones.
        #expect(seen == ["gate", "prompts", "notices", "grants", "matched"], "\(seen)")
    }

    @Test func aMemoryFileThatIsAFolderSaysWhyInWords() throws {
        let folder = try makeTemporaryFolder("eval-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let memory = folder.appendingPathComponent("shown.json").path
        try FileManager.default.createDirectory(atPath: memory, withIntermediateDirectories: false)
        let result = try run("policies/minimum-version.yaml", "--platform", "ios", "--app-version", "2.5",
            "--memory", memory)
        #expect(result.status == 2)
        #expect(result.standardError == "launch-policy eval: the memory file \(memory) could not be read: is a "
            + "directory\n")
    }

    @Test func memoryIsReadAndRecordWritesWhatWasShown() throws {
        let folder = try makeTemporaryFolder("eval")
        defer { try? FileManager.default.removeItem(at: folder) }
        let memory = folder.appendingPathComponent("shown.json").path
        let arguments = ["policies/minimum-version.yaml", "--platform", "ios", "--app-version", "2.5", "--memory", memory,
            "--format", "json"]
        let withoutRecording = try Executables.run("launch-policy", ["eval"] + arguments)
        #expect((try json(withoutRecording)["prompts"] as? [Any])?.count == 1)
        #expect(!FileManager.default.fileExists(atPath: memory), "without --record nothing is written")

        #expect(try Executables.run("launch-policy", ["eval"] + arguments + ["--record"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: memory))
        let again = try Executables.run("launch-policy", ["eval"] + arguments)
        #expect((try json(again)["prompts"] as? [Any])?.isEmpty == true)
        let explanation = try #require(try json(again)["explanation"] as? [[String: Any]])
        #expect(explanation[1]["outcome"] as? String == "already-shown")

        let newVersion = try Executables.run("launch-policy",
            ["eval"] + arguments.map { $0 == "2.5" ? "2.5.1" : $0 })
        #expect((try json(newVersion)["prompts"] as? [Any])?.count == 1, "once per version")
    }

    @Test func aMemoryLockHeldPastTheTimeoutExitsTwoAndLeavesTheMemoryAsItWas() throws {
        let folder = try makeTemporaryFolder("eval")
        defer { try? FileManager.default.removeItem(at: folder) }
        let memory = folder.appendingPathComponent("shown.json").path
        let arguments = ["policies/minimum-version.yaml", "--platform", "ios", "--app-version", "2.5",
            "--memory", memory, "--format", "json", "--record"]
        let held = try HeldFileLock(path: memory + ".lock")
        defer { held.release() }
        let refused = try Executables.run("launch-policy", ["eval"] + arguments + ["--lock-timeout", "0.2"])
        #expect(refused.status == 2)
        #expect((try json(refused)["prompts"] as? [Any])?.count == 1, "the decision is still printed")
        #expect(refused.standardError == "launch-policy: the memory file \(memory) could not be written: the lock "
            + "\(memory).lock was held by another writer for longer than 0.2 s; nothing was written\n")
        #expect(!FileManager.default.fileExists(atPath: memory))
        // Released while the next process waits: its record is taken.
        held.release(after: 0.3)
        #expect(try Executables.run("launch-policy", ["eval"] + arguments + ["--lock-timeout", "60"]).status == 0)
        let again = try Executables.run("launch-policy", ["eval"] + arguments.dropLast())
        #expect((try json(again)["prompts"] as? [Any])?.isEmpty == true, "recorded once the lock was free")
        // `inf`, as documented, waits as long as it takes: with the lock free, at once.
        #expect(try Executables.run("launch-policy", ["eval"] + arguments + ["--lock-timeout", "inf"]).status == 0)
    }

    @Test func anUnreadableMemoryFileIsAUsageErrorAndIsNotOverwritten() throws {
        let folder = try makeTemporaryFolder("eval")
        defer { try? FileManager.default.removeItem(at: folder) }
        let memory = folder.appendingPathComponent("shown.json")
        try Data("{not json".utf8).write(to: memory)
        let result = try run("policies/minimum-version.yaml", "--app-version", "2.5", "--memory", memory.path, "--record")
        #expect(result.status == 2)
        #expect(result.standardError == """
            \(memory.path):1:2: error: the memory file could not be read: it is not valid JSON: unexpected "n" where \
            a key should start [state.not-json]
            {not json
             ^

            """)
        #expect(try String(contentsOf: memory, encoding: .utf8) == "{not json")
    }

    @Test func aPolicyWithErrorsExitsOneWithDiagnosticsOnStandardError() throws {
        let folder = try makeTemporaryFolder("eval")
        defer { try? FileManager.default.removeItem(at: folder) }
        let policy = folder.appendingPathComponent("bad.yaml")
        try Data("policy: 1\nrules:\n  - {id: a, when: {app-version: \"<< 2\"}, then: block}\n".utf8).write(to: policy)
        let result = try run(policy.path, "--app-version", "1.0")
        #expect(result.status == 1)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.contains("bad.yaml:3:"))
        #expect(result.standardError.contains("[policy.invalid-range]"))
        #expect(result.standardError.contains("[policy.missing-key]"))
    }

    @Test(arguments: [
        (["policies/no-such-policy.yaml"], "no such file"),
        (["policies/minimum-version.yaml", "--app-version", "2.x"], "--app-version \"2.x\" is not valid"),
        (["policies/minimum-version.yaml", "--platform", "windows"], "--platform \"windows\" is not valid"),
        (["policies/minimum-version.yaml", "--now", "tomorrow"], "--now \"tomorrow\" is not valid"),
        (["policies/minimum-version.yaml", "--launch-count=-3"], "--launch-count \"-3\" is not valid"),
        (["policies/minimum-version.yaml", "--launch-count", "many"], "--launch-count \"many\" is not valid"),
        (["policies/minimum-version.yaml", "--attribute", "plan"], "--attribute takes NAME=VALUE"),
        (["policies/minimum-version.yaml", "--record"], "--record needs --memory"),
        (["policies/minimum-version.yaml", "--memory", "m.json", "--record", "--lock-timeout=-1"],
            "--lock-timeout \"-1\" is not valid"),
        (["policies/minimum-version.yaml", "--memory", "m.json", "--record", "--lock-timeout", "nan"],
            "--lock-timeout \"nan\" is not valid"),
        (["policies/minimum-version.yaml", "--format", "xml"], "xml"),
        (["policies/minimum-version.yaml", "--context", "no-such-context.yaml"], "cannot read the context"),
        ([], "Missing expected argument"),
    ])
    func usageErrorsExitTwo(arguments: [String], message: String) throws {
        let result = try Executables.run("launch-policy", ["eval"] + arguments)
        #expect(result.status == 2)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.contains(message), "\(result.standardError)")
    }

    @Test func launchGateAndGandalfConfigurationsAreEvaluatedThroughTheMapping() throws {
        let ios = try json(run("policies/launchgate/gandalf-and-launchgate.json", "--platform", "ios", "--app-version", "1.9",
            "--format", "json"))
        #expect((ios["gate"] as? [String: Any])?["rule"] as? String == "requiredUpdate-ios")
        // Gandalf's non-blocking alert is a notice; a versionCode at or above the minimum passes the gate.
        let android = try json(run("policies/launchgate/gandalf-and-launchgate.json", "--platform", "android",
            "--build", "125", "--format", "json"))
        #expect(android["gate"] is NSNull)
        #expect((android["notices"] as? [[String: Any]])?.compactMap { $0["rule"] as? String } == ["alert-android"])
        let old = try json(run("policies/launchgate/gandalf-and-launchgate.json", "--platform", "android",
            "--build", "119", "--format", "json"))
        #expect((old["gate"] as? [String: Any])?["rule"] as? String == "requiredUpdate-android")
    }
}

@Suite struct ExplainCommandTests {
    @Test func explainsEachRuleOrOne() throws {
        let all = try Executables.run("launch-policy", ["explain", "policies/minimum-version.yaml"])
        #expect(all.status == 0)
        #expect(all.standardOutput == """
            minimum-ios: Blocks iOS users below 2.4 and asks them to update: 'Please update Lantern to keep going.'
            optional-ios: Asks iOS users below 2.6 to update, once per app version: 'A new version of Lantern is available.'

            """)
        let one = try Executables.run("launch-policy", ["explain", "policies/minimum-version.yaml", "--rule", "optional-ios",
            "--format", "json"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(one.standardOutput.utf8)) as? [[String: String]])
        #expect(json.map { $0["rule"] } == ["optional-ios"])
        let unknown = try Executables.run("launch-policy", ["explain", "policies/minimum-version.yaml", "--rule", "nope"])
        #expect(unknown.status == 2)
        #expect(unknown.standardError.contains("its rules are: minimum-ios, optional-ios"))
    }
}
