#!/usr/bin/env bash
# Instructions per operation, counted by callgrind: unlike wall time, the same on every run of the same binaries, so
# the ratios to the floor do not move with a noisy machine. Run Benchmarks/run.sh first (it builds and makes inputs).
# callgrind's virtual processor has no SHA extensions, so the rollout digests are counted on the Swift block function
# (about 3,600 instructions a block), where a processor that has them runs the C one (CSHA256, about 200).
#
#   bash Benchmarks/instructions.sh [INPUT]      (default Benchmarks/Inputs/policy-48.yaml)
set -euo pipefail
benchmarks="$(cd "$(dirname "$0")" && pwd)"
input="${1:-$benchmarks/Inputs/policy-48.yaml}"
json="${input%.yaml}.json"
bin="$benchmarks/.build/release"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# callgrind runs Swift binaries reliably from a stripped copy.
cp "$bin/policy-benchmarks" "$bin/yams-benchmark" "$work/"
strip "$work/policy-benchmarks" "$work/yams-benchmark"

# Total instructions of COUNT operations; per operation = (ops(11) - ops(1)) / 10, which cancels start-up.
count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | sed -n 's/.*refs: *//p' | tr -d ,
}
per_operation() {
    local one eleven
    one=$(count "$@" 1)
    eleven=$(count "$@" 11)
    echo $(( (eleven - one) / 10 ))
}
# The first operation in a process = ops(1) - ops(0): what an app pays at launch, where it reads and evaluates its
# policy once. It adds what the Swift runtime does once per process for the types the operation uses (building
# generic types' metadata from their mangled names, looking conformances up).
first_operation() {
    local zero one
    zero=$(count "$@" 0)
    one=$(count "$@" 1)
    echo $(( one - zero ))
}

floor=$(per_operation "$work/policy-benchmarks" profile floor "$input")
printf '| measure | instructions / op | × floor |\n| --- | ---: | ---: |\n'
row() { printf '| %s | %s | %s |\n' "$1" "$2" "$(python3 -c "print(f'{$2 / $floor:.2f}')")"; }
row "(a) floor: libyaml events, scalars copied" "$floor"
for name in reader reader+decoder evaluate evaluate-ungated evaluate-explained launch-context record-launch lint; do
    row "$name" "$(per_operation "$work/policy-benchmarks" profile "$name" "$input")"
done
# The first operation of a process, the launch path's as an app runs it once (evaluate's policy and context are made
# before it, so its row is the evaluation's own first cost).
for name in floor reader reader+decoder record-launch launch-context evaluate evaluate-ungated lint; do
    row "$name, the first in a process" "$(first_operation "$work/policy-benchmarks" profile "$name" "$input")"
done
row "yams compose" "$(per_operation "$work/yams-benchmark" "$input" --profile)"
# The floors the Yams process times beside Yams: over the system's libyaml, which the wall-time report compares Yams
# with and which should cost what (a) does, and over Yams's own copy of libyaml, which the report shows beside it.
row "floor in the Yams process (the system's libyaml)" \
    "$(per_operation "$work/yams-benchmark" "$input" --profile-floor)"
row "floor in the Yams process (its copy of libyaml)" \
    "$(per_operation "$work/yams-benchmark" "$input" --own-floor --profile-floor)"
row "JSONSerialization (JSON)" "$(per_operation "$work/policy-benchmarks" profile json-serialization "$json")"
