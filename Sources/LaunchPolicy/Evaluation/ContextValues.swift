import Foundation

extension LaunchContext {
    /// Builds a context from values written as text under the condition keys — a policy's test case, a
    /// `--context` file, command-line options: `platform`, `app-version`, `build`, `os-version`, `launch`,
    /// `previous-version`, `install-version`, `original-app-version`, `launch-count`, `days-since-last-launch`,
    /// `days-since-install`, `launch-source`, `locale`, `region`, `now` (ISO 8601), `install-id` and `attributes`
    /// (name → value).
    ///
    /// - Parameter defaultNow: the time when `now` is not given.
    /// - Throws: ``LaunchContextError`` for an unknown key or an invalid value.
    public init(values: [String: ContextValue], defaultNow: Date = Date()) throws(LaunchContextError) {
        func text(_ key: String) throws(LaunchContextError) -> String? {
            switch values[key] {
            case nil: return nil
            case .text(let text): return text
            case .list(let items):
                throw LaunchContextError(key: key, value: items.joined(separator: ", "), reason: "it takes one value, not a list")
            case .map:
                throw LaunchContextError(key: key, value: "{…}", reason: "it takes one value, not a mapping")
            }
        }
        func choice<Value: RawRepresentable & CaseIterable>(_ key: String, _ type: Value.Type) throws(LaunchContextError)
            -> Value? where Value.RawValue == String
        {
            guard let text = try text(key) else { return nil }
            guard let value = Value(rawValue: text) else {
                throw LaunchContextError(key: key, value: text,
                    reason: "use one of " + Value.allCases.map(\.rawValue).joined(separator: ", "))
            }
            return value
        }
        func count(_ key: String) throws(LaunchContextError) -> Int? {
            guard let text = try text(key) else { return nil }
            guard !text.isEmpty, text.utf8.allSatisfy({ (48...57).contains($0) }), let value = Int(text) else {
                throw LaunchContextError(key: key, value: text, reason: "it must be a whole number such as 3")
            }
            return value
        }
        if let unknown = values.keys.sorted().first(where: { !PolicyLanguage.contextKeys.contains($0) }) {
            let suggestion = DidYouMean.nearest(to: unknown, in: PolicyLanguage.contextKeys)
            throw LaunchContextError(key: unknown, value: "", reason: "it is not a context key"
                + (suggestion.map { "; did you mean \($0)?" } ?? ""))
        }
        var now = defaultNow
        if let text = try text("now") {
            switch ValueSyntax.date(text) {
            case .success(let date): now = date
            case .failure(let problem): throw LaunchContextError(key: "now", value: text, reason: "it " + problem.reason)
            }
        }
        var attributes: [String: String] = [:]
        switch values["attributes"] {
        case nil: break
        case .map(let map): attributes = map
        case .text(let text):
            throw LaunchContextError(key: "attributes", value: text, reason: "it must map names to values, such as {plan: pro}")
        case .list(let items):
            throw LaunchContextError(key: "attributes", value: items.joined(separator: ", "),
                reason: "it must map names to values, such as {plan: pro}")
        }
        let launch = LaunchInfo(
            kind: try choice("launch", LaunchKind.self), count: try count("launch-count"),
            previousVersion: try text("previous-version"), installVersion: try text("install-version"),
            daysSinceLastLaunch: try count("days-since-last-launch"), daysSinceInstall: try count("days-since-install"),
            source: try choice("launch-source", LaunchSource.self))
        try self.init(
            platform: try choice("platform", Platform.self), appVersion: try text("app-version"),
            build: try text("build"), osVersion: try text("os-version"),
            originalAppVersion: try text("original-app-version"), locale: try text("locale"),
            region: try text("region"), now: now, installID: try text("install-id"), launch: launch,
            attributes: attributes)
    }
}
