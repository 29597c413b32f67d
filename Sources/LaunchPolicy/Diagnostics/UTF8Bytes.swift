extension UInt8 {
    /// Whether the byte continues a UTF-8 sequence (`10xxxxxx`) rather than starting a scalar. Columns count
    /// scalars, so every stage that turns a byte offset into a column counts the bytes that are not this.
    @inline(__always)
    package var isUTF8Continuation: Bool { self & 0xC0 == 0x80 }

    /// The value of the byte as a hexadecimal digit (`0`–`9`, `a`–`f`, `A`–`F`), or nil: for the escapes JSON and
    /// YAML write code points with (`\u00e9`).
    var hexDigitValue: UInt8? {
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): self - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): self - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): self - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
