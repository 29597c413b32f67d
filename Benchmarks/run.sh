#!/usr/bin/env bash
# Generates the inputs, builds everything in release mode and prints the report that BENCHMARKS.md records.
#
#   bash Benchmarks/run.sh [SAMPLES]        (default 21 samples a measure)
set -euo pipefail
benchmarks="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$benchmarks")"
samples="${1:-21}"

bash "$root/scripts/setup.sh"
python3 "$benchmarks/generate-inputs.py" "$benchmarks/Inputs"
swift build -c release --package-path "$root" --product policy-lint >&2
swift build -c release --package-path "$benchmarks" >&2
bin="$benchmarks/.build/release"
"$bin/policy-benchmarks" --inputs "$benchmarks/Inputs" --samples "$samples" \
    --policy-lint "$root/.build/release/policy-lint" --yams "$bin/yams-benchmark"
