import LaunchPolicy

/// The text without its `⟦…⟧` marks, and the range they mark: lines broken at LF, CR LF and CR, columns counted in
/// characters (Unicode scalars), a byte order mark at the start counted in none. For tests that write the place they
/// expect in the text itself.
public func unmark(_ marked: String) -> (text: String, range: SourceRange) {
    var text = ""
    var locations: [LaunchPolicy.SourceLocation] = []
    var line = 1
    var column = 1
    var previous: Unicode.Scalar?
    for scalar in marked.unicodeScalars {
        if scalar == "⟦" || scalar == "⟧" {
            locations.append(LaunchPolicy.SourceLocation(line: line, column: column, offset: text.utf8.count))
            continue
        }
        text.unicodeScalars.append(scalar)
        if scalar == "\n" && previous == "\r" {
            // The LF of a CR LF: the CR broke the line.
        } else if scalar == "\n" || scalar == "\r" {
            line += 1
            column = 1
        } else if !(scalar == "\u{FEFF}" && text.unicodeScalars.count == 1) {
            column += 1
        }
        previous = scalar
    }
    precondition(locations.count == 2, "the text marks one range: \(marked.debugDescription)")
    return (text, SourceRange(start: locations[0], end: locations[1]))
}
