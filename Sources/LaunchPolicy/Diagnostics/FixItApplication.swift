extension FixIt {
    /// `text` with `fixIts` applied, and the fix-its that were, in the order of the text.
    ///
    /// Fix-its are placed by byte offset, so they apply to the bytes the diagnostics were made from. Left out:
    /// - a fix-it that overlaps one earlier in the text (the next pass, on the text as fixed, finds what is still
    ///   wrong there); two that insert at one place are one that overlaps, and so is the same fix-it a second time
    ///   (a value reached through several aliases is reported at each, with one fix);
    /// - one that would change nothing, so that a fix-it that cannot resolve its diagnostic is not counted as
    ///   applied at every pass;
    /// - one whose range is not within `text` or starts or ends inside a character.
    public static func apply(_ fixIts: [FixIt], to text: [UInt8]) -> (text: [UInt8], applied: [FixIt]) {
        func isBoundary(_ offset: Int) -> Bool { offset == text.count || !text[offset].isUTF8Continuation }
        let ordered = fixIts.enumerated().sorted { left, right in
            (left.element.range.start.offset, left.element.range.end.offset, left.offset)
                < (right.element.range.start.offset, right.element.range.end.offset, right.offset)
        }
        var result: [UInt8] = []
        result.reserveCapacity(text.count)
        var applied: [FixIt] = []
        var copied = 0
        for (_, fixIt) in ordered {
            let start = fixIt.range.start.offset, end = fixIt.range.end.offset
            guard start <= end, end <= text.count, isBoundary(start), isBoundary(end) else { continue }
            if let last = applied.last, start < copied || (start == copied && last.range.start.offset == start) {
                continue
            }
            let replacement = Array(fixIt.replacement.utf8)
            guard !text[start..<end].elementsEqual(replacement) else { continue }
            result += text[copied..<start]
            result += replacement
            copied = end
            applied.append(fixIt)
        }
        guard !applied.isEmpty else { return (text, []) }
        result += text[copied...]
        return (result, applied)
    }
}
