import Foundation

extension Decision {
    /// The decision as one JSON object, the shape `launch-policy eval --format json` prints:
    ///
    /// `{"gate": null or {"action", "rule", "message", "text", "url"}, "prompts": [{"action", "rule", "message",
    /// "text", "url"}], "notices": [{"action", "rule", "message", "text"}], "presentations": [{"action", "rule",
    /// "screen"}], "grants": [names], "explanation": [{"rule", "action", "matched", "outcome", "reason", "line",
    /// "column"}]}`, with `"key"` and `"value"` added to the explanation of a rule that does not match.
    public var json: JSONValue {
        func directive(_ directive: Directive, _ keys: [String]) -> JSONValue {
            .object(keys.map { key in
                switch key {
                case "action": (key, .string(directive.action.rawValue))
                case "rule": (key, .string(directive.rule))
                case "message": (key, .string(directive.message))
                case "text": (key, .string(directive.text))
                case "url": (key, .string(directive.url))
                default: (key, .string(directive.screen))
                }
            })
        }
        let update = ["action", "rule", "message", "text", "url"]
        return .object([
            ("gate", gate.map { directive($0, update) } ?? .null),
            ("prompts", .array(prompts.map { directive($0, update) })),
            ("notices", .array(notices.map { directive($0, ["action", "rule", "message", "text"]) })),
            ("presentations", .array(presentations.map { directive($0, ["action", "rule", "screen"]) })),
            ("grants", .array(grants.map(JSONValue.string))),
            ("explanation", .array(explanation.map(\.json))),
        ])
    }

    /// What the user would see, then why, for people: the text `launch-policy eval` prints, every character a
    /// terminal would act on shown visibly (``TerminalText``).
    public var report: String {
        var text = ""
        writeReport(to: &text)
        return text
    }

    /// Writes ``report`` to `output` one line at a time, each as it is made, and no line break after the last.
    ///
    /// A decision quotes its message's text at each rule that shows it, so a policy of a few hundred kilobytes can make
    /// a report of hundreds of megabytes; written line by line to a stream that passes them on (as `launch-policy
    /// eval` does to its standard output), it is never whole in memory.
    public func writeReport<Output: TextOutputStream>(to output: inout Output) {
        var first = true
        // The policy's texts and ids, and the context's values, shown as a terminal may show them.
        func write(_ line: String) {
            var shown = first ? "" : "\n"
            shown.appendVisible(line, keepingLineFeeds: true)
            output.write(shown)
            first = false
        }
        func line(_ directive: Directive) -> String {
            var line = "\(directive.action.rawValue) by \(directive.rule)"
            if let text = directive.text { line += ": \"\(text)\"" }
            if let screen = directive.screen { line += ": screen \(screen)" }
            if let url = directive.url { line += " → \(url)" }
            return line
        }
        func section(_ name: String, _ items: some Sequence<String>) {
            var label = name.padding(toLength: 14, withPad: " ", startingAt: 0)
            var empty = true
            for item in items {
                write(label + item)
                label = String(repeating: " ", count: 14)
                empty = false
            }
            if empty { write(label + "none") }
        }
        section("gate", gate.map { [line($0)] } ?? [])
        section("prompts", prompts.lazy.map(line))
        section("notices", notices.lazy.map(line))
        section("presentations", presentations.lazy.map(line))
        section("grants", grants)
        write("")
        write("explanation")
        let width = explanation.map(\.rule.count).max() ?? 0
        let lineWidth = explanation.map { "line \($0.range.start.line)".count }.max() ?? 0
        for rule in explanation {
            let name = rule.rule.padding(toLength: width, withPad: " ", startingAt: 0)
            let line = "line \(rule.range.start.line)".padding(toLength: lineWidth, withPad: " ", startingAt: 0)
            write("  \(name)  \(line)  \(rule.summary)")
        }
        if explanation.isEmpty { write("  the policy has no rules") }
    }
}

extension RuleExplanation {
    /// The explanation as a JSON object; see ``Decision/json``.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("rule", .string(rule)), ("action", .string(action.rawValue)), ("matched", .bool(matched)),
            ("outcome", .string(outcomeName)), ("reason", .string(summary)),
            ("line", .int(range.start.line)), ("column", .int(range.start.column)),
        ]
        if case .notMatched(let finding) = outcome {
            members += [("key", .string(finding.key)), ("value", .string(finding.value))]
        }
        return .object(members)
    }

    /// The outcome's name in reports: `not-matched`, `gate`, `hidden-by-gate`, `already-shown`, ….
    public var outcomeName: String {
        switch outcome {
        case .notMatched: "not-matched"
        case .gate: "gate"
        case .gateAlreadyChosen: "gate-already-chosen"
        case .hiddenByGate: "hidden-by-gate"
        case .prompt: "prompt"
        case .promptAlreadyChosen: "prompt-already-chosen"
        case .notice: "notice"
        case .presentation: "presentation"
        case .granted: "granted"
        case .alreadyShown: "already-shown"
        }
    }
}
