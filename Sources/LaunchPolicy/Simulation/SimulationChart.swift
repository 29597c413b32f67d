import Foundation

extension Simulation {
    /// The chart's segments, bottom to top: each user in exactly one, the first that applies.
    public enum ChartSegment: String, CaseIterable, Sendable {
        case blocked
        case updateRequired = "update-required"
        case updateSuggested = "update-suggested"
        /// Notified, presented a screen or granted entitlements, and nothing above.
        case other
        case untouched

        var label: String {
            switch self {
            case .blocked: "blocked"
            case .updateRequired: "update required"
            case .updateSuggested: "update suggested"
            case .other: "notified, presented or granted"
            case .untouched: "untouched"
            }
        }

        var color: String {
            switch self {
            case .blocked: "#b3261e"
            case .updateRequired: "#e8710a"
            case .updateSuggested: "#f9ab00"
            case .other: "#4285f4"
            case .untouched: "#c4c7c5"
            }
        }
    }

    /// A group's users per segment. A gate hides prompts, notices and presentations, so the gated, the prompted and
    /// the untouched are disjoint; `other` is everyone left.
    public static func segments(of tally: Tally) -> [ChartSegment: Int] {
        let gated = tally[.blocked] + tally[.updateRequired]
        let other = tally.users - gated - tally[.updateSuggested] - tally[.untouched]
        return [
            .blocked: tally[.blocked], .updateRequired: tally[.updateRequired], .updateSuggested: tally[.updateSuggested],
            .other: max(0, other), .untouched: tally[.untouched],
        ]
    }

    /// An SVG chart a browser opens: a stacked bar per app version, its height the version's users, split into
    /// blocked, update required, update suggested, other effects and untouched; versions grouped by platform, oldest
    /// first. Hovering a bar shows its numbers.
    public func svg(title: String) -> String {
        let barWidth = 18.0, gap = 6.0, platformGap = 24.0
        let left = 76.0, right = 24.0, top = 92.0, plotHeight = 300.0, bottom = 96.0
        let largest = versions.map(\.tally.users).max() ?? 0
        let step = Self.tickStep(for: largest)
        let scaleTop = max(step, (Double(largest) / step).rounded(.up) * step)
        var x = left
        var bars: [String] = []
        var platformLabels: [String] = []
        var currentPlatform: String?
        var platformStart = x
        func closePlatform() {
            guard let currentPlatform else { return }
            platformLabels.append(##"<text x="\##(Self.number((platformStart + x - gap) / 2))" y="\##(Self.number(top + plotHeight + bottom - 8))" text-anchor="middle" font-weight="bold">\##(Self.escaped(currentPlatform))</text>"##)
        }
        for group in versions {
            if group.platform != currentPlatform {
                if currentPlatform != nil {
                    closePlatform()
                    x += platformGap
                }
                currentPlatform = group.platform
                platformStart = x
            }
            let segments = Self.segments(of: group.tally)
            var y = top + plotHeight
            var rects: [String] = []
            for segment in ChartSegment.allCases {
                let users = segments[segment] ?? 0
                guard users > 0 else { continue }
                let height = Double(users) / scaleTop * plotHeight
                y -= height
                rects.append(##"<rect x="\##(Self.number(x))" y="\##(Self.number(y))" width="\##(Self.number(barWidth))" height="\##(Self.number(height))" fill="\##(segment.color)"/>"##)
            }
            let details = ChartSegment.allCases.compactMap { segment -> String? in
                let users = segments[segment] ?? 0
                guard users > 0 else { return nil }
                return "\(segment.label): \(Self.count(users)) (\(Self.percent(Double(users) / Double(max(1, group.tally.users)))))"
            }
            let name = "\(group.platform) \(group.appVersion ?? "")"
            // One tooltip line per segment; the line breaks are character references, so they are not escaped.
            let tooltip = ([Self.escaped("\(name): \(Self.count(group.tally.users)) users")] + details.map(Self.escaped))
                .joined(separator: "&#10;")
            bars.append("<g><title>\(tooltip)</title>" + rects.joined() + "</g>")
            let labelX = x + barWidth / 2, labelY = top + plotHeight + 10
            bars.append(##"<text x="\##(Self.number(labelX))" y="\##(Self.number(labelY))" transform="rotate(-60 \##(Self.number(labelX)) \##(Self.number(labelY)))" text-anchor="end" dominant-baseline="middle">\##(Self.escaped(group.appVersion ?? ""))</text>"##)
            x += barWidth + gap
        }
        closePlatform()
        let width = max(x - gap + right, 480)
        let height = top + plotHeight + bottom

        var axis: [String] = []
        var tick = 0.0
        while tick <= scaleTop {
            let y = top + plotHeight - tick / scaleTop * plotHeight
            axis.append(##"<line x1="\##(Self.number(left - 4))" y1="\##(Self.number(y))" x2="\##(Self.number(width - right))" y2="\##(Self.number(y))" stroke="#e0e0e0"/>"##)
            axis.append(##"<text x="\##(Self.number(left - 8))" y="\##(Self.number(y))" text-anchor="end" dominant-baseline="middle">\##(Self.count(Int(tick)))</text>"##)
            tick += step
        }
        var legend: [String] = []
        var legendX = left
        for segment in ChartSegment.allCases {
            legend.append(##"<rect x="\##(Self.number(legendX))" y="52" width="12" height="12" fill="\##(segment.color)"/>"##)
            legend.append(##"<text x="\##(Self.number(legendX + 16))" y="62">\##(segment.label)</text>"##)
            legendX += 16 + Double(segment.label.count) * 6.5 + 18
        }
        let subtitle = "\(Self.count(total.users)) users at \(Timestamp.text(now)); bar height: users on that version"
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Self.number(max(width, legendX + right)))" height="\(Self.number(height))" \
            font-family="Helvetica, Arial, sans-serif" font-size="12" fill="#1f1f1f">
            <rect width="100%" height="100%" fill="#ffffff"/>
            <text x="\(Self.number(left))" y="24" font-size="16" font-weight="bold">\(Self.escaped(title))</text>
            <text x="\(Self.number(left))" y="42" fill="#5f5f5f">\(Self.escaped(subtitle))</text>
            \((legend + axis + bars + platformLabels).joined(separator: "\n"))
            <line x1="\(Self.number(left))" y1="\(Self.number(top + plotHeight))" x2="\(Self.number(width - right))" y2="\(Self.number(top + plotHeight))" stroke="#5f5f5f"/>
            </svg>

            """
    }

    /// A round step for about five gridlines up to `largest`: 1, 2 or 5 times a power of ten.
    static func tickStep(for largest: Int) -> Double {
        guard largest > 0 else { return 1 }
        let rough = Double(largest) / 5
        let power = pow(10, (log10(rough)).rounded(.down))
        let step = [1.0, 2.0, 5.0, 10.0].map { $0 * power }.first { $0 >= rough } ?? 10 * power
        return max(1, step.rounded())
    }

    /// A coordinate with at most two decimals.
    static func number(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded.plainText
    }

    /// Text safe inside an XML element or attribute.
    static func escaped(_ text: String) -> String {
        var output = ""
        output.append(text) { scalar in
            switch scalar {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case "\"": "&quot;"
            default: nil
            }
        }
        return output
    }
}
