#!/usr/bin/env bash
# Times policy-lint, `launch-policy eval` and `launch-policy explain` on files made to cost time or memory
# (generate-hostile.py), each within the reader's limits, and `launch-policy simulate` of the example rollout policy on
# the populations (*.csv) among them, policy-lint over a folder of copies of one of them, and `policy-lint --fix` on
# that folder and on a copy of the file with the most fix-its; fails when one takes more than LIMIT_SECONDS or
# LIMIT_MB of resident memory, or crashes.
# Each runs with 1 MiB of stack, what an iOS app's main thread has, so that deep recursion shows as it would there.
#
#   bash Benchmarks/hostile.sh [LIMIT_SECONDS] [LIMIT_MB]      (default 20 s and 512 MB)
set -euo pipefail
benchmarks="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$benchmarks")"
seconds="${1:-20}"
megabytes="${2:-512}"

bash "$root/scripts/setup.sh"
folder="$benchmarks/Inputs/hostile"
python3 "$benchmarks/generate-hostile.py" "$folder"
swift build -c release --package-path "$root" --product policy-lint >&2
swift build -c release --package-path "$root" --product launch-policy >&2
bin="$root/.build/release"
output="$(mktemp)"
timing="$(mktemp)"
fixing="$(mktemp -d)"
trap 'rm -rf "$output" "$timing" "$fixing"' EXIT

failed=0
# Runs one command, prints its row and checks it against the limits: measure NAME BYTES COMMAND TOOL ARGUMENTS...
measure() {
    local name="$1" bytes="$2" command="$3"
    shift 3
    # GNU time writes elapsed seconds and peak resident KB to its own file; the tool's exit status is kept.
    local status=0 elapsed kilobytes summary
    (ulimit -s 1024 && exec /usr/bin/time -o "$timing" -f '%e %M' timeout "$((seconds * 3))" "$@") \
        > "$output" 2>&1 || status=$?
    read -r elapsed kilobytes < <(tail -1 "$timing")
    summary="$(grep -E '^checked ' "$output" | tail -1 || true)"
    [ -n "$summary" ] || summary="$(grep -cE ': (error|warning): ' "$output" || true) errors and warnings"
    printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$name" "$bytes" "$command" "$elapsed" \
        "$((kilobytes / 1024))" "$status" "$summary"
    if ! awk -v e="$elapsed" -v k="$kilobytes" -v s="$seconds" -v m="$megabytes" \
        'BEGIN { exit !(e <= s && k <= m * 1024) }'
    then
        echo "over the limit ($seconds s, $megabytes MB): $command $name" >&2
        failed=1
    fi
    # The tools exit 0, 1 or 2 on any file; more is a usage error (64), a timeout (124) or a signal (128 and up).
    if [ "$status" -gt 2 ]; then
        echo "exit $status, not a finding's 0, 1 or 2 (a crash, a timeout or a usage error): $command $name" >&2
        failed=1
    fi
}

printf '| file | bytes | command | seconds | peak MB | exit | diagnostics |\n'
printf '| --- | ---: | --- | ---: | ---: | ---: | --- |\n'
for file in "$folder"/*; do
    name="$(basename "$file")"
    case "$name" in
        *.csv) commands=(simulate) ;;
        *) commands=(lint eval explain) ;;
    esac
    for command in "${commands[@]}"; do
        case "$command" in
            lint) run=("$bin/policy-lint" --now 2026-11-22T00:00:00Z "$file") ;;
            eval) run=("$bin/launch-policy" eval "$file" --platform ios --app-version 1.0 --locale ja) ;;
            explain) run=("$bin/launch-policy" explain "$file") ;;
            simulate) run=("$bin/launch-policy" simulate "$root/policies/staged-rollout.yaml" --population "$file") ;;
        esac
        measure "$name" "$(wc -c < "$file")" "$command" "${run[@]}"
    done
done

# Many files that each make a large report: policy-lint prints each report once it and those before it are made, so
# that its memory does not grow with the number of files. 12 copies of one, more than the 8 reports two threads may
# hold waiting, took 1.8 GB when it held every report.
copies="$benchmarks/Inputs/hostile-copies"
rm -rf "$copies"
mkdir -p "$copies"
for copy in $(seq 1 12); do cp "$folder/many-exclusions.yaml" "$copies/many-exclusions-$copy.yaml"; done
measure "12 × many-exclusions.yaml" "$(cat "$copies"/*.yaml | wc -c)" "lint (a folder)" \
    "$bin/policy-lint" --now 2026-11-22T00:00:00Z "$copies"
# The same with --fix, which prints its reports as it makes them too (it held them all: 730 MB); nothing is written.
measure "12 × many-exclusions.yaml" "$(cat "$copies"/*.yaml | wc -c)" "fix (a folder)" \
    "$bin/policy-lint" --fix --now 2026-11-22T00:00:00Z "$copies"
# --fix on a copy of a file with 17,000 fix-its, more than a report holds.
cp "$folder/many-fixes.yaml" "$fixing/"
measure "many-fixes.yaml" "$(wc -c < "$folder/many-fixes.yaml")" "fix" \
    "$bin/policy-lint" --fix --now 2026-11-22T00:00:00Z "$fixing/many-fixes.yaml"
exit "$failed"
