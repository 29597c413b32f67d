import Foundation

/// A LaunchGate or Gandalf JSON configuration written out as an equivalent YAML policy, for teams moving over.
///
/// The rules are ``LaunchGateMapping``'s, the same the JSON file runs as, so the policy behaves exactly as the JSON
/// does in LaunchPolicy. Each rule carries a comment naming the JSON it came from. A `tests:` section checks the
/// versions just below, at and just above each threshold against LaunchGate's own semantics — required below
/// `minimumVersion`, asked below `optionalVersion`, the alert on every version — worked out here from the
/// configuration, not from the interpreter; `policy-lint` runs them. Where LaunchPolicy deliberately differs (a
/// required update does not hide a blocking alert), the test's name says so.
public enum LaunchGateConversion {
    /// The policy's text, or nil with the diagnostics when the configuration has errors.
    public static func convert(_ data: Data, name: String, limits: YAMLLimits = .default)
        -> (policy: String?, diagnostics: [Diagnostic])
    {
        let read = YAMLReader(limits: limits).read(data)
        guard let root = read.root else { return (nil, read.diagnostics) }
        let (sections, sectionDiagnostics) = LaunchGateJSONParser.sections(of: root)
        let mapped = LaunchGateMapping.policy(from: sections)
        let diagnostics = (read.diagnostics + sectionDiagnostics + mapped.diagnostics).sortedBySource()
        guard !diagnostics.containsErrors, !sections.isEmpty else { return (nil, diagnostics) }
        var writer = PolicyWriter()
        writer.header(name: name, sections: sections)
        writer.policy(mapped.policy, sections: sections)
        writer.tests(for: sections)
        return (writer.text, diagnostics)
    }
}

/// Writes the converted policy, line by line.
private struct PolicyWriter {
    private var lines: [String] = []

    var text: String { lines.joined(separator: "\n") + "\n" }

    mutating func header(name: String, sections: [LaunchGateMapping.SectionConfiguration]) {
        let sources = sections.map { $0.section == .ios ? "LaunchGate (ios)" : "Gandalf (android)" }
        lines += [
            "# Converted from \(name) by `launch-policy convert`: the \(RuleWords.list(sources, "and")) configuration",
            "# as a LaunchPolicy policy. It decides as the JSON file does; the tests at the end check the versions",
            "# around each threshold. Run `policy-lint` on this file to check it and run them.",
            "# The JSON has no store links, so the app opens the store itself, as it did with LaunchGate; add a",
            "# `store:` section (and remove the policy-lint comments) to let the policy carry them.",
        ]
    }

    mutating func policy(_ policy: Policy, sections: [LaunchGateMapping.SectionConfiguration]) {
        // A section with nothing LaunchGate reads has no messages and no rules: written empty, not null.
        lines += ["policy: 1", "id: \(policy.id ?? "launchgate")", policy.messages.isEmpty ? "messages: {}" : "messages:"]
        for message in policy.messages {
            lines.append("  \(Self.key(message.id)):")
            lines.append("    default: \(Self.quoted(message.translations["default"] ?? ""))")
        }
        lines.append(policy.rules.isEmpty ? "rules: []" : "rules:")
        for rule in policy.rules {
            lines.append("  # \(Self.origin(of: rule, sections: sections))")
            let blockingAlertFirst = rule.action.value == .requireUpdate
                && policy.rules.contains { $0.action.value == .block && $0.condition.map(Self.platforms) == rule.condition.map(Self.platforms) }
            if blockingAlertFirst {
                lines.append("  # While the blocking alert is in the policy, it decides first (LaunchGate showed this instead).")
                lines.append("  # policy-lint: disable=lint.shadowed-rule")
            }
            let entries: [ConditionEntry] = if case .all(let parts, _)? = rule.condition {
                parts.compactMap { if case .entry(let entry) = $0 { entry } else { nil } }
            } else {
                []
            }
            // A threshold no version is below (`minimumVersion: "0"`): LaunchGate and Gandalf never applied the
            // update, and neither does the rule; it is kept, with its message, for when the threshold is raised.
            let matchesNothing = { (entry: ConditionEntry) in entry.test.range?.canMatch == false }
            if entries.contains(where: matchesNothing) {
                lines.append("  # No version is below this threshold: the rule never applies, nor did the JSON's.")
                lines.append("  # It is kept, with its message, for when the threshold is raised.")
            }
            lines.append("  - id: \(Self.key(rule.id.value))")
            if !entries.isEmpty {
                lines.append("    when:")
                for entry in entries {
                    let disabled = matchesNothing(entry) ? "  # policy-lint: disable=lint.never-matches" : ""
                    lines.append("      \(entry.key): \(Self.value(of: entry))" + disabled)
                }
            }
            if rule.action.value == .requireUpdate || rule.action.value == .suggestUpdate {
                // LaunchGate and Gandalf configurations carry no store link: the app opens the store, as before.
                lines.append("    then: \(rule.action.value.rawValue)  # policy-lint: disable=lint.missing-update-url")
            } else if rule.action.value == .block {
                // A blocking alert is a kill switch: everyone is locked out until it is removed, as in LaunchGate.
                lines.append("    then: block  # policy-lint: disable=lint.lockout")
            } else {
                lines.append("    then: \(rule.action.value.rawValue)")
            }
            if let message = rule.message { lines.append("    message: \(Self.key(message.value))") }
            if !rule.action.value.isGate { lines.append("    show: \(rule.show.rawValue)") }
        }
    }

