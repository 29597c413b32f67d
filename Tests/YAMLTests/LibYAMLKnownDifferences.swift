/// Cases of the YAML test suite (release data-2022-01-17) where libyaml 0.2.5 differs from the specification.
///
/// Every entry names how it differs and why. The conformance test fails both when a case not listed here fails and
/// when a listed case stops failing in the listed way.
enum LibYAMLKnownDifferences {
    struct Difference {
        let outcome: YAMLTestSuiteTests.Outcome
        let reason: String

        init(_ outcome: YAMLTestSuiteTests.Outcome, _ reason: String) {
            self.outcome = outcome
            self.reason = reason
        }
    }

    // swift-format-ignore
    static let cases: [String: Difference] = [
        "2JQS": .init(.rejectedValid, "libyaml rejects an empty key or an explicit-key edge case in a block mapping"),  // Block Mapping with Missing Keys
        "2LFX": .init(.rejectedValid, "libyaml rejects reserved directives that YAML 1.2 says to ignore"),  // Spec Example 6.13. Reserved Directives [1.3]
        "2SXE": .init(.rejectedValid, "libyaml ends an anchor name at ':', which YAML 1.2 allows inside it"),  // Anchors With Colon in Name
        "4ABK": .init(.rejectedValid, "libyaml rejects ':' adjacent to a value in a flow collection"),  // Flow Mapping Separate Values
        "4MUZ/00": .init(.rejectedValid, "libyaml rejects a multi-line implicit key or a ':' on a later line in a flow mapping"),  // Flow mapping colon on line after key
        "4MUZ/01": .init(.rejectedValid, "libyaml rejects a multi-line implicit key or a ':' on a later line in a flow mapping"),  // Flow mapping colon on line after key
        "4MUZ/02": .init(.rejectedValid, "libyaml rejects a multi-line implicit key or a ':' on a later line in a flow mapping"),  // Flow mapping colon on line after key
        "58MP": .init(.rejectedValid, "libyaml rejects an empty node or a ':'-adjacent value in a flow collection"),  // Flow mapping edge cases
        "5MUD": .init(.rejectedValid, "libyaml rejects a multi-line implicit key or a ':' on a later line in a flow mapping"),  // Colon and adjacent value on next line
        "5T43": .init(.rejectedValid, "libyaml rejects an empty node or a ':'-adjacent value in a flow collection"),  // Colon at the beginning of adjacent flow scalar
        "652Z": .init(.wrongEvents, "libyaml drops the '?' that starts a plain flow key ('?foo' read as 'foo')"),  // Question mark at start of flow key
        "6LVF": .init(.rejectedValid, "libyaml rejects reserved directives that YAML 1.2 says to ignore"),  // Spec Example 6.13. Reserved Directives
        "6M2F": .init(.rejectedValid, "libyaml rejects an empty key or an explicit-key edge case in a block mapping"),  // Aliases in Explicit Block Mapping
        "7Z25": .init(.rejectedValid, "libyaml requires '---' before a bare document that follows '...'"),  // Bare document after document end marker
        "8XYN": .init(.rejectedValid, "libyaml allows only ASCII letters, digits, '-' and '_' in anchor names"),  // Anchor with unicode character
        "9C9N": .init(.acceptedInvalid, "libyaml accepts a flow sequence indented less than its parent"),  // Wrong indented flow sequence
        "9HCY": .init(.acceptedInvalid, "libyaml accepts a directive without the '...' that must end the previous document"),  // Need document footer before directives
        "9JBA": .init(.acceptedInvalid, "libyaml accepts a comment with no space after a flow sequence"),  // Invalid comment after end of flow sequence
        "9SA2": .init(.rejectedValid, "libyaml rejects a multi-line implicit key or a ':' on a later line in a flow mapping"),  // Multiline double quoted flow mapping key
        "BEC7": .init(.rejectedValid, "libyaml rejects a %YAML 1.3 directive that YAML 1.2 says to accept with a warning"),  // Spec Example 6.14. “YAML” directive
        "CFD4": .init(.rejectedValid, "libyaml rejects an empty node or a ':'-adjacent value in a flow collection"),  // Empty implicit key in single pair flow sequences
        "CVW2": .init(.acceptedInvalid, "libyaml accepts a comment with no space after a comma"),  // Invalid comment after comma
        "DBG4": .init(.rejectedValid, "libyaml rejects a plain scalar starting with '::' inside a flow collection"),  // Spec Example 7.10. Plain Characters
        "DK3J": .init(.rejectedValid, "libyaml requires '---' before a bare document that follows '...'"),  // Zero indented block scalar with line that looks like a comment
        "DK95/01": .init(.acceptedInvalid, "libyaml accepts a tab used as indentation"),  // Tabs that look like indentation
        "EB22": .init(.acceptedInvalid, "libyaml accepts a directive without the '...' that must end the previous document"),  // Missing document-end marker before directive
        "FP8R": .init(.rejectedValid, "libyaml requires '---' before a bare document that follows '...'"),  // Zero indented block scalar
        "FRK4": .init(.rejectedValid, "libyaml rejects ':' adjacent to a value in a flow collection"),  // Spec Example 7.3. Completely Empty Flow Nodes
        "G5U8": .init(.acceptedInvalid, "libyaml accepts '- -' as plain dashes inside a flow sequence"),  // Plain dashes in flow sequence
        "HM87/00": .init(.rejectedValid, "libyaml rejects an empty node or a ':'-adjacent value in a flow collection"),  // Scalars in flow start with syntax char
        "HM87/01": .init(.wrongEvents, "libyaml drops the '?' that starts a plain scalar in a flow sequence"),  // Scalars in flow start with syntax char
        "HWV9": .init(.rejectedValid, "libyaml rejects a stream that holds only a '...' marker"),  // Document-end marker
        "JEF9/02": .init(.wrongEvents, "libyaml keeps a trailing line of spaces in a kept block scalar"),  // Trailing whitespace in streams
        "K3WX": .init(.rejectedValid, "libyaml rejects a multi-line implicit key or a ':' on a later line in a flow mapping"),  // Colon and adjacent value after comment on next line
        "L24T/01": .init(.wrongEvents, "libyaml keeps a trailing line of spaces in a kept block scalar"),  // Trailing line of spaces
        "M2N8/00": .init(.rejectedValid, "libyaml rejects an empty key or an explicit-key edge case in a block mapping"),  // Question mark edge cases
        "M7A3": .init(.rejectedValid, "libyaml requires '---' before a bare document that follows '...'"),  // Spec Example 9.3. Bare Documents
        "MUS6/00": .init(.acceptedInvalid, "libyaml accepts a YAML directive whose version is followed by a comment with no space"),  // Directive variants
        "MUS6/01": .init(.acceptedInvalid, "libyaml accepts a second YAML directive in one document"),  // Directive variants
        "MUS6/05": .init(.rejectedValid, "libyaml rejects reserved directives that YAML 1.2 says to ignore"),  // Directive variants
        "MUS6/06": .init(.rejectedValid, "libyaml rejects reserved directives that YAML 1.2 says to ignore"),  // Directive variants
        "NHX8": .init(.rejectedValid, "libyaml rejects an empty key or an explicit-key edge case in a block mapping"),  // Empty Lines at End of Document
        "NJ66": .init(.rejectedValid, "libyaml rejects a multi-line implicit key or a ':' on a later line in a flow mapping"),  // Multiline plain flow mapping key
        "NKF9": .init(.rejectedValid, "libyaml rejects an empty key or an explicit-key edge case in a block mapping"),  // Empty keys in block and flow mapping
        "QB6E": .init(.acceptedInvalid, "libyaml accepts a multi-line quoted scalar indented less than its key"),  // Wrong indented multiline quoted scalar
        "QT73": .init(.rejectedValid, "libyaml rejects a stream that holds only a comment and a '...' marker"),  // Comment and document-end marker
        "R4YG": .init(.rejectedValid, "libyaml rejects a tab that starts a folded block scalar's first line of text"),  // Spec Example 8.2. Block Indentation Indicator
        "RHX7": .init(.acceptedInvalid, "libyaml accepts a YAML directive without the '...' that must end the previous document"),  // YAML directive without document end marker
        "S3PD": .init(.rejectedValid, "libyaml rejects an empty key or an explicit-key edge case in a block mapping"),  // Spec Example 8.18. Implicit Block Mapping Entries
        "S98Z": .init(.acceptedInvalid, "libyaml accepts a block scalar whose leading empty line is more indented than its content"),  // Block scalar with more spaces than first content line
        "SM9W/01": .init(.rejectedValid, "libyaml rejects an empty key or an explicit-key edge case in a block mapping"),  // Single character streams
        "SU5Z": .init(.acceptedInvalid, "libyaml accepts a comment with no space after a double-quoted scalar"),  // Comment without whitespace after doublequoted scalar
        "UKK6/00": .init(.rejectedValid, "libyaml rejects an empty key or an explicit-key edge case in a block mapping"),  // Syntax character edge cases
        "UT92": .init(.rejectedValid, "libyaml rejects a multi-line implicit key or a ':' on a later line in a flow mapping"),  // Spec Example 9.4. Explicit Documents
        "VJP3/01": .init(.rejectedValid, "libyaml rejects a multi-line implicit key or a ':' on a later line in a flow mapping"),  // Flow collections over many lines
        "W4TN": .init(.rejectedValid, "libyaml rejects a '%' directive line followed by a comment"),  // Spec Example 9.5. Directives Documents
        "W5VH": .init(.rejectedValid, "libyaml allows only ASCII letters, digits, '-' and '_' in anchor names"),  // Allowed characters in alias
        "X4QW": .init(.acceptedInvalid, "libyaml accepts a comment with no space after a block scalar indicator"),  // Comment without whitespace after block scalar indicator
        "Y2GN": .init(.wrongEvents, "libyaml ends an anchor name at ':', which YAML 1.2 allows inside it"),  // Anchor with colon in the middle
        "Y79Y/003": .init(.acceptedInvalid, "libyaml accepts a tab before a sequence entry's content"),  // Tabs in various contexts
        "YJV2": .init(.acceptedInvalid, "libyaml accepts a lone '-' in a flow sequence"),  // Dash in flow sequence
    ]
}
