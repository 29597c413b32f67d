import CYaml
import Foundation

/// The five libyaml functions the floor's scan calls, from one of the two copies of libyaml the Yams process can
/// reach: the copy Yams carries, linked into the process, or the system's, the one the product and
/// `policy-benchmarks` link. The system's cannot be linked beside Yams's (the two copies' symbols clash), so it is
/// loaded on its own: opened with `RTLD_LOCAL` (and, on Linux, `RTLD_DEEPBIND`, so that its calls to itself stay in
/// it) and reached only through the functions looked up in it. One scan runs over either, so that the two floors
/// differ only by the library.
///
/// Both are called with Yams's declarations of libyaml's types: both copies are libyaml 0.2.5, whose parser and event
/// structures are the same (the two headers' declarations were compared when this was written), and the benchmark
/// uses the system's only when it reads the input's scalars as Yams's copy reads them.
struct LibYAMLFunctions {
    private typealias ParserFunction = @convention(c) (UnsafeMutablePointer<yaml_parser_t>?) -> Int32
    private typealias InputFunction = @convention(c) (
        UnsafeMutablePointer<yaml_parser_t>?, UnsafePointer<UInt8>?, Int) -> Void
    private typealias ParseFunction = @convention(c) (
        UnsafeMutablePointer<yaml_parser_t>?, UnsafeMutablePointer<yaml_event_t>?) -> Int32
    private typealias EventFunction = @convention(c) (UnsafeMutablePointer<yaml_event_t>?) -> Void
    private typealias DeleteFunction = @convention(c) (UnsafeMutablePointer<yaml_parser_t>?) -> Void

    private let initialize: ParserFunction
    private let setInput: InputFunction
    private let parse: ParseFunction
    private let deleteEvent: EventFunction
    private let deleteParser: DeleteFunction

    /// The copy of libyaml Yams carries.
    static let yamsCopy = LibYAMLFunctions(
        initialize: yaml_parser_initialize, setInput: yaml_parser_set_input_string, parse: yaml_parser_parse,
        deleteEvent: yaml_event_delete, deleteParser: yaml_parser_delete)

    /// The names the system's libyaml has, on Linux and on macOS (Homebrew's).
    private static let libraryNames = [
        "libyaml-0.so.2", "libyaml.so", "/opt/homebrew/lib/libyaml.dylib", "/usr/local/lib/libyaml.dylib",
    ]

    /// The system's libyaml, or nil when it cannot be opened.
    static func system() -> LibYAMLFunctions? {
        #if os(Linux)
        let flags = RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND
        #else
        let flags = RTLD_NOW | RTLD_LOCAL
        #endif
        guard let handle = libraryNames.lazy.compactMap({ dlopen($0, flags) }).first else { return nil }
        func function<F>(_ name: String, as _: F.Type) -> F? {
            dlsym(handle, name).map { unsafeBitCast($0, to: F.self) }
        }
        guard let initialize = function("yaml_parser_initialize", as: ParserFunction.self),
            let setInput = function("yaml_parser_set_input_string", as: InputFunction.self),
            let parse = function("yaml_parser_parse", as: ParseFunction.self),
            let deleteEvent = function("yaml_event_delete", as: EventFunction.self),
            let deleteParser = function("yaml_parser_delete", as: DeleteFunction.self)
        else { return nil }
        return LibYAMLFunctions(initialize: initialize, setInput: setInput, parse: parse, deleteEvent: deleteEvent,
            deleteParser: deleteParser)
    }

    /// The floor: the same scan as `policy-benchmarks`' (libyaml's events, each scalar copied into a String); returns
    /// the scalars' bytes, or -1 when libyaml stops before the input's end.
    func scan(_ bytes: [UInt8]) -> Int {
        var parser = yaml_parser_t()
        guard initialize(&parser) == 1 else { return -1 }
        defer { deleteParser(&parser) }
        var scalarBytes = 0
        var ended = false
        bytes.withUnsafeBufferPointer { buffer in
            setInput(&parser, buffer.baseAddress, buffer.count)
            var event = yaml_event_t()
            while parse(&parser, &event) == 1 {
                defer { deleteEvent(&event) }
                if event.type == YAML_SCALAR_EVENT {
                    let scalar = event.data.scalar
                    let text = String(
                        decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
                    scalarBytes &+= text.utf8.count
                }
                if event.type == YAML_STREAM_END_EVENT {
                    ended = true
                    break
                }
            }
        }
        return ended ? scalarBytes : -1
    }
}
