#!/usr/bin/env bash
# Builds the fuzz target with libFuzzer and AddressSanitizer and runs it for a given time.
# (--sanitize=fuzzer makes SwiftPM link libFuzzer's main in place of the target's; -sanitize=fuzzer,address in one
# flag after it, because swiftc keeps only the last -sanitize= it is given and would build without coverage.)
#
#   bash Fuzz/run.sh [SECONDS] [extra libFuzzer options…]      (default 60 s)
#
# Seeds: the example policies, the LaunchGate/Gandalf configs, the yaml-test-suite inputs ($LAUNCHPOLICY_CONFORMANCE
# or ../shared/conformance, when present), Fuzz/regressions/ and Fuzz/seeds/ (a launch history, a memory file, a
# delivery cache signed with the key in signing-key.txt, that key, a policy holding NEL, LS and PS, and one whose
# literal block scalar starts with a tab).
# The corpus grows in fuzz-out/corpus across runs.
# A crash, leak, timeout (10 s) or out-of-memory (2 GiB) is written to fuzz-out/ as crash-*, leak-*, timeout-* or
# oom-*, and the script exits non-zero. Replay one with: Fuzz/.build-fuzz/release/PolicyFuzzer fuzz-out/crash-…
set -euo pipefail
fuzz="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$fuzz")"
seconds="${1:-60}"
shift || true

bash "$root/scripts/setup.sh"
swift build -c release --package-path "$fuzz" --scratch-path "$fuzz/.build-fuzz" \
    --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address --product PolicyFuzzer
binary="$fuzz/.build-fuzz/release/PolicyFuzzer"

out="$root/fuzz-out"
seeds="$out/seeds"
mkdir -p "$out/corpus" "$seeds"
find "$root/policies" -type f \( -name '*.yaml' -o -name '*.yml' -o -name '*.json' \) -exec cp {} "$seeds/" \;
find "$fuzz/regressions" -type f ! -name README.md -exec cp {} "$seeds/" \;
find "$fuzz/seeds" -type f -exec cp {} "$seeds/" \;
conformance="${LAUNCHPOLICY_CONFORMANCE:-$(dirname "$root")/shared/conformance}"
if [ -d "$conformance/yaml-test-suite" ]; then
    for input in "$conformance"/yaml-test-suite/*/in.yaml "$conformance"/yaml-test-suite/*/*/in.yaml; do
        [ -f "$input" ] || continue
        name="${input#"$conformance/yaml-test-suite/"}"
        cp "$input" "$seeds/yts-${name//\//-}"
    done
else
    echo "fuzz: no yaml-test-suite at $conformance; seeding from policies/ only" >&2
fi

cd "$out"
# Each input is also written as a launch history and a memory file, which the library writes back with an `fsync`:
# in a folder on tmpfs, where that costs nothing, the fuzzer runs about 1.8 times as many inputs a second.
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
    TMPDIR="$(mktemp -d /dev/shm/policy-fuzz.XXXXXX)"
    export TMPDIR
    trap 'rm -rf "$TMPDIR"' EXIT
fi
# A finding is reported by libFuzzer and AddressSanitizer; Swift's own backtracer, on by default, spent minutes
# symbolicating the 40 MB binary before the report of a failed precondition came out.
export SWIFT_BACKTRACE=enable=no
# 1 MiB of stack, what an iOS app's main thread has: recursion that 8 MiB hides overflows there (a chain of aliases
# nesting `not` 2,200 levels did, before the reader counted an alias's depth).
ulimit -s 1024
# -use_value_profile guides past comparisons of keys and versions; -rss_limit_mb holds the reader's memory promise.
"$binary" "$out/corpus" "$seeds" \
    -dict="$fuzz/policy.dict" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
    -use_value_profile=1 -print_final_stats=1 -artifact_prefix="$out/" "$@"