    /// The tests: for each section, the versions around each threshold, and the other platform left alone.
    mutating func tests(for sections: [LaunchGateMapping.SectionConfiguration]) {
        lines.append("tests:")
        let suffixed = sections.count > 1
        for section in sections {
            let suffix = suffixed ? "-\(section.section.rawValue)" : ""
            let configuration = section.configuration
            let thresholds = [configuration.requiredUpdate?.version, configuration.optionalUpdate?.version].compactMap { $0 }
            var versions: [String] = []
            for threshold in thresholds {
                for version in LaunchGateVersions.around(threshold, section: section.section) where !versions.contains(version) {
                    versions.append(version)
                }
            }
            if versions.isEmpty { versions = [section.section == .ios ? "1.0" : "1"] }
            versions.sort { LaunchGateVersions.isBelow($0, $1, section: section.section) }
            for version in versions {
                let expected = LaunchGateExpectation(configuration: configuration, version: version, section: section.section)
                testCase(expected, section: section.section, version: version, suffix: suffix, memory: [])
            }
            // LaunchGate compared versions as text, so 2.10 was "below" 2.6; here they compare as numbers.
            if section.section == .ios, let highest = thresholds.max(by: { LaunchGateVersions.isBelow($0, $1, section: .ios) }),
                let trap = LaunchGateVersions.textComparisonTrap(above: highest), !versions.contains(trap)
            {
                let expected = LaunchGateExpectation(configuration: configuration, version: trap, section: .ios)
                testCase(expected, section: .ios, version: trap, suffix: suffix, memory: [],
                    note: expected.name(section: .ios, version: trap).components(separatedBy: ": ").dropFirst()
                        .joined(separator: ": ") + "; versions compare as numbers (LaunchGate compared text, so \(trap) "
                        + "was below \(highest))")
            }
            // "Once": an alert shown is not shown again; an update suggestion is not repeated for the same version.
            if let alert = configuration.alert, !alert.blocking {
                let version = versions.last ?? "1"
                let expected = LaunchGateExpectation(configuration: configuration, version: version, section: section.section)
                if expected.gate == nil {
                    testCase(expected.withoutNotices, section: section.section, version: version, suffix: suffix,
                        memory: ["alert" + suffix], note: "the alert was shown before, so it is not shown again")
                }
            }
        }
        let present = Set(sections.map(\.section))
        for missing in LaunchGateMapping.Section.allCases where !present.contains(missing) {
            let context = missing == .ios ? "{platform: ios, app-version: \"1.0\"}" : "{platform: android, build: \"1\"}"
            lines += [
                "  - name: \(Self.quoted("no \(missing.rawValue) section, so \(missing == .ios ? "iOS" : "Android") users are left alone"))",
                "    context: \(context)",
                "    expect: {gate: none, prompts: [], notices: []}",
            ]
        }
    }

