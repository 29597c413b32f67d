// SHA-256 blocks through the processor's SHA instructions: the x86-64 SHA extensions (SHA256RNDS2, SHA256MSG1,
// SHA256MSG2) or ARMv8's (SHA256H, SHA256H2, SHA256SU0, SHA256SU1). See include/CSHA256.h.
//
// Both work out the message schedule four words at a time, as the rounds need it, and take the round constants
// already added to the message words; the block function that runs them (at the end) is the same for both. What
// differs is written for each processor: whether it has the instructions, four message words read and the next four
// worked out, four rounds, and the working variables' two registers. x86-64's SHA256RNDS2 does two rounds and keeps
// the eight working variables as A B E F and C D G H (the first named in the highest lane), so the state is
// rearranged into that form at the start and back at the end. ARMv8's SHA256H and SHA256H2 do four rounds between
// them, on a b c d and e f g h in order.
#include "CSHA256.h"

// FIPS 180-4's 64 round constants, for both block functions: this one reads them here, the Swift one through
// launchpolicy_sha256_round_constants().
static const uint32_t round_constants[64] __attribute__((aligned(16))) = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

const uint32_t *launchpolicy_sha256_round_constants(void) { return round_constants; }

#if (defined(__x86_64__) || defined(_M_X64)) && (defined(__clang__) || defined(__GNUC__))
#include <cpuid.h>
#include <immintrin.h>

int launchpolicy_sha256_hardware(void) {
    unsigned int eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    const int ssse3 = (ecx >> 9) & 1, sse41 = (ecx >> 19) & 1;
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return 0;
    const int sha = (ebx >> 29) & 1;
    return ssse3 && sse41 && sha;
}

#define LAUNCHPOLICY_SHA_FUNCTION __attribute__((target("sha,sse4.1,ssse3")))
#define LAUNCHPOLICY_SHA_TARGET LAUNCHPOLICY_SHA_FUNCTION __attribute__((always_inline))
/// Four 32-bit words.
typedef __m128i sha_words;

/// The four big-endian message words at `bytes`, each word's bytes reversed.
static inline LAUNCHPOLICY_SHA_TARGET sha_words message_words(const uint8_t *bytes) {
    const __m128i byte_order = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
    return _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)bytes), byte_order);
}

/// The next four message words, W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16] for four t at once, from the four
/// groups before them (`back4` the oldest): MSG1 adds σ0 of the next word to each word of `back4`, the middle term
/// is W[t-7] to W[t-4], and MSG2 adds σ1, working out the last two words from the first two.
static inline LAUNCHPOLICY_SHA_TARGET sha_words next_words(
    sha_words back4, sha_words back3, sha_words back2, sha_words back1) {
    const __m128i sum = _mm_add_epi32(_mm_sha256msg1_epu32(back4, back3), _mm_alignr_epi8(back1, back2, 4));
    return _mm_sha256msg2_epu32(sum, back1);
}

/// Four rounds, those of the message words `words` (group `group` of sixteen), on A B E F and C D G H.
static inline LAUNCHPOLICY_SHA_TARGET void four_rounds(sha_words *abef, sha_words *cdgh, sha_words words, int group) {
    __m128i input = _mm_add_epi32(words, _mm_load_si128((const __m128i *)(round_constants + 4 * group)));
    *cdgh = _mm_sha256rnds2_epu32(*cdgh, *abef, input);   // two rounds: cdgh now holds A B E F
    input = _mm_shuffle_epi32(input, 0x0e);              // the upper two words into the low half
    *abef = _mm_sha256rnds2_epu32(*abef, *cdgh, input);   // two more: back in their registers
}

static inline LAUNCHPOLICY_SHA_TARGET sha_words add_words(sha_words left, sha_words right) {
    return _mm_add_epi32(left, right);
}

/// The state's eight words as the instructions keep them: A B E F and C D G H.
static inline LAUNCHPOLICY_SHA_TARGET void load_state(const uint32_t *state, sha_words *abef, sha_words *cdgh) {
    const __m128i abcd = _mm_loadu_si128((const __m128i *)state);         // lanes a b c d
    const __m128i efgh = _mm_loadu_si128((const __m128i *)(state + 4));   // lanes e f g h
    const __m128i badc = _mm_shuffle_epi32(abcd, 0xb1);                   // b a d c
    const __m128i hgfe = _mm_shuffle_epi32(efgh, 0x1b);                   // h g f e
    *abef = _mm_alignr_epi8(badc, hgfe, 8);                               // f e b a: A B E F, A highest
    *cdgh = _mm_blend_epi16(hgfe, badc, 0xf0);                            // h g d c: C D G H, C highest
}

/// The state back in order, a to h.
static inline LAUNCHPOLICY_SHA_TARGET void store_state(uint32_t *state, sha_words abef, sha_words cdgh) {
    const __m128i a_b_e_f = _mm_shuffle_epi32(abef, 0x1b);
    const __m128i g_h_c_d = _mm_shuffle_epi32(cdgh, 0xb1);
    _mm_storeu_si128((__m128i *)state, _mm_blend_epi16(a_b_e_f, g_h_c_d, 0xf0));      // a b c d
    _mm_storeu_si128((__m128i *)(state + 4), _mm_alignr_epi8(g_h_c_d, a_b_e_f, 8));   // e f g h
}

