import BenchmarkSupport
import CYaml
import Foundation
import Yams

/// The peer: Yams `compose` of a file's bytes (decoding them to the String Yams takes, as a caller must), printed as
/// one measurement line. Run by `policy-benchmarks`; a separate executable because Yams links its own libyaml.
@main
struct YamsBenchmark {
    static func main() throws {
        let arguments = CommandLine.arguments.dropFirst()
        guard let path = arguments.first else {
            FileHandle.standardError.write(Data("usage: yams-benchmark FILE [SAMPLES | --profile COUNT | --profile-floor COUNT]\n".utf8))
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
        if let mode = arguments.dropFirst().first, mode == "--profile" || mode == "--profile-floor",
            let count = arguments.dropFirst(2).first.flatMap({ Int($0) })
        {
            let floorBytes = [UInt8](bytes)
            let operation = mode == "--profile" ? compose : { floor(floorBytes) }
            print((0..<count).reduce(0) { $0 &+ operation() &+ $1 })
            return
        }
        let samples = arguments.dropFirst().first.flatMap { Int($0) } ?? 21
        let floorBytes = [UInt8](bytes)
        let result = measure("yams compose", input: URL(fileURLWithPath: path).lastPathComponent, bytes: bytes.count,
            samples: samples, floor: { floor(floorBytes) }, compose)
        print(result.line)
    }

    /// The floor beside Yams, in its process: the same scan as `policy-benchmarks`' floor (libyaml's events, each
    /// scalar copied into a String), over the copy of libyaml that Yams carries. It is written again here because
    /// the two copies of libyaml cannot share a process; `instructions.sh` checks that both floors cost the same.
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
