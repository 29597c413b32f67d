import Foundation

/// Dates as the state files and reports write them: ISO 8601 in UTC with milliseconds, `2026-11-20T09:30:00.250Z`.
/// Formatted by hand because Foundation's ISO 8601 styles need newer Apple systems than the library supports.
package enum Timestamp {
    /// The first instant the text holds (and reads back): 0000-01-01T00:00:00.000Z, in seconds since 1970.
    package static let earliest: TimeInterval = -62_167_219_200
    /// The last: 9999-12-31T23:59:59.999Z.
    package static let latest: TimeInterval = 253_402_300_799.999

    /// The date as text. A date outside the years 0000 to 9999 (a number another library stored as a date, the far
    /// past or future) is written as the nearer end, and an undefined one (NaN) as the first: made a count of
    /// milliseconds as it was, such a date stopped the app when it saved its launch history.
    package static func text(_ date: Date) -> String {
        let given = date.timeIntervalSince1970
        let written = given.isNaN ? earliest : min(max(given, earliest), latest)
        let milliseconds = Int64((written * 1000).rounded(.down))
        let (days, millisecondOfDay) = milliseconds.quotientAndRemainder(dividingBy: 86_400_000)
        let (dayNumber, dayMilliseconds) = millisecondOfDay < 0 ? (days - 1, millisecondOfDay + 86_400_000) : (days, millisecondOfDay)
        // Civil date from days since 1970-01-01, proleptic Gregorian (the inverse of ValueSyntax.date's count).
        let shifted = dayNumber + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func padded(_ value: Int64, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let seconds = dayMilliseconds / 1000
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))T\(padded(seconds / 3600, 2)):"
            + "\(padded(seconds / 60 % 60, 2)):\(padded(seconds % 60, 2)).\(padded(dayMilliseconds % 1000, 3))Z"
    }
}
