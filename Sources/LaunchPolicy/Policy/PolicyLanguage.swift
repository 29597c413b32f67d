/// The keys of the policy language, in one place: the decoder reads them from here, and a test keeps
/// `schemas/launch-policy.schema.json` in step with them.
public enum PolicyLanguage {
    /// Keys at the top of a policy file.
    public static let topLevelKeys = ["policy", "id", "versioning", "store", "messages", "rules", "tests"]
    /// Keys of a rule.
    public static let ruleKeys = ["id", "when", "then", "message", "url", "entitlements", "screen", "show", "every"]
    /// Keys of a condition (`when`, and each item of `all` and `any`, and `not`).
    public static let conditionKeys = [
        "platform", "app-version", "previous-version", "install-version", "build", "os-version",
        "original-app-version", "launch", "launch-count", "days-since-last-launch", "days-since-install",
        "launch-source", "locale", "region", "date", "rollout", "attributes", "all", "any", "not",
    ]
    /// Keys of a `date` window.
    public static let dateWindowKeys = ["from", "until"]
    /// Keys of a test case.
    public static let testCaseKeys = ["name", "context", "expect", "memory"]
    /// Keys of a test case's `expect`.
    public static let expectKeys = ["gate", "prompts", "notices", "presentations", "grants"]
    /// Keys of an expected gate written as a mapping.
    public static let expectedGateKeys = ["action", "rule"]
    /// Keys of a test case's `context`: the condition keys a context has, plus `now` and `install-id`.
    public static let contextKeys = [
        "platform", "app-version", "build", "os-version", "launch", "previous-version", "install-version",
        "original-app-version", "launch-count", "days-since-last-launch", "days-since-install", "launch-source",
        "locale", "region", "now", "install-id", "attributes",
    ]
}
