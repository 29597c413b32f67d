import Foundation
import LaunchPolicy

extension DeliveryDiagnostic {
    /// `{"source", "code", "severity", "message", "line", "column", "cause"}`; `cause` is null when there is none.
    public var json: JSONValue {
        .object([
            ("source", .string(source)), ("code", .string(diagnostic.code.rawValue)),
            ("severity", .string(diagnostic.severity.rawValue)), ("message", .string(diagnostic.message)),
            ("line", .int(diagnostic.range.start.line)), ("column", .int(diagnostic.range.start.column)),
            ("cause", .string(cause?.rawValue)),
        ])
    }
}

extension RefreshResult {
    /// `{"outcome", "status", "diagnostics"}`.
    public var json: JSONValue {
        .object([
            ("outcome", .string(outcome.rawValue)), ("status", status.map(JSONValue.int) ?? .null),
            ("diagnostics", .array(diagnostics.map(\.json))),
        ])
    }

    /// One line for people: `updated (HTTP 200)`, `failed: the server answered 500 …`.
    public var summary: String {
        let status = self.status.map { " (HTTP \($0))" } ?? ""
        switch outcome {
        case .updated: return "updated: a new policy was fetched, verified and cached\(status)"
        case .notModified: return "not modified: the server confirmed the cached policy\(status)"
        case .notConfigured: return "not configured: no remote URL"
        case .rejected, .failed:
            let why = diagnostics.first.map { ": " + $0.diagnostic.message } ?? ""
            return "\(outcome.rawValue)\(status)\(why)"
        }
    }
}

extension DeliveredPolicy {
    /// `{"origin", "source", "reason", "fetched-at", "confirmed-at", "etag", "rules", "locked-out", "diagnostics"}`.
    public var json: JSONValue {
        .object([
            ("origin", .string(origin.rawValue)), ("source", .string(source)), ("reason", .string(reason)),
            ("fetched-at", .string(fetchedAt.map(Timestamp.text))),
            ("confirmed-at", .string(confirmedAt.map(Timestamp.text))), ("etag", .string(etag)),
            ("rules", policy.map { .int($0.rules.count) } ?? .null), ("locked-out", .string(lockout)),
            ("diagnostics", .array(diagnostics.map(\.json))),
        ])
    }
}
