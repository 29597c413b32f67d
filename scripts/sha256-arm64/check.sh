#!/usr/bin/env bash
# Checks Sources/CSHA256's block function for arm64 (ARMv8's SHA-256 instructions) on this machine, which need not be
# an ARM one: digests.c and the C target are compiled for arm64 Linux, with GCC and, when it is here, Clang, and run
# under QEMU's emulation of an ARMv8 processor; every digest is compared with sha256sum's. The run-time detection is
# also asked about processors without the instructions, which QEMU cannot emulate, through hwcap.c. The package's
# own test (RolloutTests.theProcessorsBlockFunctionGivesTheSameDigests) holds the same function to the Swift one, but
# only on an ARM machine; this is the check that runs where CI does.
#
# On Debian it installs what it lacks (the cross compiler and C library, QEMU's user-mode emulator) with apt-get.
# Exits 0 when every digest matches and the detection answers as it should, 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/../.."

qemu=$(command -v qemu-aarch64 || command -v qemu-aarch64-static || true)
if ! command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || [ -z "$qemu" ]; then
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "sha256-arm64: needs aarch64-linux-gnu-gcc and qemu-aarch64, and cannot install them here" >&2
        exit 1
    fi
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    echo "sha256-arm64: installing gcc-aarch64-linux-gnu, libc6-dev-arm64-cross and qemu-user with apt-get" >&2
    $sudo apt-get update
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends \
        gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user
    qemu=$(command -v qemu-aarch64)
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sources=(-I Sources/CSHA256/include Sources/CSHA256/SHA256Hardware.c scripts/sha256-arm64/digests.c)

# Every length from 0 to 320 bytes puts the padding at every place in a block and runs up to six blocks; then some
# longer messages.
lengths=$(seq 0 320; echo 1000 4099 65536)

# Three builds: GCC's and Clang's, where the block function asks for the SHA instructions itself and the processor
# is asked at run time whether it has them; and Clang's for processors that all have them, as Apple's builds are.
# Each of the first two is also built with hwcap.c standing in for getauxval, to ask the detection about processors
# without the instructions (below).
builds=("gcc")
asking=("gcc")
stand_in=(scripts/sha256-arm64/hwcap.c -Wl,--wrap=getauxval)
aarch64-linux-gnu-gcc -O2 -static -Wall -Wextra -Werror "${sources[@]}" -o "$work/digests-gcc"
aarch64-linux-gnu-gcc -O2 -static -Wall -Wextra -Werror "${sources[@]}" "${stand_in[@]}" -o "$work/asking-gcc"
if command -v clang >/dev/null 2>&1 && command -v ld.lld >/dev/null 2>&1; then
    builds+=("clang" "clang-for-every-processor")
    asking+=("clang")
    clang --target=aarch64-linux-gnu -O2 -static -fuse-ld=lld -Wall -Wextra -Werror "${sources[@]}" \
        -o "$work/digests-clang"
    clang --target=aarch64-linux-gnu -O2 -static -fuse-ld=lld -Wall -Wextra -Werror "${sources[@]}" \
        "${stand_in[@]}" -o "$work/asking-clang"
    clang --target=aarch64-linux-gnu -march=armv8-a+crypto -O2 -static -fuse-ld=lld -Wall -Wextra -Werror \
        "${sources[@]}" -o "$work/digests-clang-for-every-processor"
else
    echo "sha256-arm64: no clang and ld.lld here, so only GCC's build is checked" >&2
fi

# What each digest must be: sha256sum's of the same messages, which the GCC build writes out.
for length in $lengths; do
    echo "$length $("$qemu" "$work/digests-gcc" --message "$length" | sha256sum | cut -d ' ' -f 1)"
done > "$work/expected"

status=0
for build in "${builds[@]}"; do
    for processor in max cortex-a53; do
        what="the $build build, on an emulated $processor"
        set +e
        "$qemu" -cpu "$processor" "$work/digests-$build" $lengths > "$work/actual"
        code=$?
        set -e
        if [ "$code" -eq 2 ]; then
            echo "sha256-arm64: $what: says it has no SHA instructions" >&2
            status=1
        elif [ "$code" -ne 0 ]; then
            echo "sha256-arm64: $what: exit $code" >&2
            status=1
        elif ! diff "$work/expected" "$work/actual" > "$work/diff"; then
            echo "sha256-arm64: $what: wrong digests" >&2
            head -20 "$work/diff" >&2
            status=1
        else
            echo "sha256-arm64: $what: $(wc -l < "$work/actual") digests match"
        fi
    done
done

# The detection, asked about processors QEMU cannot emulate. The kernel's capabilities with SHA2's bit (HWCAP_SHA2,
# bit 6) cleared must say no: digests exits 2, where the package runs the Swift block function. With every bit
# cleared but that one, yes, and the digests must still match.
for build in "${asking[@]}"; do
    set +e
    DIGESTS_HWCAP_CLEAR=0x40 "$qemu" -cpu max "$work/asking-$build" 0 > /dev/null
    without=$?
    DIGESTS_HWCAP_ONLY=0x40 "$qemu" -cpu max "$work/asking-$build" $lengths > "$work/actual"
    only=$?
    set -e
    if [ "$without" -ne 2 ]; then
        echo "sha256-arm64: the $build build, told the processor lacks SHA2: exit $without, not 2 (no instructions)" >&2
        status=1
    else
        echo "sha256-arm64: the $build build, told the processor lacks SHA2: says it has no SHA instructions"
    fi
    if [ "$only" -ne 0 ] || ! diff -q "$work/expected" "$work/actual" > /dev/null; then
        echo "sha256-arm64: the $build build, told the processor has SHA2 alone: exit $only, or wrong digests" >&2
        status=1
    else
        matched=$(wc -l < "$work/actual")
        echo "sha256-arm64: the $build build, told the processor has SHA2 alone: $matched digests match"
    fi
done
exit $status
