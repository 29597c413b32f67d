import CLibYAML
import Foundation
import LaunchPolicy

/// The operations measured on one input, by name. Each returns a number derived from its result.
enum Operations {
    /// A fixed "now", so that date windows and lint findings are the same on every run.
    static let now = Date(timeIntervalSince1970: 1_795_176_000)  // 2026-11-20T12:00:00Z

    /// The names `measure` accepts, in the order the report shows them.
    static let names = [
        "floor", "reader", "reader+decoder", "evaluate", "evaluate-ungated", "evaluate-explained", "launch-context",
        "record-launch", "lint",
        "json-serialization", "reader+decoder-json",
    ]

    /// The measures that run on a file of this name: on a `.json` file those whose names say `json`, on YAML the rest.
    static func names(for path: String) -> [String] {
        names.filter { $0.contains("json") == path.hasSuffix(".json") }
    }

    /// Prepares the operation `name` on `bytes`: whatever it needs beforehand (a parsed policy for `evaluate`) is
    /// done here, outside the timing. Nil for a name it does not know, or an input it cannot run on (``check``
    /// says why).
    static func operation(_ name: String, bytes: [UInt8], path: String) -> (() -> Int)? {
        switch name {
        case "floor":
            return { libyamlScan(bytes) }
        case "reader":
            return { YAMLReader().read(bytes).documents.count }
        case "reader+decoder", "reader+decoder-json":
            // The parser reads `Data`, which an app has from its file; made here, as for `json-serialization`, so
            // that the copy of the bytes into it is not timed, as it is not in the floor's.
            let data = Data(bytes)
            return { AutomaticPolicyParser().parse(data).policy?.rules.count ?? -1 }
        case "evaluate", "evaluate-ungated":
            // What an app reads at launch: the directives and the grants.
            guard let policy = AutomaticPolicyParser().parse(Data(bytes)).usablePolicy else { return nil }
            let context = name == "evaluate" ? context : ungatedContext
            return {
                let decision = policy.evaluate(context)
                return decision.gate != nil ? 1 : decision.prompts.count + decision.notices.count
                    + decision.presentations.count + decision.grants.count
            }
        case "evaluate-explained":
            // What a report or a simulation reads besides: whether each rule matched and what became of it.
            guard let policy = AutomaticPolicyParser().parse(Data(bytes)).usablePolicy else { return nil }
            return { policy.evaluate(ungatedContext).explanation.reduce(0) { $0 + ($1.matched ? 1 : 0) } }
        case "launch-context":
            // What an app makes before it evaluates, at every launch: (d) times the evaluation of one made beforehand.
            return { launch(.upgrade, appVersion: "2.3.9", build: "2390", region: "BR").installID?.utf8.count ?? 0 }
        case "record-launch":
            // What an app does at every launch before it makes the context: the history file locked, read and
            // written again with this launch counted. One folder, emptied first, so that runs leave one behind.
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("policy-benchmarks-launches")
            try? FileManager.default.removeItem(at: folder)
            let store = JSONFileLaunchHistoryStore(url: folder.appendingPathComponent("launches.json"))
            var launches = 0
            return {
                // Each launch a process of its own, as the tracker tells launches apart by process.
                launches += 1
                let tracker = try? LaunchTracker(store: store, appVersion: "2.3.9", build: "2390",
                    importingLegacyKeysFrom: nil, process: "launch-\(launches)")
                return (try? tracker?.recordLaunch(now: now))?.count ?? -1
            }
        case "lint":
            let linter = PolicyLinter(now: now)
            return { linter.lint(bytes, path: path).diagnostics.count }
        case "json-serialization":
            let data = Data(bytes)
            return { ((try? JSONSerialization.jsonObject(with: data)) as? [String: Any])?.count ?? -1 }
        default:
            return nil
        }
    }

    /// Why an operation cannot be measured on an input: the input does not do what the measure says it times (a
    /// policy with errors would time a decoder that stops early; a launch a gate stops, an evaluation that decides
    /// few rules).
    struct Mismatch: Error {
        let reason: String
    }

