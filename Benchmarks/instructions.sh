#!/usr/bin/env bash
# Instructions and allocations per operation, counted by callgrind: unlike wall time, the same on every run of the same
# binaries, so the ratios to the floor do not move with a noisy machine. Run Benchmarks/run.sh first (it builds and
# makes inputs).
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

# Total instructions and allocations (calls to malloc, calloc, realloc and the aligned allocators, libyaml's own
# included) of COUNT operations, as "INSTRUCTIONS ALLOCATIONS"; per operation = (ops(11) - ops(1)) / 10, which
# cancels start-up.
count() {
    local out="$work/callgrind.out"
    valgrind --tool=callgrind --callgrind-out-file="$out" "$@" > /dev/null 2>&1
    python3 - "$out" <<'PY'
import re, sys
names, callee, instructions, allocations = {}, None, 0, 0
allocators = {"malloc", "calloc", "realloc", "posix_memalign", "aligned_alloc", "memalign"}
for line in open(sys.argv[1]):
    if line.startswith("cfn="):
        found = re.match(r"cfn=\((\d+)\)(?: (.*))?", line)
        if found.group(2): names[found.group(1)] = found.group(2).strip()
        callee = names.get(found.group(1))
    elif line.startswith("fn="):
        found = re.match(r"fn=\((\d+)\)(?: (.*))?", line)
        if found and found.group(2): names[found.group(1)] = found.group(2).strip()
    elif line.startswith("calls="):
        if callee in allocators: allocations += int(line.split()[0][6:])
    elif line.startswith("summary:"):
        instructions = int(line.split()[1])
print(instructions, allocations)
PY
}
per_operation() {
    local one eleven
    one=($(count "$@" 1))
    eleven=($(count "$@" 11))
    echo $(( (eleven[0] - one[0]) / 10 )) $(( (eleven[1] - one[1]) / 10 ))
}
# The first operation in a process = ops(1) - ops(0): what an app pays at launch, where it reads and evaluates its
# policy once. It adds what the Swift runtime does once per process for the types the operation uses (building
# generic types' metadata from their mangled names, looking conformances up).
first_operation() {
    local zero one
    zero=($(count "$@" 0))
    one=($(count "$@" 1))
    echo $(( one[0] - zero[0] )) $(( one[1] - zero[1] ))
}

# Every measure that runs on the input does on it what it says it counts (a policy without errors; a gate that stops
# the gated launch and none that stops the other): checked here, in processes of their own, as `profile` runs do not
# check (a check would do the first operation's one-time work).
"$work/policy-benchmarks" check "$input"
"$work/policy-benchmarks" check "$json"

floor=($(per_operation "$work/policy-benchmarks" profile floor "$input"))
printf '| measure | instructions / op | × floor | allocations / op |\n| --- | ---: | ---: | ---: |\n'
# A row from "INSTRUCTIONS ALLOCATIONS".
row() {
    local counts=($2)
    printf '| %s | %s | %s | %s |\n' "$1" "${counts[0]}" "$(python3 -c "print(f'{${counts[0]} / ${floor[0]}:.2f}')")" \
        "${counts[1]}"
}
row "(a) floor: libyaml events, scalars copied" "${floor[*]}"
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
