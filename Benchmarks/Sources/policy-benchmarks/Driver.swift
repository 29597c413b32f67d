import BenchmarkSupport
import Foundation

/// Runs each measurement in a child process, then prints the report: per input, every measure with its median, spread,
/// throughput, peak memory and ratio to the floor, the targets, and policy-lint over a folder of 1,000 files.
struct Driver {
    let inputs: URL
    let policyLint: String?
    let yams: String?
    let samples: Int

    /// One row of the report.
    struct Row {
        let label: String
        let measurement: BenchmarkResult
    }

    func run() throws {
        let me = Bundle.main.executablePath ?? CommandLine.arguments[0]
        var report = ""
        var targets: [String] = []
        for name in ["policy-48", "policy-2000"] {
            let yaml = inputs.appendingPathComponent(name + ".yaml").path
            let json = inputs.appendingPathComponent(name + ".json").path
            var rows: [Row] = []
            func add(_ label: String, _ arguments: [String], executable: String = me) throws {
                rows.append(Row(label: label, measurement: try child(executable, arguments)))
            }
            try add("(a) floor: libyaml events, each scalar copied to a String", ["measure", "floor", yaml, "\(samples)"])
            try add("(b) our reader (node tree, positions, limits)", ["measure", "reader", yaml, "\(samples)"])
            try add("(c) reader + decoder to the policy AST", ["measure", "reader+decoder", yaml, "\(samples)"])
            try add("(d) one evaluation of a parsed policy (a gate stops the user)", ["measure", "evaluate", yaml, "\(samples)"])
            try add("(d) one evaluation of a parsed policy (no gate: every rule decided)",
                ["measure", "evaluate-ungated", yaml, "\(samples)"])
            try add("(d) the same, then every rule's explanation read (what a report reads)",
                ["measure", "evaluate-explained", yaml, "\(samples)"])
            try add("making the launch context an evaluation reads (versions, dates, locale; before (d))",
                ["measure", "launch-context", yaml, "\(samples)"])
            try add("recording the launch in the history file (locked, read, written; before the context)",
                ["measure", "record-launch", yaml, "\(samples)"])
            try add("(e) policy-lint of the file (all checks)", ["measure", "lint", yaml, "\(samples)"])
            if let yams {
                try add("Yams compose (peer; floor: the system's libyaml, loaded in its process)",
                    [yaml, "\(samples)"], executable: yams)
                try add("Yams compose again (floor: the copy of libyaml Yams carries)",
                    [yaml, "--own-floor", "\(samples)"], executable: yams)
            }
            try add("Foundation JSONSerialization of the JSON (peer)", ["measure", "json-serialization", json, "\(samples)"])
            try add("our reader + decoder of the JSON", ["measure", "reader+decoder-json", json, "\(samples)"])

            let floor = rows[0].measurement.medianNanoseconds
            /// The ratio to the floor timed in the row's own process (the machine runs a whole process at one of two
            /// speeds); to the floor's process only for a result without one.
            func ratio(_ m: BenchmarkResult) -> Double { m.ratioToFloor ?? m.medianNanoseconds / floor }
            report += "\n### \(name).yaml — \(rows[0].measurement.bytes.grouped) bytes"
            report += " (JSON: \(rows.last!.measurement.bytes.grouped) bytes)\n\n"
            report += "| measure | median / op | fastest … slowest sample | MB/s | peak memory | × floor "
            report += "| floor in the same process |\n"
            report += "| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n"
            for row in rows {
                let m = row.measurement
                report += "| \(row.label) | \(time(m.medianNanoseconds)) | \(time(m.minimumNanoseconds)) … "
                report += "\(time(m.maximumNanoseconds)) | \(throughput(m)) | \(memory(m.peakMemoryBytes)) | "
                report += String(format: "%.2f", ratio(m)) + " | "
                report += (m.floorMedianNanoseconds.map(time) ?? (m.name == "floor" ? time(floor) : "—")) + " |\n"
            }

            func measurement(_ prefix: String) -> BenchmarkResult {
                rows.first { $0.label.hasPrefix(prefix) }!.measurement
            }
            func median(_ prefix: String) -> Double { measurement(prefix).medianNanoseconds }
            targets.append(check("\(name): (c) within 1.5× of (a)", ratio(measurement("(c)")), "×", atMost: 1.5))
            targets.append(check("\(name): (e) within 3× of (a)", ratio(measurement("(e)")), "×", atMost: 3))
            if name == "policy-48" {
                targets.append(check("\(name): (d) under 5 µs, a gate", median("(d) one evaluation of a parsed policy (a") / 1000,
                    " µs", atMost: 5))
                targets.append(check("\(name): (d) under 5 µs, no gate", median("(d) one evaluation of a parsed policy (no")
                    / 1000, " µs", atMost: 5))
            }
            if yams != nil {
                // Both paired, and to the same floor: Yams to the system's libyaml's floor in its process, ours to
                // it in our own. Its floor over its own copy of libyaml, which runs slower, is reported beside it.
                let peer = ratio(measurement("Yams"))
                // Said where the Yams process could not load the system's libyaml and fell back to its own copy.
                let floorNote = measurement("Yams").floorLibrary.map { " (Yams to the floor over \($0))" } ?? ""
                for measure in ["(b)", "(c)", "(e)"] {
                    targets.append(check("\(name): \(measure) at least 5× faster than Yams compose\(floorNote)",
                        peer / ratio(measurement(measure)), "× faster", atLeast: 5))
                }
            }
        }
        print("## Results\n" + report)
        print("### Targets\n")
        print(targets.map { "- \($0)" }.joined(separator: "\n"))
        if let policyLint { try lintFolder(policyLint, me: me) }
    }

