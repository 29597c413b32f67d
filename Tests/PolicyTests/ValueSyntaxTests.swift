import Foundation
@testable import LaunchPolicy
import TestSupport
import Testing

/// The hand-written date parser against exact instants, and each way a date can be wrong.
@Suite struct ValueSyntaxTests {
    @Test func percentagesAreDecimalNumbersFrom0To100WithOrWithoutASign() {
        let accepted: [(String, Double)] = [("25%", 25), ("25", 25), ("0%", 0), ("100%", 100), ("12.5%", 12.5),
            (".5%", 0.5), ("007%", 7)]
        for (text, value) in accepted {
            #expect(ValueSyntax.percentage(text) == value, "\(text)")
        }
        // Out of range, signed, not a number, two signs, full-width or Arabic-Indic digits, a combining mark on the
        // sign, space around the number.
        for text in ["100.5%", "101", "-5%", "+5%", "", "%", "%%", "5%%", "abc", "1e2", "1.2.3", "５0%", "٥٠%",
            "50%\u{301}", " 50%", "50 %", "inf", "nan"]
        {
            #expect(ValueSyntax.percentage(text) == nil, "\(text)")
        }
    }

    /// A percentage is the double nearest to its text, as `Double(_:)` reads it, whether it is read through the
    /// quotient of two exact doubles (up to 15 digits) or as text (more).
    @Test func percentagesReadAsTheNearestDouble() {
        var random = SeededGenerator(seed: 0x9E2C_E47A)
        var texts = ["0.1", "0.3", "33.333333333333", "99.999999999999", "12.345678901234", "0.000000000001",
            "99.9999999999999", "12.3456789012345678", "0.10000000000000000555", "000000000000000000012.5", "5.", ".5"]
        for _ in 0..<2_000 {
            let whole = Int.random(in: 0...100, using: &random)
            let fraction = String((0..<Int.random(in: 0...18, using: &random)).map { _ in
                Character(String(Int.random(in: 0...9, using: &random)))
            })
            texts.append(fraction.isEmpty ? "\(whole)" : "\(whole).\(fraction)")
        }
        for text in texts {
            let expected = Double(text).flatMap { $0 >= 0 && $0 <= 100 ? $0 : nil }
            #expect(ValueSyntax.percentage(text) == expected, "\(text)")
            #expect(ValueSyntax.percentage(text + "%") == expected, "\(text)%")
        }
    }

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
        ("2000-02-29T00:00:00Z", 951_782_400.0),
        ("2026-01-31T00:00:00Z", 1_769_817_600.0),
        ("2026-04-30T00:00:00Z", 1_777_507_200.0),
        ("2026-12-31T00:00:00Z", 1_798_675_200.0),
        ("1969-12-31T23:59:59Z", -1.0),
        // Past what 32 bits count in seconds (Apple Watch's `Int`), and the ends of the years a date may be written in.
        ("2038-01-19T03:14:08Z", 2_147_483_648.0),
        ("9999-12-31T23:59:59Z", 253_402_300_799.0),
        ("0000-01-01T00:00:00Z", -62_167_219_200.0),
        ("0000-01-01T00:00:00-01:00", -62_167_215_600.0),
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
        ("1900-02-29T00:00:00Z", .impossible),
        ("2026-04-31T00:00:00Z", .impossible),
        ("2026-06-31T00:00:00Z", .impossible),
        ("2026-09-31T00:00:00Z", .impossible),
        ("2026-11-31T00:00:00Z", .impossible),
        ("2026-02-00T00:00:00Z", .impossible),
        ("2026-00-10T00:00:00Z", .impossible),
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
