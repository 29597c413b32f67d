import Foundation
@testable import LaunchPolicy
import Testing

/// The hand-written date parser against exact instants, and each way a date can be wrong.
@Suite struct ValueSyntaxTests {
    @Test(arguments: [
        ("2026-12-01T02:00:00Z", 1_796_090_400.0),
        ("2026-12-01t02:00:00z", 1_796_090_400.0),
        ("2026-12-01 02:00:00Z", 1_796_090_400.0),
        ("2026-12-01T02:00Z", 1_796_090_400.0),
        ("2026-12-01T11:00:00+09:00", 1_796_090_400.0),
        ("2026-12-01T11:00:00+0900", 1_796_090_400.0),
        ("2026-11-30T21:30:00-04:30", 1_796_090_400.0),
        ("2026-12-01T02:00:00.25Z", 1_796_090_400.25),
        ("2024-02-29T00:00:00Z", 1_709_164_800.0),
        ("1969-12-31T23:59:59Z", -1.0),
    ] as [(String, Double)])
    func datesReadAsTheInstantTheyName(text: String, seconds: Double) throws {
        let date = try ValueSyntax.date(text).get()
        #expect(date.timeIntervalSince1970 == seconds)
    }

    @Test(arguments: [
        ("2026-12-01", ValueSyntax.DateProblem.noTime),
        ("2026-12-01T02:00:00", .noTimeZone),
        ("2026-12-01T02:00", .noTimeZone),
        ("2026-12-1T02:00:00Z", .syntax),
        ("2026-12-01T02:00:00.Z", .syntax),
        ("2026-12-01T02:00:00+9", .syntax),
        ("2026-12-01T02:00:00+24:00", .syntax),
        ("2026-12-01T02:00:00Zx", .syntax),
        ("2026-12-01T02:00:00 Z", .syntax),
        ("2025-02-29T00:00:00Z", .impossible),
        ("2026-13-01T00:00:00Z", .impossible),
        ("2026-12-01T24:00:00Z", .impossible),
        ("", .syntax),
    ] as [(String, ValueSyntax.DateProblem)])
    func wrongDatesSayWhatIsWrong(text: String, problem: ValueSyntax.DateProblem) {
        guard case .failure(let found) = ValueSyntax.date(text) else {
            Issue.record("\(text) was read as a date")
            return
        }
        #expect(found == problem)
    }
}
