import CSHA256

/// SHA-256 (FIPS 180-4), for the rollout bucket. Written out here because Foundation on Linux has no digest and the
/// library takes no dependency for one function; the standard vectors check it in the tests.
///
/// Blocks go through the processor's SHA instructions where it has them, on x86-64 and arm64 (the C target
/// `CSHA256`, as Swift cannot reach them): about 200 instructions a block against about 3,600 here, and three
/// blocks were a sixth of an evaluation that decides every rule of the 48-rule benchmark policy. Everywhere else the
/// block function below does the work, and the tests hold the two to the same digests (`scripts/sha256-arm64`
/// checks the arm64 function on an emulated processor where no ARM machine is at hand).
enum SHA256 {
    /// FIPS 180-4's 64 round constants, kept with the C block function (CSHA256), which reads them too.
    private static var roundConstants: UnsafeBufferPointer<UInt32> {
        UnsafeBufferPointer(start: launchpolicy_sha256_round_constants(), count: 64)
    }

    /// The eight 32-bit words of a digest, before they are written out as bytes.
    typealias State = (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)

    /// The 32-byte digest of `message`.
    static func digest(_ message: [UInt8]) -> [UInt8] {
        let state = message.withUnsafeBytes { words(of: $0) }
        return withUnsafeBytes(of: state) { words in
            (0..<32).map { index in
                // Each word big-endian, whatever the machine's order.
                let word = words.load(fromByteOffset: index / 4 * 4, as: UInt32.self)
                return UInt8(truncatingIfNeeded: word >> UInt32(24 - index % 4 * 8))
            }
        }
    }

    /// Whether this processor's SHA instructions compress the blocks: asked of the processor once, the first time.
    static let hardwareCompresses = launchpolicy_sha256_hardware() != 0

    /// The digest of `message` as its eight words, computed without allocating: the rollout bucket needs only the
    /// first two, at launch. `hardware` chooses the block function, for the tests; it is the processor's when it has
    /// one.
    static func words(of message: UnsafeRawBufferPointer, hardware: Bool = hardwareCompresses) -> State {
        var state: State = (0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19)
        // The message, a 1 bit, zeros, and the length in bits as a big-endian 64-bit number, to whole 64-byte blocks;
        // only the last one or two blocks need a copy.
        let wholeBlocks = message.count / 64
        compress(&state, UnsafeRawBufferPointer(rebasing: message[..<(wholeBlocks * 64)]), hardware: hardware)
        let tail = message.count - wholeBlocks * 64
        let tailBlocks = tail + 9 <= 64 ? 1 : 2
        withUnsafeTemporaryAllocation(byteCount: 128, alignment: 8) { buffer in
            buffer.initializeMemory(as: UInt8.self, repeating: 0)
            if tail > 0 {
                buffer.baseAddress!.copyMemory(from: message.baseAddress! + wholeBlocks * 64, byteCount: tail)
            }
            buffer[tail] = 0x80
            let bitLength = UInt64(message.count) &* 8
            let end = tailBlocks * 64
            for index in 0..<8 { buffer[end - 1 - index] = UInt8(truncatingIfNeeded: bitLength >> UInt64(index * 8)) }
            compress(&state, UnsafeRawBufferPointer(rebasing: buffer[..<(tailBlocks * 64)]), hardware: hardware)
        }
        return state
    }

    /// The whole 64-byte blocks of `blocks` into the state, in order, through the processor's block function when
    /// `hardware` is set.
    private static func compress(_ state: inout State, _ blocks: UnsafeRawBufferPointer, hardware: Bool) {
        let count = blocks.count / 64
        guard count > 0 else { return }
        if hardware {
            withUnsafeMutablePointer(to: &state) { tuple in
                tuple.withMemoryRebound(to: UInt32.self, capacity: 8) { words in
                    launchpolicy_sha256_compress_hardware(
                        words, blocks.baseAddress!.assumingMemoryBound(to: UInt8.self), count)
                }
            }
            return
        }
        for block in 0..<count {
            compress(&state, UnsafeRawBufferPointer(rebasing: blocks[block * 64..<block * 64 + 64]))
        }
    }

    /// One 64-byte block into the state.
    ///
    /// The whole message schedule first (64 words on the stack), then the rounds, eight per pass, each naming the
    /// working variables in the order that round sees them instead of moving them along. Working the schedule out as
    /// the rounds reached it, in a ring of 16 words, cost a branch and index masking per round and kept more values
    /// alive across the rounds: about 4,100 instructions a block against about 3,600 now.
    private static func compress(_ state: inout State, _ block: UnsafeRawBufferPointer) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { words in
            for index in 0..<16 {
                words[index] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self))
            }
            for index in 16..<64 {
                let early = words[index - 15], late = words[index - 2]
                let s0 = rotate(early, 7) ^ rotate(early, 18) ^ (early &>> 3)
                let s1 = rotate(late, 17) ^ rotate(late, 19) ^ (late &>> 10)
                words[index] = words[index - 16] &+ s0 &+ words[index - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, h) = state
            let constants = roundConstants
            for start in stride(from: 0, to: 64, by: 8) {
                round(a, b, c, &d, e, f, g, &h, constants[start] &+ words[start])
                round(h, a, b, &c, d, e, f, &g, constants[start + 1] &+ words[start + 1])
                round(g, h, a, &b, c, d, e, &f, constants[start + 2] &+ words[start + 2])
                round(f, g, h, &a, b, c, d, &e, constants[start + 3] &+ words[start + 3])
                round(e, f, g, &h, a, b, c, &d, constants[start + 4] &+ words[start + 4])
                round(d, e, f, &g, h, a, b, &c, constants[start + 5] &+ words[start + 5])
                round(c, d, e, &f, g, h, a, &b, constants[start + 6] &+ words[start + 6])
                round(b, c, d, &e, f, g, h, &a, constants[start + 7] &+ words[start + 7])
            }
            state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e, state.5 &+ f,
                state.6 &+ g, state.7 &+ h)
        }
    }

    /// One round: `d` and `h` are the two variables it changes; `input` is the round constant plus the word.
    @inline(__always)
    private static func round(
        _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32, _ e: UInt32, _ f: UInt32, _ g: UInt32,
        _ h: inout UInt32, _ input: UInt32
    ) {
        let sum1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)
        let choose = g ^ (e & (f ^ g))
        let temporary1 = h &+ sum1 &+ choose &+ input
        let sum0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)
        let majority = (a & b) | (c & (a | b))
        d = d &+ temporary1
        h = temporary1 &+ sum0 &+ majority
    }

    /// A word of the digest as 8 lowercase hexadecimal digits: its four bytes in order. Eight ASCII bytes fit a
    /// string's inline storage, so this allocates nothing.
    static func hex(_ word: UInt32) -> String {
        String(unsafeUninitializedCapacity: 8) { buffer in
            for index in 0..<8 {
                let digit = UInt8(truncatingIfNeeded: word >> UInt32(28 - index * 4) & 0xf)
                buffer[index] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10
            }
            return 8
        }
    }

    /// Masking shifts, which the compiler turns into one rotate instruction; `>>` and `<<` check for shifts past the
    /// width first.
    @inline(__always)
    private static func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 { value &>> count | value &<< (32 &- count) }
}
