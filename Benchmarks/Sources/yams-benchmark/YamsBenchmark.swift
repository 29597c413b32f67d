import BenchmarkSupport
import Foundation
import Yams

/// The peer: Yams `compose` of a file's bytes (decoding them to the String Yams takes, as a caller must), printed as
/// one measurement line. Run by `policy-benchmarks`; a separate executable because Yams links its own libyaml.
///
/// Its ratio to the floor is to the floor over the system's libyaml, the one `policy-benchmarks` times beside our
/// measures, loaded here on its own (``LibYAMLFunctions``): the two processes' ratios then share one floor and differ
/// only by what each measures. `--own-floor` times the floor over Yams's copy of libyaml instead, which runs slower
/// than the system's and so made the peer's ratio, and our lead over it, smaller than the times show.
@main
struct YamsBenchmark {
    static func main() throws {
        var arguments = CommandLine.arguments.dropFirst()
        let ownFloor = arguments.contains("--own-floor")
        arguments.removeAll { $0 == "--own-floor" }
        guard let path = arguments.first else {
            FileHandle.standardError.write(Data(
                "usage: yams-benchmark FILE [--own-floor] [SAMPLES | --profile COUNT | --profile-floor COUNT]\n".utf8))
            exit(2)
        }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        func compose() -> Int {
            let text = String(decoding: bytes, as: UTF8.self)
            guard let node = try? Yams.compose(yaml: text) else { return -1 }
            return node.mapping?.count ?? 0
        }
        // As every measure of policy-benchmarks checks that its input does what it times: Yams must compose the file.
        // Asked after the measure or profile, as there: before, its memory would be counted as held before the
        // measure.
        func check() {
            guard compose() >= 0 else {
                FileHandle.standardError.write(Data("yams-benchmark: Yams does not compose \(path)\n".utf8))
                exit(1)
            }
        }
        let floorBytes = [UInt8](bytes)
        // The system's libyaml, when it loads and reads the bytes as Yams's copy does.
        var system = ownFloor ? nil : LibYAMLFunctions.system()
        if let loaded = system, loaded.scan(floorBytes) != LibYAMLFunctions.yamsCopy.scan(floorBytes) {
            FileHandle.standardError.write(Data("yams-benchmark: the system's libyaml read other scalars\n".utf8))
            system = nil
        }
        if !ownFloor, system == nil {
            FileHandle.standardError.write(Data(
                "yams-benchmark: the floor is timed over Yams's copy of libyaml, not the system's\n".utf8))
        }
        let library = system ?? LibYAMLFunctions.yamsCopy
        let timedFloor = { library.scan(floorBytes) }
        // `--profile COUNT`: COUNT operations, untimed, for callgrind (as `policy-benchmarks profile`);
        // `--profile-floor COUNT` the same of the floor beside Yams.
        if let mode = arguments.dropFirst().first, mode == "--profile" || mode == "--profile-floor",
            let count = arguments.dropFirst(2).first.flatMap({ Int($0) })
        {
            let operation = mode == "--profile" ? compose : timedFloor
            let checksum = (0..<count).reduce(0) { $0 &+ operation() &+ $1 }
            check()
            print(checksum)
            return
        }
        let samples = arguments.dropFirst().first.flatMap { Int($0) } ?? 21
        var result = measure("yams compose", input: URL(fileURLWithPath: path).lastPathComponent, bytes: bytes.count,
            samples: samples, floor: timedFloor, compose)
        result.floorLibrary = system == nil ? "Yams's copy of libyaml" : nil
        check()
        print(result.line)
    }
}
