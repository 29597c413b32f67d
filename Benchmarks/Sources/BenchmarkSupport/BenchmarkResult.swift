import Foundation

/// One benchmark's result: what a measuring process prints as one JSON line and the driver reads back.
public struct BenchmarkResult: Codable, Sendable {
    /// What was measured, such as `reader+decoder`.
    public var name: String
    /// The input file's name.
    public var input: String
    /// The input's size in bytes.
    public var bytes: Int
    /// The median time of one operation over the samples, in nanoseconds.
    public var medianNanoseconds: Double
    /// The fastest and slowest sample's time per operation, in nanoseconds.
    public var minimumNanoseconds: Double
    public var maximumNanoseconds: Double
    /// How many samples were timed, and how many operations each sample ran.
    public var samples: Int
    public var operationsPerSample: Int
    /// The most memory the process held while running the operation, above what it held before: the peak resident
    /// set (reset before the first operation where the system allows it) less the resident set before.
    public var peakMemoryBytes: Int
    /// A value computed from every result, printed so that no operation can be optimised away.
    public var checksum: Int
    /// The median time of one operation of the floor, timed in the same process between the operation's samples;
    /// nil where no floor was timed beside the operation.
    public var floorMedianNanoseconds: Double?
    /// The median of the ratios of each of the operation's samples to the floor's sample just before it; nil where
    /// no floor was timed beside the operation. This machine runs a whole process at one of two speeds about 2×
    /// apart, so a ratio of two processes' medians can be off by that much; a ratio within one process is not.
    public var ratioToFloor: Double?
    /// The libyaml the floor ran over when it is not the system's (the Yams process, with `--own-floor` or when it
    /// cannot load the system's); nil for the system's.
    public var floorLibrary: String?
}

/// Times an operation: one warm-up, then `samples` samples of as many operations as fill about `sampleTime`.
///
/// - Parameters:
///   - floor: The floor's operation, timed before each of the operation's samples in a sample of its own, so that
///     the ratio to it is taken within one process (see ``BenchmarkResult/ratioToFloor``). It runs after the peak
///     memory is read, which it then cannot raise.
///   - operation: Runs the operation once and returns a number derived from its result.
public func measure(
    _ name: String, input: String, bytes: Int, samples: Int = 21, sampleTime: Duration = .milliseconds(20),
    floor: (() -> Int)? = nil, _ operation: () -> Int
) -> BenchmarkResult {
    let memoryBefore = ProcessMemory.resetPeak()
    let clock = ContinuousClock()
    var checksum = 0
    let once = clock.measure { checksum &+= operation() }
    let peak = ProcessMemory.peakResidentBytes()
    let perSample = max(1, Int(sampleTime / max(once, .nanoseconds(1))))
    func timed(_ count: Int, _ body: () -> Int) -> Double {
        let elapsed = clock.measure {
            for _ in 0..<count { checksum &+= body() }
        }
        return elapsed.nanoseconds / Double(count)
    }
    var floorPerSample = 0
    if let floor {
        let floorOnce = clock.measure { checksum &+= floor() }
        floorPerSample = max(1, Int(sampleTime / max(floorOnce, .nanoseconds(1))))
    }
    var times: [Double] = []
    var floorTimes: [Double] = []
    var ratios: [Double] = []
    for _ in 0..<samples {
        if let floor { floorTimes.append(timed(floorPerSample, floor)) }
        times.append(timed(perSample, operation))
        if let floorTime = floorTimes.last { ratios.append(times[times.count - 1] / floorTime) }
    }
    func median(_ values: [Double]) -> Double? { values.isEmpty ? nil : values.sorted()[values.count / 2] }
    times.sort()
    var result = BenchmarkResult(
        name: name, input: input, bytes: bytes, medianNanoseconds: times[times.count / 2],
        minimumNanoseconds: times[0], maximumNanoseconds: times[times.count - 1], samples: samples,
        operationsPerSample: perSample, peakMemoryBytes: max(0, peak - memoryBefore), checksum: checksum)
    result.floorMedianNanoseconds = median(floorTimes)
    result.ratioToFloor = median(ratios)
    return result
}

extension BenchmarkResult {
    /// The measurement as the one line a measuring process prints.
    public var line: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }
}

extension Duration {
    /// The duration in nanoseconds.
    public var nanoseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    }
}

/// The process's resident memory, from /proc on Linux and getrusage elsewhere.
public enum ProcessMemory {
    /// Resets the peak resident set to the current one where the system allows it (Linux's clear_refs), and returns
    /// the current resident set in bytes.
    public static func resetPeak() -> Int {
        #if os(Linux)
        try? Data("5".utf8).write(to: URL(fileURLWithPath: "/proc/self/clear_refs"))
        return status("VmRSS:")
        #else
        return peakResidentBytes()
        #endif
    }

    /// The peak resident set in bytes.
    public static func peakResidentBytes() -> Int {
        #if os(Linux)
        return status("VmHWM:")
        #else
        var usage = rusage()
        getrusage(RUSAGE_SELF, &usage)
        return Int(usage.ru_maxrss)  // bytes on Darwin
        #endif
    }

    #if os(Linux)
    /// A `kB` field of /proc/self/status, in bytes.
    private static func status(_ field: String) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix(field) })
        else { return 0 }
        let digits = line.dropFirst(field.count).filter(\.isNumber)
        return (Int(String(digits)) ?? 0) * 1024
    }
    #endif
}
