// Prints the SHA-256 digest, worked out by launchpolicy_sha256_compress_hardware (Sources/CSHA256), of each message
// check.sh asks for, one line each: the length, a space, the digest in hex. The messages are made from their length
// alone. Exits 2, printing nothing, when launchpolicy_sha256_hardware() says this processor cannot run the block
// function. `digests --message LENGTH` writes the message itself instead, which check.sh hands to sha256sum.
#include "CSHA256.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// The message of `length` bytes, in memory the caller frees: byte i is (i * 131 + length * 7) mod 251.
static uint8_t *message_of(size_t length) {
    uint8_t *message = malloc(length + 1);
    if (message == NULL) exit(1);
    for (size_t index = 0; index < length; index++) message[index] = (uint8_t)((index * 131 + length * 7) % 251);
    return message;
}

/// FIPS 180-4's padding around the message, then the hardware block function over the whole of it.
static void digest(const uint8_t *message, size_t length, uint8_t out[32]) {
    uint32_t state[8] = {
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    const size_t padded = (length + 9 + 63) / 64 * 64;
    uint8_t *blocks = calloc(padded, 1);
    if (blocks == NULL) exit(1);
    memcpy(blocks, message, length);
    blocks[length] = 0x80;
    const uint64_t bits = (uint64_t)length * 8;
    for (int index = 0; index < 8; index++) blocks[padded - 1 - index] = (uint8_t)(bits >> (index * 8));
    launchpolicy_sha256_compress_hardware(state, blocks, padded / 64);
    free(blocks);
    for (int index = 0; index < 32; index++) out[index] = (uint8_t)(state[index / 4] >> (24 - index % 4 * 8));
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "--message") == 0) {
        const size_t length = strtoul(argv[2], NULL, 10);
        uint8_t *message = message_of(length);
        const int written = fwrite(message, 1, length, stdout) == length;
        free(message);
        return written ? 0 : 1;
    }
    if (!launchpolicy_sha256_hardware()) return 2;
    for (int argument = 1; argument < argc; argument++) {
        const size_t length = strtoul(argv[argument], NULL, 10);
        uint8_t *message = message_of(length), out[32];
        digest(message, length, out);
        free(message);
        printf("%zu ", length);
        for (int index = 0; index < 32; index++) printf("%02x", out[index]);
        printf("\n");
    }
    return 0;
}
