import BenchmarkSupport
import Foundation
import Yams

/// The peer: Yams `compose` of a file's bytes (decoding them to the String Yams takes, as a caller must), printed as
/// one measurement line. Run by `policy-benchmarks`; a separate executable because Yams links its own libyaml.
@main
struct YamsBenchmark {
    static func main() throws {
        let arguments = CommandLine.arguments.dropFirst()
        guard let path = arguments.first else {
            FileHandle.standardError.write(Data("usage: yams-benchmark FILE [SAMPLES | --profile COUNT]\n".utf8))
            exit(2)
        }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        func compose() -> Int {
            let text = String(decoding: bytes, as: UTF8.self)
            guard let node = try? Yams.compose(yaml: text) else { return -1 }
            return node.mapping?.count ?? 0
        }
        // `--profile COUNT`: COUNT operations, untimed, for callgrind (as `policy-benchmarks profile`).
        if arguments.dropFirst().first == "--profile", let count = arguments.dropFirst(2).first.flatMap({ Int($0) }) {
            print((0..<count).reduce(0) { $0 &+ compose() &+ $1 })
            return
        }
        let samples = arguments.dropFirst().first.flatMap { Int($0) } ?? 21
        let result = measure("yams compose", input: URL(fileURLWithPath: path).lastPathComponent, bytes: bytes.count,
            samples: samples, compose)
        print(result.line)
    }
}
