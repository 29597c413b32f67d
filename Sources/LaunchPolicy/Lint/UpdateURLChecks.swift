/// Update rules that leave the update link to the app (`lint.missing-update-url`): `require-update` or
/// `suggest-update` without `url`, where the policy's `store` has no URL for a platform the rule applies on (iPadOS
/// takes the iOS one, as the interpreter does: ``Policy/storeURL(for:)``): one its condition names, in any of its
/// alternatives, or, for an alternative that names none, any platform when `store` is empty. Not reported for
/// LaunchGate/Gandalf files, whose format has no URL: there the app supplies it in code.
extension PolicyChecks {
    func updateURLs() -> [Diagnostic] {
        guard format == .policyLanguage else { return [] }
        var found: [Diagnostic] = []
        for index in policy.rules.indices {
            let action = policy.rules[index].action.value
            guard action == .requireUpdate || action == .suggestUpdate, policy.rules[index].url == nil,
                !analyses[index].neverMatches
            else { continue }
            // The platforms its alternatives name must each have a URL; an alternative that names none applies on
            // every platform, where any store URL shows the team knows where updates come from.
            let reach = platformReach(of: index) ?? ([], true)
            let lacking = reach.named.filter { policy.storeURL(for: $0) == nil }
            let missing: String
            if !lacking.isEmpty {
                missing = "store has no URL for \(Self.names(lacking))"
            } else if reach.everyPlatform, policy.storeURLs.isEmpty {
                missing = "the policy has no store URLs"
            } else {
                continue
            }
            let rule = policy.rules[index]
            found.append(finding(.lintMissingUpdateURL,
                "the \(action.rawValue) rule \"\(rule.id.value)\" has no url and \(missing): the app must supply the "
                    + "update link itself; add it under store, or give the rule a url",
                at: rule.action.range))
        }
        return found
    }
}