    private mutating func testCase(
        _ expected: LaunchGateExpectation, section: LaunchGateMapping.Section, version: String, suffix: String,
        memory: [String], note: String? = nil
    ) {
        let context = section == .ios
            ? "{platform: ios, app-version: \(Self.quoted(version))}"
            : "{platform: android, build: \(Self.quoted(version))}"
        lines.append("  - name: \(Self.quoted(note.map { "\(section.rawValue) \(version): \($0)" } ?? expected.name(section: section, version: version)))")
        lines.append("    context: \(context)")
        if !memory.isEmpty { lines.append("    memory: [\(memory.joined(separator: ", "))]") }
        let gate = expected.gate.map { "{action: \($0.action.rawValue), rule: \($0.rule + suffix)}" } ?? "none"
        let prompts = expected.prompted ? "[optionalUpdate\(suffix)]" : "[]"
        let notices = expected.notified ? "[alert\(suffix)]" : "[]"
        lines.append("    expect: {gate: \(gate), prompts: \(prompts), notices: \(notices)}")
    }

    /// Which part of which JSON file a rule came from.
    private static func origin(of rule: Rule, sections: [LaunchGateMapping.SectionConfiguration]) -> String {
        let platform = rule.id.value.hasSuffix("-android") || (sections.count == 1 && sections[0].section == .android)
            ? LaunchGateMapping.Section.android : .ios
        let tool = platform == .ios ? "LaunchGate" : "Gandalf"
        let configuration = sections.first { $0.section == platform }?.configuration
        switch rule.action.value {
        case .block where rule.id.value.hasPrefix("alert"), .notify:
            let blocking = configuration?.alert?.blocking == true
            return "\(tool) \(platform.rawValue).alert, \(blocking ? "blocking: every launch until it is removed" : "not blocking: shown once per message text")."
        case .requireUpdate:
            return "\(tool) \(platform.rawValue).requiredUpdate: below minimumVersion \(configuration?.requiredUpdate?.version ?? "?")"
                + (platform == .android ? " (a versionCode, compared as build)." : ".")
        case .suggestUpdate:
            return "\(tool) \(platform.rawValue).optionalUpdate: below optionalVersion \(configuration?.optionalUpdate?.version ?? "?"), "
                + "asked once per app version (and again when optionalVersion is raised)."
        default:
            return "\(tool) \(platform.rawValue)."
        }
    }

    /// The platforms a mapped rule's condition names.
    private static func platforms(_ condition: Condition) -> [Platform] {
        guard case .all(let parts, _) = condition else { return [] }
        for case .entry(let entry) in parts {
            if case .platform(let platforms) = entry.test { return platforms }
        }
        return []
    }

    /// A condition entry's value as YAML.
    private static func value(of entry: ConditionEntry) -> String {
        switch entry.test {
        case .platform(let platforms): return platforms.count == 1 ? platforms[0].rawValue : "[\(platforms.map(\.rawValue).joined(separator: ", "))]"
        case .appVersion(let range), .build(let range): return quoted(range.text)
        default: return quoted("?")
        }
    }

    /// A mapping key or id, unquoted where every YAML tool reads it as written.
    static func key(_ text: String) -> String { YAMLWriting.scalar(text) }

    /// A double-quoted YAML scalar.
    static func quoted(_ text: String) -> String { YAMLWriting.quoted(text) }
}

/// What LaunchGate does for one version, worked out from the configuration alone.
private struct LaunchGateExpectation {
    var gate: (action: Action, rule: String)?
    var prompted: Bool
    var notified: Bool
    /// Both a blocking alert and a required update apply: LaunchGate shows the update, LaunchPolicy the alert.
    var differsFromLaunchGate: Bool
    var reasons: [String]

    init(configuration: LaunchGateConfiguration, version: String, section: LaunchGateMapping.Section) {
        let required = configuration.requiredUpdate.map { LaunchGateVersions.isBelow(version, $0.version, section: section) } ?? false
        let optional = configuration.optionalUpdate.map { LaunchGateVersions.isBelow(version, $0.version, section: section) } ?? false
        let blockingAlert = configuration.alert?.blocking == true
        if blockingAlert {
            gate = (.block, "alert")
        } else if required {
            gate = (.requireUpdate, "requiredUpdate")
        }
        prompted = gate == nil && optional
        notified = gate == nil && configuration.alert != nil
        differsFromLaunchGate = blockingAlert && required
        reasons = []
        if let update = configuration.requiredUpdate {
            reasons.append(required ? "below minimumVersion \(update.version)" : "not below minimumVersion \(update.version)")
        }
        if let update = configuration.optionalUpdate {
            reasons.append(optional ? "below optionalVersion \(update.version)" : "not below optionalVersion \(update.version)")
        }
    }

