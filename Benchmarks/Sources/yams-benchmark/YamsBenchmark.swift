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
            FileHandle.standardError.write(Data("usage: yams-benchmark FILE [SAMPLES]\n".utf8))
            exit(2)
        }
        let samples = arguments.dropFirst().first.flatMap { Int($0) } ?? 21
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let result = measure("yams compose", input: URL(fileURLWithPath: path).lastPathComponent, bytes: bytes.count,
            samples: samples)
        {
            let text = String(decoding: bytes, as: UTF8.self)
            guard let node = try? Yams.compose(yaml: text) else { return -1 }
            return node.mapping?.count ?? 0
        }
        print(result.line)
    }
}
