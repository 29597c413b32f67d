#ifndef LAUNCHPOLICY_CSHA256_H
#define LAUNCHPOLICY_CSHA256_H
// SHA-256's block function on the processor's own SHA instructions, where it has them: Swift cannot reach them
// without C. The library's Swift implementation (Evaluation/SHA256.swift) does everything else, and is the one used
// wherever these functions say they cannot help; it reads its round constants here.
#include <stddef.h>
#include <stdint.h>

/// FIPS 180-4's 64 round constants, on every processor: the Swift block function reads them here, so that they are
/// written once.
const uint32_t *launchpolicy_sha256_round_constants(void);

/// 1 when `launchpolicy_sha256_compress_hardware` runs on this processor, 0 otherwise. It is 1 on an x86-64
/// processor with the SHA extensions, SSSE3 and SSE4.1 (asked of the processor itself, with CPUID), and on an arm64
/// one with ARMv8's SHA-256 instructions: every 64-bit Apple processor (the compiler says so), and on Linux and
/// Android one whose kernel lists them among the process's hardware capabilities (`getauxval(AT_HWCAP)`). On any
/// other machine or system, and with a compiler that is not Clang or GCC, it is 0.
int launchpolicy_sha256_hardware(void);

/// Compresses `count` 64-byte blocks at `blocks` into the eight state words at `state` (a, b, …, h, in the machine's
/// byte order), as FIPS 180-4's block function does. Call it only when `launchpolicy_sha256_hardware()` is 1.
void launchpolicy_sha256_compress_hardware(uint32_t *state, const uint8_t *blocks, size_t count);

#endif
