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
        let seconds = dayMilliseconds / 1000
        // Written digit by digit into the text's 24 bytes: interpolating padded parts cost about 7,000 instructions
        // a date, and the launch history writes three at every launch.
        return String(unsafeUninitializedCapacity: 24) { text in
            func put(_ value: Int64, width: Int, at start: Int) {
                var value = value
                for position in (start..<start + width).reversed() {
                    text[position] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
            }
            (text[4], text[7], text[10], text[13], text[16], text[19], text[23]) = (
                UInt8(ascii: "-"), UInt8(ascii: "-"), UInt8(ascii: "T"), UInt8(ascii: ":"), UInt8(ascii: ":"),
                UInt8(ascii: "."), UInt8(ascii: "Z"))
            put(year, width: 4, at: 0)
            put(month, width: 2, at: 5)
            put(day, width: 2, at: 8)
            put(seconds / 3600, width: 2, at: 11)
            put(seconds / 60 % 60, width: 2, at: 14)
            put(seconds % 60, width: 2, at: 17)
            put(dayMilliseconds % 1000, width: 3, at: 20)
            return 24
        }
    }
}