    /// Checks that the operation `name` does on `bytes` what its measure says it times. Apart from ``operation``:
    /// `measure` checks after timing, and `instructions.sh` runs `check` in a process of its own, since a check made
    /// first in a process whose first operation is counted would do that operation's one-time work.
    static func check(_ name: String, bytes: [UInt8], path: String) throws(Mismatch) {
        switch name {
        case "floor":
            guard libyamlScan(bytes) >= 0 else { throw Mismatch(reason: "libyaml stops before the input's end") }
        case "reader":
            let read = YAMLReader().read(bytes)
            guard read.documents.count == 1, !read.diagnostics.containsErrors else {
                throw Mismatch(reason: "the reader does not read the input as one document without errors")
            }
        case "reader+decoder", "reader+decoder-json":
            _ = try usablePolicy(bytes)
        case "evaluate", "evaluate-ungated", "evaluate-explained":
            let gated = name == "evaluate"
            let gate = try usablePolicy(bytes).evaluate(gated ? context : ungatedContext).gate
            // Behind a gate only the grants' conditions are decided.
            if gated, gate == nil { throw Mismatch(reason: "no gate stops the launch this measure is of") }
            if !gated, let gate {
                throw Mismatch(reason: "\(gate.rule)'s gate stops the launch that is to decide every rule")
            }
        case "lint":
            guard !PolicyLinter(now: now).lint(bytes, path: path).diagnostics.containsErrors else {
                throw Mismatch(reason: "policy-lint finds errors, and would time a lint that stops before its checks")
            }
        case "json-serialization":
            guard (try? JSONSerialization.jsonObject(with: Data(bytes))) is [String: Any] else {
                throw Mismatch(reason: "JSONSerialization does not read the input as an object")
            }
        case "launch-context", "record-launch":
            break
        default:
            throw Mismatch(reason: "no such measure")
        }
    }

    /// The policy in `bytes`, which must parse without errors: a rule with an error is left out of the policy, and
    /// the measures would time a smaller one.
    private static func usablePolicy(_ bytes: [UInt8]) throws(Mismatch) -> Policy {
        let parsed = AutomaticPolicyParser().parse(Data(bytes))
        guard let policy = parsed.usablePolicy else {
            let first = parsed.diagnostics.first { $0.severity == .error }
            throw Mismatch(reason: "the policy has errors" + (first.map { ", the first: \($0.message)" } ?? ""))
        }
        return policy
    }

    /// The launch the evaluation decides for: an iOS user on 2.3.9 upgrading, with every kind of context value set;
    /// a require-update gate stops them (the first rule, in the 48-rule policy).
    static let context = launch(.upgrade, appVersion: "2.3.9", build: "2390", region: "BR")

    /// A launch no gate stops (a normal launch of 9.9.9 in CN, which every gate of the generated policies leaves out:
    /// `generate-inputs.py`): every rule's condition is decided at launch, and a prompt, a notice and a screen are
    /// shown. Behind a gate only the grants' conditions are; this is the other case. ``check(_:bytes:path:)`` holds
    /// the policy to it.
    static let ungatedContext = launch(.normal, appVersion: "9.9.9", build: "99999", region: "CN")

    /// An iOS launch with every kind of context value set.
    private static func launch(_ kind: LaunchKind, appVersion: String, build: String, region: String) -> LaunchContext {
        let day: TimeInterval = 86_400
        let launch = LaunchInfo(
            kind: kind, count: 12, previousVersion: "2.3.1", installVersion: "1.4", firstLaunchDate: now - 400 * day,
            previousLaunchDate: now - 9 * day, daysSinceLastLaunch: 9, daysSinceInstall: 400, source: .organic)
        return try! LaunchContext(
            platform: .ios, appVersion: appVersion, build: build, osVersion: "17.4", originalAppVersion: "120",
            locale: "pt-BR", region: region, now: now, installID: "6F1C2A9E-0B7D-4E55-9C1A-3D2B8E7F4A10", launch: launch,
            attributes: ["plan": "pro"])
    }

    /// The floor: libyaml's event parser over the bytes, copying every scalar into a Swift String, and nothing else.
    /// The bytes of every scalar, or -1 when libyaml stops before the input's end.
    static func libyamlScan(_ bytes: [UInt8]) -> Int {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return -1 }
        defer { yaml_parser_delete(&parser) }
        var scalarBytes = 0
        var ended = false
        bytes.withUnsafeBufferPointer { buffer in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var event = yaml_event_t()
            while yaml_parser_parse(&parser, &event) == 1 {
                defer { yaml_event_delete(&event) }
                if event.type == YAML_SCALAR_EVENT {
                    let scalar = event.data.scalar
                    let text = String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
                    scalarBytes &+= text.utf8.count
                }
                if event.type == YAML_STREAM_END_EVENT {
                    ended = true
                    break
                }
            }
        }
        return ended ? scalarBytes : -1
    }
}