    var withoutNotices: LaunchGateExpectation {
        var copy = self
        copy.notified = false
        return copy
    }

    func name(section: LaunchGateMapping.Section, version: String) -> String {
        var outcome: String
        switch gate?.action {
        case .block?: outcome = "the blocking alert"
        case .requireUpdate?: outcome = "must update"
        default: outcome = prompted ? "asked to update" : "not asked to update"
        }
        if notified { outcome += ", and the alert is shown" }
        if differsFromLaunchGate { outcome += " (LaunchGate would show the required update and hide the alert)" }
        let why = reasons.isEmpty ? "" : " (\(reasons.joined(separator: ", ")))"
        return "\(section.rawValue) \(version)\(why): \(outcome)"
    }
}

/// Versions as LaunchGate (marketing versions) and Gandalf (versionCodes) compare them, and the ones around a
/// threshold.
///
/// The parts are numbers of any length, kept as their decimal digits: a part read as an `Int`, and as 0 past its
/// range, made `2.6111…` (a minor version of 120 digits) below `2.4`, and the converted policy's tests wrong.
private enum LaunchGateVersions {
    static func isBelow(_ version: String, _ threshold: String, section: LaunchGateMapping.Section) -> Bool {
        let left = components(version), right = components(threshold)
        for index in 0..<max(left.count, right.count) {
            let l = index < left.count ? left[index] : "0", r = index < right.count ? right[index] : "0"
            if l != r { return l.count != r.count ? l.count < r.count : l < r }
        }
        return false
    }

    /// Just below, at, and just above: `2.4` → `2.3.99`, `2.4`, `2.4.1`; `120` → `119`, `120`, `121`.
    static func around(_ threshold: String, section: LaunchGateMapping.Section) -> [String] {
        if section == .android {
            let code = components(threshold).first ?? "0"
            return (code == "0" || code == "1" ? [] : [decremented(code)]) + [code, incremented(code)]
        }
        // Marketing versions have at most three parts: 2.4 → 2.3.99, 2.0 → 1.99.99, 3.10.2 → 3.10.1.
        let written = components(threshold)
        var parts = written + Array(repeating: "0", count: max(0, 3 - written.count))
        var below: String?
        if let last = parts.lastIndex(where: { $0 != "0" }) {
            parts[last] = decremented(parts[last])
            for index in parts.indices where index > last { parts[index] = "99" }
            below = parts.joined(separator: ".")
        }
        let above = written.count < 3
            ? threshold + ".1" : (written.dropLast() + [incremented(written[2])]).joined(separator: ".")
        return [below, threshold, above].compactMap { $0 }
    }

    /// A version above `threshold` that is below it as text: `2.6` → `2.10`; nil when there is none so close.
    static func textComparisonTrap(above threshold: String) -> String? {
        let parts = components(threshold)
        guard parts.count >= 2, parts[1].count == 1, ("2"..."9").contains(parts[1]) else { return nil }
        let trap = "\(parts[0]).10"
        return isBelow(threshold, trap, section: .ios) && trap < threshold ? trap : nil
    }

    /// The parts' decimal digits, leading zeros left out (`"0"` for zero).
    private static func components(_ version: String) -> [String] {
        version.split(separator: ".").map { part in
            let digits = part.drop { $0 == "0" }
            return digits.isEmpty ? "0" : String(digits)
        }
    }

    /// A number of decimal digits, less one (not 0).
    private static func decremented(_ digits: String) -> String {
        var bytes = Array(digits.utf8)
        var index = bytes.count - 1
        while bytes[index] == UInt8(ascii: "0") {
            bytes[index] = UInt8(ascii: "9")
            index -= 1
        }
        bytes[index] -= 1
        let number = bytes.drop { $0 == UInt8(ascii: "0") }
        return number.isEmpty ? "0" : String(decoding: number, as: UTF8.self)
    }

    /// A number of decimal digits, plus one.
    private static func incremented(_ digits: String) -> String {
        var bytes = Array(digits.utf8)
        var index = bytes.count - 1
        while index >= 0, bytes[index] == UInt8(ascii: "9") {
            bytes[index] = UInt8(ascii: "0")
            index -= 1
        }
        if index >= 0 { bytes[index] += 1 } else { bytes.insert(UInt8(ascii: "1"), at: 0) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
