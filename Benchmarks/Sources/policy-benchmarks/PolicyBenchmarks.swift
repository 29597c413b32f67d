import BenchmarkSupport
import Foundation

/// Runs every benchmark, each in a fresh process of its own so that one's memory cannot hide another's, and prints
/// the report as Markdown.
///
///     policy-benchmarks --inputs DIR --policy-lint PATH --yams PATH [--samples N]
///     policy-benchmarks measure NAME FILE [SAMPLES]         (one measurement, as a JSON line)
///     policy-benchmarks measure-files floor DIR [SAMPLES]   (the floor over every file in DIR)
///     policy-benchmarks profile NAME FILE COUNT             (COUNT operations, untimed: for callgrind)
///     policy-benchmarks check [NAME] FILE                   (exit 1, saying why, when NAME, or any measure that runs
///                                                            on FILE, does not do on it what its measure says;
///                                                            `measure` checks too, after timing)
@main
struct PolicyBenchmarks {
    static func main() throws {
        let arguments = Array(CommandLine.arguments.dropFirst())
        switch arguments.first {
        case "measure":
            guard arguments.count >= 3 else { usage() }
            try measureOne(arguments[1], path: arguments[2], samples: arguments.count > 3 ? Int(arguments[3]) ?? 21 : 21)
        case "profile":
            guard arguments.count == 4, let count = Int(arguments[3]) else { usage() }
            try profile(arguments[1], path: arguments[2], count: count)
        case "check":
            guard arguments.count == 2 || arguments.count == 3, let path = arguments.last else { usage() }
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            for name in arguments.count == 3 ? [arguments[1]] : Operations.names(for: path) {
                check(name, bytes: bytes, path: path)
            }
        case "measure-files":
            guard arguments.count >= 3 else { usage() }
            try measureFiles(folder: arguments[2], samples: arguments.count > 3 ? Int(arguments[3]) ?? 7 : 7)
        default:
            var options: [String: String] = [:]
            var index = 0
            while index + 1 < arguments.count, arguments[index].hasPrefix("--") {
                options[String(arguments[index].dropFirst(2))] = arguments[index + 1]
                index += 2
            }
            guard index == arguments.count, let inputs = options["inputs"] else { usage() }
            try Driver(
                inputs: URL(fileURLWithPath: inputs), policyLint: options["policy-lint"], yams: options["yams"],
                samples: options["samples"].flatMap { Int($0) } ?? 21
            ).run()
        }
    }

    static func usage() -> Never {
        FileHandle.standardError.write(Data("""
            usage: policy-benchmarks --inputs DIR [--policy-lint PATH] [--yams PATH] [--samples N]
                   policy-benchmarks measure NAME FILE [SAMPLES]
                   policy-benchmarks profile NAME FILE COUNT
                   policy-benchmarks check [NAME] FILE

            """.utf8))
        exit(2)
    }

    static func measureOne(_ name: String, path: String, samples: Int) throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let input = URL(fileURLWithPath: path).lastPathComponent
        let operation = prepared(name, bytes: bytes, path: path)
        // The floor beside it, over the YAML file of the same content (a JSON input's floor is its YAML twin's,
        // as in the report's other ratios).
        let yamlPath = path.hasSuffix(".json") ? String(path.dropLast(5)) + ".yaml" : path
        let floorBytes = yamlPath == path ? bytes : [UInt8](try Data(contentsOf: URL(fileURLWithPath: yamlPath)))
        let floor = name == "floor" ? nil : { Operations.libyamlScan(floorBytes) }
        let result = measure(name, input: input, bytes: bytes.count, samples: samples, floor: floor, operation)
        // Checked after, not before: the check's own reading would be memory the process held before the measure,
        // which the peak is counted above.
        check(name, bytes: bytes, path: path)
        print(result.line)
    }

    /// Runs an operation `count` times with no timing, so that a profiler's counts are the operation's. Unchecked: a
    /// check run first would do the first operation's one-time work, which `instructions.sh` counts (it runs
    /// `check` for each measure in a process of its own first).
    static func profile(_ name: String, path: String, count: Int) throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let operation = prepared(name, bytes: bytes, path: path)
        // What every app has done before its policy code runs: used a dictionary keyed by strings. The first one of a
        // process makes the runtime look `String`'s `Hashable` conformance up; without this, the first operation of
        // whatever made one first (the launch context's attributes) would count it.
        var warm: [String: String] = [:]
        warm[path] = path
        var checksum = warm.count - 1
        for _ in 0..<count { checksum &+= operation() }
        print(checksum)
    }

    /// Exits 1, saying why, when the operation `name` does not do on `bytes` what its measure says it times
    /// (``Operations/check(_:bytes:path:)``), so that no report shows the time of something else.
    static func check(_ name: String, bytes: [UInt8], path: String) {
        do {
            try Operations.check(name, bytes: bytes, path: URL(fileURLWithPath: path).lastPathComponent)
        } catch {
            cannotMeasure(name, path, error.reason)
        }
    }

    /// The operation `name` on `bytes`, ready to run; exits 1 when there is none.
    static func prepared(_ name: String, bytes: [UInt8], path: String) -> () -> Int {
        let input = URL(fileURLWithPath: path).lastPathComponent
        if let operation = Operations.operation(name, bytes: bytes, path: input) { return operation }
        check(name, bytes: bytes, path: path)
        cannotMeasure(name, path, "it cannot be prepared")
    }

    static func cannotMeasure(_ name: String, _ path: String, _ reason: String) -> Never {
        FileHandle.standardError.write(Data("policy-benchmarks: cannot measure \(name) on \(path): \(reason)\n".utf8))
        exit(1)
    }

    static func measureFiles(folder: String, samples: Int) throws {
        let files = try PolicyBenchmarks.files(in: URL(fileURLWithPath: folder))
        let contents = try files.map { [UInt8](try Data(contentsOf: $0)) }
        let total = contents.reduce(0) { $0 + $1.count }
        let result = measure("floor", input: "\(files.count) files", bytes: total, samples: samples) {
            contents.reduce(0) { $0 &+ Operations.libyamlScan($1) }
        }
        print(result.line)
    }

    /// The YAML files in `folder`, sorted.
    static func files(in folder: URL) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "yaml" }
            .sorted { $0.path < $1.path }
    }
}
