#!/usr/bin/env bash
# Coverage per entry point of what a fuzzing run kept: splits DIR/corpus and DIR/seeds by
# their first byte (the entry point, tests/fuzz/fuzz_entry_points.cpp) and replays each share
# with -runs=0, printing libFuzzer's edge coverage ("cov") and features ("ft") for it.
# Usage, after ./dev.sh fuzz: tests/fuzz/coverage.sh [DIR]   (default build/sanitize/fuzz)
set -euo pipefail
dir=${1:-build/sanitize/fuzz}
bin=$(dirname "$dir")/fuzz_entry_points
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
letters=(e v c f u s t p h n)
names=(eval validate collective fit curve sweep tradeoff package-cost import-hf import-hf-named)
for f in "$dir"/corpus/* "$dir"/seeds/*; do
  [ -s "$f" ] || continue
  byte=$(head -c1 "$f" | od -An -tu1 | tr -d ' ')
  i=-1
  for k in "${!letters[@]}"; do [ "$(printf '%d' "'${letters[$k]}")" = "$byte" ] && i=$k; done
  [ "$i" -ge 0 ] || i=$((byte % 10))
  mkdir -p "$tmp/$i"
  cp "$f" "$tmp/$i/$(basename "$f")"
done
for i in "${!names[@]}"; do
  [ -d "$tmp/$i" ] || { printf '%-16s no inputs\n' "${names[$i]}"; continue; }
  cov=$("$bin" -runs=0 "$tmp/$i" 2>&1 | grep -o 'INITED cov: [0-9]* ft: [0-9]*' || true)
  printf '%-16s %5d inputs  %s\n' "${names[$i]}" "$(ls "$tmp/$i" | wc -l)" "${cov#INITED }"
done
