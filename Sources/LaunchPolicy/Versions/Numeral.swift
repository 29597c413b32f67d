/// A non-negative integer of any size, as written in a version: compared exactly, never through a fixed-width
/// integer that could overflow.
///
/// Numbers below 10¹⁸ are held in a `UInt64` for speed; larger ones as their decimal digits, which compare by length
/// and then lexically once leading zeros are gone.
struct Numeral: Hashable, Comparable, Sendable, CustomStringConvertible {
    private enum Storage: Hashable, Sendable {
        case small(UInt64)
        /// At least 19 digits, no leading zero.
        case large(String)
    }

    private static let smallLimit: UInt64 = 1_000_000_000_000_000_000  // 10^18
    private let storage: Storage

    static let zero = Numeral(0)

    init(_ value: UInt64) {
        precondition(value < Self.smallLimit)
        storage = .small(value)
    }

    /// Creates a numeral from ASCII digits (at least one), leading zeros dropped, adding them up as they come: a
    /// string is made only for 19 significant digits or more.
    init(asciiDigits digits: some Collection<UInt8>) {
        var value: UInt64 = 0
        var significant = 0
        for digit in digits {
            if significant > 0 || digit != UInt8(ascii: "0") { significant += 1 }
            value = value &* 10 &+ UInt64(digit &- UInt8(ascii: "0"))
        }
        if significant <= 18 {
            storage = .small(value)
        } else {
            storage = .large(String(decoding: digits.drop { $0 == UInt8(ascii: "0") }, as: UTF8.self))
        }
    }

    var isZero: Bool { storage == .small(0) }

    /// The value when it is below 10^18, as nearly every version part is.
    var smallValue: UInt64? {
        if case .small(let value) = storage { return value }
        return nil
    }

    /// The value as an `Int` when it fits.
    var intValue: Int? {
        if case .small(let value) = storage, value <= UInt64(Int.max) { return Int(value) }
        return nil
    }

    /// This number plus one.
    var successor: Numeral {
        switch storage {
        case .small(let value):
            return value + 1 < Self.smallLimit ? Numeral(value + 1) : Numeral(asciiDigits: "1000000000000000000".utf8)
        case .large(let digits):
            var bytes = Array(digits.utf8)
            var index = bytes.count - 1
            while index >= 0, bytes[index] == UInt8(ascii: "9") {
                bytes[index] = UInt8(ascii: "0")
                index -= 1
            }
            if index < 0 { bytes.insert(UInt8(ascii: "1"), at: 0) } else { bytes[index] += 1 }
            return Numeral(asciiDigits: bytes)
        }
    }

    static func < (lhs: Numeral, rhs: Numeral) -> Bool {
        switch (lhs.storage, rhs.storage) {
        case (.small(let a), .small(let b)): a < b
        case (.small, .large): true
        case (.large, .small): false
        case (.large(let a), .large(let b)): a.utf8.count != b.utf8.count ? a.utf8.count < b.utf8.count : a < b
        }
    }

    var description: String {
        switch storage {
        case .small(let value): String(value)
        case .large(let digits): digits
        }
    }

    /// Appends the number's decimal digits to `bytes`, as ``description`` spells them.
    func appendDigits(to bytes: inout [UInt8]) {
        switch storage {
        case .small(var value):
            let start = bytes.count
            repeat {
                bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10))
                value /= 10
            } while value > 0
            // Written lowest digit first; turned around in place.
            var low = start, high = bytes.count - 1
            while low < high {
                bytes.swapAt(low, high)
                low += 1
                high -= 1
            }
        case .large(let digits):
            bytes.append(contentsOf: digits.utf8)
        }
    }
}

/// One dot-separated identifier of a SemVer prerelease: numeric identifiers sort numerically and before
/// alphanumeric ones, which sort in ASCII order (SemVer 2.0.0, section 11).
enum PrereleaseIdentifier: Hashable, Comparable, Sendable, CustomStringConvertible {
    case numeric(Numeral)
    case alphanumeric(String)

    static func < (lhs: PrereleaseIdentifier, rhs: PrereleaseIdentifier) -> Bool {
        switch (lhs, rhs) {
        case (.numeric(let a), .numeric(let b)): a < b
        case (.numeric, .alphanumeric): true
        case (.alphanumeric, .numeric): false
        case (.alphanumeric(let a), .alphanumeric(let b)): Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
        }
    }

    var description: String {
        switch self {
        case .numeric(let number): number.description
        case .alphanumeric(let text): text
        }
    }
}
