#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs one libFuzzer target: replays the regression corpus kept in the tree
# (fuzz/corpus/TARGET: inputs that once found something or reach a corner
# the seeds do not), then the generated seed corpus, then fuzzes for SECONDS
# on a fresh working copy of both. Exits non-zero on any finding (libFuzzer
# writes the input to FINDINGS). SECONDS=0 only replays.
# Usage: run_target.sh TARGET SECONDS WORKDIR SEEDDIR FINDINGS REGRESSIONDIR
set -euo pipefail
target=$1 seconds=$2 work=$3 seeds=$4 findings=$5 regression=$6
rm -rf "$work"
mkdir -p "$work" "$findings"
if [[ ! -d "$seeds" ]]; then
  echo "run_target: no seed corpus at $seeds (run sealwire_fuzz_seeds first)" >&2
  exit 1
fi
shopt -s nullglob
kept=("$regression"/*)
if [[ ${#kept[@]} -eq 0 ]]; then
  echo "run_target: no regression corpus at $regression" >&2
  exit 1
fi
common=(-artifact_prefix="$findings" -rss_limit_mb=4096 -timeout=30 -print_final_stats=1)
# Files (not a directory) as arguments: libFuzzer runs each once and stops at
# the first that fails, naming it.
echo "== replaying ${#kept[@]} regression inputs from $regression"
"$target" "${common[@]}" "${kept[@]}"
cp "$seeds"/* "$work"/
cp "${kept[@]}" "$work"/
echo "== replaying the working corpus: $(ls "$work" | wc -l) seeds and regression inputs"
"$target" "${common[@]}" -runs=0 "$work"
if [[ "$seconds" -gt 0 ]]; then
  echo "== fuzzing for ${seconds}s"
  "$target" "${common[@]}" -max_total_time="$seconds" "$work"
fi
