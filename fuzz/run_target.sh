#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs one libFuzzer target: replays the seed corpus, then fuzzes for SECONDS
# on a fresh working copy of it. Exits non-zero on any finding (libFuzzer
# writes the input to FINDINGS). SECONDS=0 only replays the corpus.
# Usage: run_target.sh TARGET SECONDS WORKDIR SEEDDIR FINDINGS
set -euo pipefail
target=$1 seconds=$2 work=$3 seeds=$4 findings=$5
rm -rf "$work"
mkdir -p "$work" "$findings"
if [[ ! -d "$seeds" ]]; then
  echo "run_target: no seed corpus at $seeds (run sealwire_fuzz_seeds first)" >&2
  exit 1
fi
cp "$seeds"/* "$work"/
common=(-artifact_prefix="$findings" -rss_limit_mb=4096 -timeout=30 -print_final_stats=1)
echo "== replaying $(ls "$seeds" | wc -l) seeds"
"$target" "${common[@]}" -runs=0 "$work"
if [[ "$seconds" -gt 0 ]]; then
  echo "== fuzzing for ${seconds}s"
  "$target" "${common[@]}" -max_total_time="$seconds" "$work"
fi
