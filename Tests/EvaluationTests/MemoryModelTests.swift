import Foundation
import LaunchPolicy
import Testing
import TestSupport

/// Display memory against a model of docs/evaluation.md ("What memory remembers"): random rules of each `show`, with
/// and without `every`, over random runs of launches that change the app version (`2.0` and `2.0.0` are one), the
/// locale (a translation the user has not seen), the clock (forward, and back) and the message texts (an edit). The
/// app records what each launch shows, in memory or through the file store; the model says which rules show.
@Suite struct MemoryModelTests {
    /// A rule as the model sees it.
    struct RuleModel {
        var id: String
        var action: Action
        var show: String
        var every: TimeInterval?
        /// The message or the screen.
        var shows: String
    }

    /// What a rule is remembered by, as the table writes it: the rule, then the text or screen (`once`), the message
    /// or screen and the app version (`once-per-version`), or nothing more (`every-launch`).
    static func key(_ rule: RuleModel, text: String?, version: String) -> String {
        switch rule.show {
        case "once": rule.id + "|" + (rule.action == .present ? "screen " + rule.shows : "text " + (text ?? ""))
        case "once-per-version": rule.id + "|" + rule.shows + "|" + version
        default: rule.id
        }
    }

    /// `2.0` and `2.0.0` are one version.
    static func normalized(_ version: String) -> String {
        var parts = version.split(separator: ".").map(String.init)
        while parts.count < 3 { parts.append("0") }
        return parts.joined(separator: ".")
    }

    static func run(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var rules: [RuleModel] = []
        for index in 0..<Int.random(in: 1...5, using: &random) {
            let action = [Action.notify, .present, .suggestUpdate].randomElement(using: &random)!
            rules.append(RuleModel(
                id: "r\(index)", action: action,
                show: ["once", "once-per-version", "every-launch"].randomElement(using: &random)!,
                every: [nil, nil, 12 * 3_600, 3 * 86_400].randomElement(using: &random)!,
                shows: action == .present ? ["tour", "news"].randomElement(using: &random)!
                    : ["m", "n"].randomElement(using: &random)!))
        }
        // `m` has a Japanese translation, `n` does not; an edit changes `m`'s default text.
        func policy(edition: Int) throws -> Policy {
            var yaml = """
                policy: 1
                store: {ios: "https://example.com/store"}
                messages:
                  m: {default: "M\(edition)", ja: "エム"}
                  n: {default: "N"}
                rules:

                """
            for rule in rules {
                yaml += "  - {id: \(rule.id), then: \(rule.action.rawValue), show: \(rule.show)"
                yaml += rule.action == .present ? ", screen: \(rule.shows)" : ", message: \(rule.shows)"
                yaml += rule.every.map { ", every: \(Int($0 / 3_600))h" } ?? ""
                yaml += "}\n"
            }
            let parsed = YAMLPolicyParser().parse(Data(yaml.utf8))
            return try #require(parsed.usablePolicy, "\(parsed.diagnostics)\n\(yaml)")
        }
        func text(_ rule: RuleModel, locale: String, edition: Int) -> String? {
            switch (rule.action, rule.shows) {
            case (.present, _): nil
            case (_, "m"): locale.hasPrefix("ja") ? "エム" : "M\(edition)"
            default: "N"
            }
        }

        let folder = try makeTemporaryFolder("memory-model")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = JSONFileDisplayMemoryStore(url: folder.appendingPathComponent("shown.json"))
        let store: any DisplayMemoryStore = Bool.random(using: &random) ? InMemoryDisplayMemoryStore() : file
        var edition = 0
        var current = try policy(edition: edition)
        var now = Date(timeIntervalSince1970: 1_795_219_200)
        var model: [String: Date] = [:]
        var log = ["seed \(seed), \(store is InMemoryDisplayMemoryStore ? "in memory" : "file")"]
            + rules.map { "\($0.id): \($0.action.rawValue) \($0.shows) show \($0.show) every \($0.every ?? 0)" }

        for step in 0..<30 {
            switch Int.random(in: 0..<8, using: &random) {
            case 0:
                edition += 1
                current = try policy(edition: edition)
                log.append("\(step): m edited")
            case 1:
                // -2h, 1h, 11h, 13h, 2d, 4d
                let steps: [TimeInterval] = [-7_200, 3_600, 39_600, 46_800, 172_800, 345_600]
                now += steps.randomElement(using: &random)!
                log.append("\(step): now \(now)")
            default:
                let version = ["2.0", "2.0.0", "2.1", "3"].randomElement(using: &random)!
                let locale = ["en", "ja", "ja-JP"].randomElement(using: &random)!
                log.append("\(step): launch \(version) \(locale)")
                let context = log.joined(separator: "\n")
                let decision = current.evaluate(
                    try LaunchContext(platform: .ios, appVersion: version, locale: locale, now: now),
                    memory: try store.load())

                // Which rules the model shows: every allowed notice and presentation, the first allowed prompt.
                var expected: [String] = []
                var prompted = false
                for rule in rules {
                    let key = Self.key(rule, text: text(rule, locale: locale, edition: edition),
                        version: Self.normalized(version))
                    let allowed: Bool
                    if let last = model[key] {
                        if let every = rule.every { allowed = now >= last + every || last > now }
                        else { allowed = rule.show == "every-launch" }
                    } else {
                        allowed = true
                    }
                    guard allowed else { continue }
                    if rule.action == .suggestUpdate {
                        if prompted { continue }
                        prompted = true
                    }
                    expected.append(rule.id)
                    model[key] = now
                }
                let shown = decision.prompts + decision.notices + decision.presentations
                #expect(Set(shown.map(\.rule)) == Set(expected), "\(context)")
                #expect(decision.shown.map(\.text) == decision.shown.map { directive in
                    text(rules.first { $0.id == directive.rule }!, locale: locale, edition: edition)
                }, "\(context)")
                try store.update { memory in
                    for directive in decision.shown { memory.record(directive, at: now) }
                }
            }
        }
    }

    @Test(arguments: 0..<60)
    func whatShowsIsWhatTheTableSays(seed: Int) throws {
        try Self.run(seed: UInt64(seed))
    }
}
