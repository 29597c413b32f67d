#!/usr/bin/env bash
# Builds the benchmarks and checks, without timing anything, that every measure's input does what the measure says it
# times: on both generated policies and their JSON, each measure of policy-benchmarks (`check FILE`), Yams's compose,
# and policy-lint over the 1,000 files, which must pass. CI runs it, so that a library change that breaks the
# benchmarks' build, or changes what the inputs make the library do (a gate that now stops the launch meant to decide
# every rule), fails there rather than at the next timing. A debug build: nothing here is timed.
#
#   bash Benchmarks/check.sh
set -euo pipefail
benchmarks="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$benchmarks")"

bash "$root/scripts/setup.sh"
python3 "$benchmarks/generate-inputs.py" "$benchmarks/Inputs"
swift build --package-path "$root" --product policy-lint
swift build --package-path "$benchmarks"
bin="$(swift build --package-path "$benchmarks" --show-bin-path)"
lint="$(swift build --package-path "$root" --show-bin-path)/policy-lint"

for policy in policy-48 policy-2000; do
    "$bin/policy-benchmarks" check "$benchmarks/Inputs/$policy.yaml"
    "$bin/policy-benchmarks" check "$benchmarks/Inputs/$policy.json"
    "$bin/yams-benchmark" "$benchmarks/Inputs/$policy.yaml" --profile 1 > /dev/null
done
"$lint" --now 2026-11-20T12:00:00Z "$benchmarks/Inputs/lint-1000" > /dev/null
echo "check.sh: every measure's input does what the measure times"
