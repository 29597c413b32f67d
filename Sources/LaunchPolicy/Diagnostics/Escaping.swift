extension String {
    /// Appends `text` with each Unicode scalar that `replacement` gives text for replaced by that text: the escapes
    /// of GitHub's workflow commands, and of the simulation's SVG and CSV.
    ///
    /// The runs between replacements are appended whole, and an ASCII byte is its own scalar, read without decoding.
    /// Appending scalar by scalar (`unicodeScalars.append`) cost about 460 instructions a scalar, and policy-lint
    /// writes megabytes this way over a large repository.
    mutating func append(_ text: String, replacing replacement: (Unicode.Scalar) -> String?) {
        let utf8 = text.utf8
        var runStart = utf8.startIndex
        var index = runStart
        while index < utf8.endIndex {
            let start = index
            let scalar: Unicode.Scalar
            let byte = utf8[index]
            if byte < 0x80 {
                scalar = Unicode.Scalar(byte)
                utf8.formIndex(after: &index)
            } else {
                scalar = text.unicodeScalars[index]
                text.unicodeScalars.formIndex(after: &index)
            }
            if let replaced = replacement(scalar) {
                append(contentsOf: text[runStart..<start])
                append(replaced)
                runStart = index
            }
        }
        append(contentsOf: text[runStart...])
    }
}
