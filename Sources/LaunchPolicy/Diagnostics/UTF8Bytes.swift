extension UInt8 {
    /// Whether the byte continues a UTF-8 sequence (`10xxxxxx`) rather than starting a scalar. Columns count
    /// scalars, so every stage that turns a byte offset into a column counts the bytes that are not this.
    @inline(__always)
    package var isUTF8Continuation: Bool { self & 0xC0 == 0x80 }
}
