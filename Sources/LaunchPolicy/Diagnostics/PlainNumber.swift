extension Double {
    /// The number as messages and reports write it: `10`, `0.5`, `1e+23`, `inf`, with no trailing `.0`. A whole number
    /// an `Int` holds is written as one, any other in Swift's shortest form, so that no value can stop the program: a
    /// whole-number test followed by `Int(_:)` trapped on a duration of `100000000000000000000000d` or a wait of
    /// `.infinity`.
    package var plainText: String {
        Int(exactly: self).map(String.init) ?? String(self)
    }
}
