import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
@testable import LaunchPolicy
import Testing

/// Collects the chart's bars: each `<g>` holds a tooltip and the rects of one version.
private final class BarCollector: NSObject, XMLParserDelegate {
    var bars: [(title: String, heights: [Double], colors: [String])] = []
    private var inTitle = false

    func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:])
    {
        switch element {
        case "g": bars.append(("", [], []))
        case "title": inTitle = true
        case "rect" where !bars.isEmpty && attributes["height"] != nil && attributes["width"] == "18":
            bars[bars.count - 1].heights.append(Double(attributes["height"]!)!)
            bars[bars.count - 1].colors.append(attributes["fill"] ?? "")
        default: break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inTitle { bars[bars.count - 1].title += string }
    }

    func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
        if element == "title" { inTitle = false }
    }
}

private let rsvgConvert = ["/usr/bin/rsvg-convert", "/usr/local/bin/rsvg-convert", "/opt/homebrew/bin/rsvg-convert"]
    .first { FileManager.default.isExecutableFile(atPath: $0) }

@Suite struct ChartTests {
    private func simulation() throws -> Simulation {
        let result = YAMLPolicyParser().parse(Data("""
            policy: 1
            messages: {m: {default: "m"}}
            rules:
              - {id: minimum, when: {platform: ios, app-version: "< 2.4"}, then: require-update, message: m}
              - {id: optional, when: {app-version: "< 2.6"}, then: suggest-update, message: m}
              - {id: news, when: {app-version: "2.6"}, then: notify, message: m}
            """.utf8))
        let policy = try #require(result.usablePolicy)
        let population = Population.read(csv: Data("""
            platform,app-version,users
            ios,2.3,400
            ios,2.5,1000
            ios,2.6,300
            ios,2.10,2000
            android,2.3,500

            """.utf8)).population
        return Simulation(policy: policy, population: population, now: Date(timeIntervalSince1970: 1_795_219_200))
    }

    @Test func eachVersionIsABarAsTallAsItsUsersSplitByOutcome() throws {
        let svg = try simulation().svg(title: "policy & <friends>")
        let collector = BarCollector()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = collector
        #expect(parser.parse(), "the chart is well-formed XML: \(String(describing: parser.parserError))")
        #expect(collector.bars.count == 5)
        // Heights are proportional to users: 2.10's 2,000 users against 2.3's 400.
        let byTitle = Dictionary(uniqueKeysWithValues: collector.bars.map { ($0.title.components(separatedBy: ":")[0], $0) })
        let tallest = try #require(byTitle["ios 2.10"]).heights.reduce(0, +)
        let small = try #require(byTitle["ios 2.3"]).heights.reduce(0, +)
        #expect(abs(tallest / small - 5) < 0.01)
        #expect(byTitle["ios 2.3"]?.colors == ["#e8710a"])                 // update required
        #expect(byTitle["ios 2.5"]?.colors == ["#f9ab00"])                 // update suggested
        #expect(byTitle["ios 2.6"]?.colors == ["#4285f4"])                 // notified
        #expect(byTitle["ios 2.10"]?.colors == ["#c4c7c5"])                // untouched
        #expect(byTitle["android 2.3"]?.colors == ["#f9ab00"])
        #expect(byTitle["android 2.3"]?.title.contains("update suggested: 500 (100.0%)") == true)
        #expect(svg.contains("policy &amp; &lt;friends&gt;"))
    }

    @Test(.enabled(if: rsvgConvert != nil, "rsvg-convert is not installed (Debian: librsvg2-bin); .ci/run installs it"))
    func theChartRendersToPNG() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chart-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let svgFile = folder.appendingPathComponent("chart.svg")
        let pngFile = folder.appendingPathComponent("chart.png")
        try Data(try simulation().svg(title: "chart").utf8).write(to: svgFile)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: rsvgConvert!)
        process.arguments = [svgFile.path, "-o", pngFile.path]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(message)")
        let png = try Data(contentsOf: pngFile)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(png.count > 5_000, "a chart, not an empty image")
    }
}
