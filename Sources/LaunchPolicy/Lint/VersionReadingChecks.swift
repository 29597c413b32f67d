/// Version values that people misread: a partial version after `<=`, `>`, `=`, `!=` or bare
/// (`lint.ambiguous-version`), and `original-app-version` compared with a marketing version where it is a build number
/// (`lint.original-version-is-build`).
extension PolicyChecks {
    /// The platforms where the App Store receipt's original version is the build number (`CFBundleVersion`); on
    /// macOS it is the marketing version.
    static let buildNumberReceiptPlatforms: Set<Platform> = [.ios, .ipados, .tvos, .watchos, .visionos]

    func versionReadings() -> [Diagnostic] {
        var found: [Diagnostic] = []
        for index in policy.rules.indices {
            for entry in entries(of: index) {
                guard let range = entry.test.range else { continue }
                for operand in range.ambiguousOperands {
                    found.append(finding(.lintAmbiguousVersion,
                        "\(entry.key) \"\(range.text)\": \(operand.meaning), but people read a partial version "
                            + "there two ways; write the bound in full",
                        at: scalars.range(inside: entry.valueRange, position: operand.position,
                            length: operand.operand.unicodeScalars.count)))
                }
                if case .originalAppVersion(let range) = entry.test, appliesWhereOriginalIsBuild(index),
                    range.namesMarketingLikeVersion
                {
                    found.append(finding(.lintOriginalVersionIsBuild,
                        "on iOS, original-app-version is the build number (CFBundleVersion) of the first purchase, and the "
                            + "sandbox always reports \"1.0\"; \"\(range.text)\" looks like a marketing version, so make "
                            + "sure it names the build you shipped",
                        at: entry.valueRange))
                }
            }
        }
        return found
    }

    private func appliesWhereOriginalIsBuild(_ index: Int) -> Bool {
        platforms(of: index).map { !$0.isDisjoint(with: Self.buildNumberReceiptPlatforms) } ?? true
    }
}

extension VersionRange {
    /// Whether a bound is written like a marketing version: two or three dot-separated numbers (`2.0`, `1.4.2`).
    var namesMarketingLikeVersion: Bool {
        text.split(whereSeparator: { $0 == " " || $0 == "|" }).contains { word in
            let parts = word.drop { "<>=!~^".contains($0) }.split(separator: ".", omittingEmptySubsequences: false)
            return (2...3).contains(parts.count) && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }
        }
    }
}
