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
                        "\(entry.key) \(Diagnostic.quoted(range.text)): \(operand.meaning), but people read a "
                            + "partial version there two ways; write the bound in full",
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
        platforms(of: index).map { $0.contains(where: Self.buildNumberReceiptPlatforms.contains) } ?? true
    }
}

extension VersionRange {
    /// Whether a bound is written like a marketing version: two or three dot-separated numbers (`2.0`, `1.4.2`).
    ///
    /// Read byte by byte: split into words and parts as `Character`s, the text cost about 8,700 instructions a range,
    /// more than the rest of the check. A range that parsed has ASCII digits only.
    var namesMarketingLikeVersion: Bool {
        // The word being read: past its operator prefix yet, its dots, the length of its last part, and whether all
        // of it after the prefix is digits and dots with no part empty.
        var pastPrefix = false, dots = 0, partLength = 0, plain = true
        func wordIsVersion() -> Bool { pastPrefix && plain && partLength > 0 && (1...2).contains(dots) }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "|"):
                if wordIsVersion() { return true }
                (pastPrefix, dots, partLength, plain) = (false, 0, 0, true)
            case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "="), UInt8(ascii: "!"), UInt8(ascii: "~"),
                UInt8(ascii: "^"):
                if pastPrefix { plain = false }
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                pastPrefix = true
                partLength += 1
            case UInt8(ascii: "."):
                pastPrefix = true
                if partLength == 0 { plain = false }
                dots += 1
                partLength = 0
            default:
                pastPrefix = true
                plain = false
            }
        }
        return wordIsVersion()
    }
}