#elif defined(__aarch64__) && (defined(__ARM_FEATURE_SHA2) || (defined(__clang__) && __clang_major__ >= 16) || \
    (defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 9))
// Compilers that declare the SHA-256 intrinsics for a function that asks for them, or builds whose every processor
// has them (every 64-bit Apple one); any other build of arm64 takes the stubs at the end.
#include <arm_neon.h>

#if defined(__ARM_FEATURE_SHA2)
// The compiler was told that every processor this build runs on has them: every 64-bit Apple processor does.
#define LAUNCHPOLICY_SHA_FUNCTION
int launchpolicy_sha256_hardware(void) { return 1; }
#else
// Clang names the feature `sha2`; GCC (12 at least) declares the intrinsics under `crypto`, which includes it.
#if defined(__clang__)
#define LAUNCHPOLICY_SHA_FUNCTION __attribute__((target("sha2")))
#else
#define LAUNCHPOLICY_SHA_FUNCTION __attribute__((target("+crypto")))
#endif
#if defined(__linux__)
// Linux and Android say so in the hardware capabilities they hand each process.
#include <sys/auxv.h>
#ifndef HWCAP_SHA2
#define HWCAP_SHA2 (1UL << 6)
#endif
int launchpolicy_sha256_hardware(void) { return (getauxval(AT_HWCAP) & HWCAP_SHA2) != 0; }
#else
int launchpolicy_sha256_hardware(void) { return 0; }
#endif
#endif

#define LAUNCHPOLICY_SHA_TARGET LAUNCHPOLICY_SHA_FUNCTION __attribute__((always_inline))
/// Four 32-bit words.
typedef uint32x4_t sha_words;

/// The four big-endian message words at `bytes`, each word's bytes reversed.
static inline LAUNCHPOLICY_SHA_TARGET sha_words message_words(const uint8_t *bytes) {
    return vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(bytes)));
}

/// The next four message words, W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16] for four t at once, from the four
/// groups before them (`back4` the oldest): SU0 adds σ0 of the next word to each word of `back4`, SU1 adds the rest.
static inline LAUNCHPOLICY_SHA_TARGET sha_words next_words(
    sha_words back4, sha_words back3, sha_words back2, sha_words back1) {
    return vsha256su1q_u32(vsha256su0q_u32(back4, back3), back2, back1);
}

/// Four rounds, those of the message words `words` (group `group` of sixteen), on a b c d and e f g h.
static inline LAUNCHPOLICY_SHA_TARGET void four_rounds(sha_words *abcd, sha_words *efgh, sha_words words, int group) {
    const uint32x4_t input = vaddq_u32(words, vld1q_u32(round_constants + 4 * group));
    const uint32x4_t abcd_before = *abcd;
    *abcd = vsha256hq_u32(abcd_before, *efgh, input);
    *efgh = vsha256h2q_u32(*efgh, abcd_before, input);
}

static inline LAUNCHPOLICY_SHA_TARGET sha_words add_words(sha_words left, sha_words right) {
    return vaddq_u32(left, right);
}

/// The state's eight words as the instructions keep them: a b c d and e f g h, in order.
static inline LAUNCHPOLICY_SHA_TARGET void load_state(const uint32_t *state, sha_words *abcd, sha_words *efgh) {
    *abcd = vld1q_u32(state);
    *efgh = vld1q_u32(state + 4);
}

static inline LAUNCHPOLICY_SHA_TARGET void store_state(uint32_t *state, sha_words abcd, sha_words efgh) {
    vst1q_u32(state, abcd);
    vst1q_u32(state + 4, efgh);
}

#endif

#if defined(LAUNCHPOLICY_SHA_TARGET)

/// The block function, for either processor: `first` and `second` are the two registers of working variables, in
/// the processor's arrangement.
LAUNCHPOLICY_SHA_FUNCTION
void launchpolicy_sha256_compress_hardware(uint32_t *state, const uint8_t *blocks, size_t count) {
    sha_words first, second;
    load_state(state, &first, &second);
    for (; count > 0; count--, blocks += 64) {
        const sha_words first_before = first, second_before = second;
        // The last four groups of four message words, each group in the variable of its number modulo 4.
        sha_words words0 = message_words(blocks), words1 = message_words(blocks + 16);
        sha_words words2 = message_words(blocks + 32), words3 = message_words(blocks + 48);
        four_rounds(&first, &second, words0, 0);
        four_rounds(&first, &second, words1, 1);
        four_rounds(&first, &second, words2, 2);
        four_rounds(&first, &second, words3, 3);
        for (int group = 4; group < 16; group += 4) {
            words0 = next_words(words0, words1, words2, words3);
            four_rounds(&first, &second, words0, group);
            words1 = next_words(words1, words2, words3, words0);
            four_rounds(&first, &second, words1, group + 1);
            words2 = next_words(words2, words3, words0, words1);
            four_rounds(&first, &second, words2, group + 2);
            words3 = next_words(words3, words0, words1, words2);
            four_rounds(&first, &second, words3, group + 3);
        }
        first = add_words(first, first_before);
        second = add_words(second, second_before);
    }
    store_state(state, first, second);
}

#else

int launchpolicy_sha256_hardware(void) { return 0; }

void launchpolicy_sha256_compress_hardware(uint32_t *state, const uint8_t *blocks, size_t count) {
    (void)state;
    (void)blocks;
    (void)count;
}

#endif
