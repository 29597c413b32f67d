import BenchmarkSupport
import CYaml
import Foundation
import Yams

/// The peer: Yams `compose` of a file's bytes (decoding them to the String Yams takes, as a caller must), printed as
/// one measurement line. Run by `policy-benchmarks`; a separate executable because Yams links its own libyaml.
///
/// Its ratio to the floor is to the floor over the system's libyaml, the one `policy-benchmarks` times beside our
/// measures, loaded here on its own (``SystemLibYAML``): the two processes' ratios then share one floor and differ
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
        // `--profile COUNT`: COUNT operations, untimed, for callgrind (as `policy-benchmarks profile`);
        // `--profile-floor COUNT` the same of the floor beside Yams.
        let floorBytes = [UInt8](bytes)
        // The system's libyaml, when it loads and reads the bytes as Yams's copy does.
        var system = ownFloor ? nil : SystemLibYAML.load()
        if let loaded = system, loaded.scan(floorBytes) != floor(floorBytes) {
            FileHandle.standardError.write(Data("yams-benchmark: the system's libyaml read other scalars\n".utf8))
            system = nil
        }
        if !ownFloor, system == nil {
            FileHandle.standardError.write(Data(
                "yams-benchmark: the floor is timed over Yams's copy of libyaml, not the system's\n".utf8))
        }
        let timedFloor = { system.map { $0.scan(floorBytes) } ?? floor(floorBytes) }
        if let mode = arguments.dropFirst().first, mode == "--profile" || mode == "--profile-floor",
            let count = arguments.dropFirst(2).first.flatMap({ Int($0) })
        {
            let operation = mode == "--profile" ? compose : timedFloor
            print((0..<count).reduce(0) { $0 &+ operation() &+ $1 })
            return
        }
        let samples = arguments.dropFirst().first.flatMap { Int($0) } ?? 21
        var result = measure("yams compose", input: URL(fileURLWithPath: path).lastPathComponent, bytes: bytes.count,
            samples: samples, floor: timedFloor, compose)
        result.floorLibrary = system == nil ? "Yams's copy of libyaml" : nil
        print(result.line)
    }

    /// The floor beside Yams over the copy of libyaml that Yams carries (`--own-floor`): the same scan as
    /// `policy-benchmarks`' floor (libyaml's events, each scalar copied into a String).
    static func floor(_ bytes: [UInt8]) -> Int {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return -1 }
        defer { yaml_parser_delete(&parser) }
        var scalarBytes = 0
        bytes.withUnsafeBufferPointer { buffer in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var event = yaml_event_t()
            while yaml_parser_parse(&parser, &event) == 1 {
                defer { yaml_event_delete(&event) }
                if event.type == YAML_SCALAR_EVENT {
                    let scalar = event.data.scalar
                    let text = String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
                    scalarBytes &+= text.utf8.count
                }
                if event.type == YAML_STREAM_END_EVENT { break }
            }
        }
        return scalarBytes
    }
}
