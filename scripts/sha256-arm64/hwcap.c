// Stands in for the C library's getauxval in check.sh's builds that link with -Wl,--wrap=getauxval, so that the
// block function's detection (launchpolicy_sha256_hardware) can be asked about processors QEMU cannot emulate: every
// ARMv8 processor QEMU 7 knows has the SHA-256 instructions. For AT_HWCAP it answers what the kernel gave, with the
// bits of DIGESTS_HWCAP_CLEAR cleared, or with only the bits of DIGESTS_HWCAP_ONLY kept (each a number strtoul
// reads, such as 0x40); with neither set, and for every other type, it answers as the kernel does.
#include <stdlib.h>
#include <sys/auxv.h>

unsigned long __real_getauxval(unsigned long type);

unsigned long __wrap_getauxval(unsigned long type) {
    unsigned long value = __real_getauxval(type);
    if (type != AT_HWCAP) return value;
    const char *clear = getenv("DIGESTS_HWCAP_CLEAR");
    const char *only = getenv("DIGESTS_HWCAP_ONLY");
    if (clear != NULL) value &= ~strtoul(clear, NULL, 0);
    if (only != NULL) value &= strtoul(only, NULL, 0);
    return value;
}