    /// policy-lint as a user runs it, over the folder of 1,000 generated policies, against the floor over the same
    /// bytes: on every processor (its default) and one file at a time (`-j 1`), which is what the floor does.
    ///
    /// Paired, as the other measures are: each of seven rounds times the floor (a process of its own, one pass over
    /// the files), then both runs of policy-lint, and each ratio is to that round's floor. The machine changes speed
    /// between processes, and a floor timed once, apart, moved the ratios by up to 1.7×.
    func lintFolder(_ policyLint: String, me: String) throws {
        let folder = inputs.appendingPathComponent("lint-1000")
        func wallTime(_ extra: [String]) throws -> Double {
            let start = ContinuousClock.now
            let process = Process()
            process.executableURL = URL(fileURLWithPath: policyLint)
            process.arguments = [folder.path, "--now", "2026-11-20T12:00:00Z"] + extra
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus <= 1 else {
                throw BenchmarkError("policy-lint exited \(process.terminationStatus) on \(folder.path)")
            }
            return (ContinuousClock.now - start).nanoseconds
        }
        var floors: [Double] = [], walls: [Double] = [], singles: [Double] = []
        var wallRatios: [Double] = [], singleRatios: [Double] = []
        var bytes = 0
        for _ in 0..<7 {
            let floor = try child(me, ["measure-files", "floor", folder.path, "1"])
            bytes = floor.bytes
            let wall = try wallTime([]), single = try wallTime(["-j", "1"])
            floors.append(floor.medianNanoseconds)
            walls.append(wall)
            singles.append(single)
            wallRatios.append(wall / floor.medianNanoseconds)
            singleRatios.append(single / floor.medianNanoseconds)
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        let processors = ProcessInfo.processInfo.activeProcessorCount
        print("\n### policy-lint over 1,000 policy files\n")
        print("| measure | median | bytes | × floor (paired) |\n| --- | ---: | ---: | ---: |")
        let ratio = { (ratios: [Double]) in String(format: "%.2f", median(ratios)) }
        print("| `policy-lint lint-1000/` (one process, \(processors) processors, wall time, output discarded) | "
            + "\(time(median(walls))) | \(bytes.grouped) | \(ratio(wallRatios)) |")
        print("| `policy-lint -j 1 lint-1000/` (one file at a time) | \(time(median(singles))) | \(bytes.grouped) | "
            + "\(ratio(singleRatios)) |")
        print("| floor over the same bytes, in memory, one thread | \(time(median(floors))) | \(bytes.grouped) | 1.00 |")
    }

    /// Runs one measuring process and reads its result line.
    func child(_ executable: String, _ arguments: [String]) throws -> BenchmarkResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let line = data.split(separator: UInt8(ascii: "\n")).last else {
            throw BenchmarkError("\(executable) \(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
        }
        return try JSONDecoder().decode(BenchmarkResult.self, from: Data(line))
    }

    func check(_ label: String, _ value: Double, _ unit: String, atMost limit: Double) -> String {
        "\(value <= limit ? "met" : "MISSED"): \(label) — " + String(format: "%.2f", value) + unit
    }

    func check(_ label: String, _ value: Double, _ unit: String, atLeast limit: Double) -> String {
        "\(value >= limit ? "met" : "MISSED"): \(label) — " + String(format: "%.1f", value) + unit
    }

    func time(_ nanoseconds: Double) -> String {
        switch nanoseconds {
        case ..<1_000: String(format: "%.0f ns", nanoseconds)
        case ..<1_000_000: String(format: "%.2f µs", nanoseconds / 1_000)
        case ..<1_000_000_000: String(format: "%.2f ms", nanoseconds / 1_000_000)
        default: String(format: "%.2f s", nanoseconds / 1_000_000_000)
        }
    }

    /// Input read per second; none for the measures that read no input (an evaluation of a policy parsed
    /// beforehand, making a launch context, recording a launch).
    func throughput(_ m: BenchmarkResult) -> String {
        m.name.hasPrefix("evaluate") || m.name == "launch-context" || m.name == "record-launch"
            ? "—" : String(format: "%.0f", Double(m.bytes) / m.medianNanoseconds * 1_000)
    }

    func memory(_ bytes: Int) -> String {
        bytes < 1024 * 1024 ? "\(bytes / 1024) KiB" : String(format: "%.1f MiB", Double(bytes) / 1_048_576)
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension Int {
    /// The number with thousands separated by commas, as the report writes sizes.
    var grouped: String {
        let digits = Array(String(self))
        return digits.enumerated().map { index, digit in
            index > 0 && (digits.count - index) % 3 == 0 ? ",\(digit)" : "\(digit)"
        }.joined()
    }
}
