#!/usr/bin/env bash
# Measures the ladder of levels for people: each level against the one below it (level 1
# against `random`, and `greedy` fitted in between), from the committed openings, one game
# at a time, and prints each step's Elo with its 95% interval and the running total
# anchored to random = 0 (the table of docs/engine.md):
#
#   scripts/ladder.sh                    # 40 games a step, target/release/punct
#   scripts/ladder.sh 100 path/to/punct  # more games, another binary
#
# Levels 1-8 stop at their own playout counts (the 60 s movetime never binds), so their
# steps are counts that do not depend on the machine or its load. Level 9 plays at
# LADDER_MOVETIME milliseconds a move (1000 by default, the web app's time), so the last
# step is time-based. Every match's full report is kept in LADDER_DIR (default
# target/ladder). A step won or lost in every pair has an infinite estimate: its total is
# then a bound ("≥" or "≤").
set -euo pipefail

games="${1:-40}"
punct="${2:-target/release/punct}"
movetime="${LADDER_MOVETIME:-1000}"
dir="${LADDER_DIR:-target/ladder}"
mkdir -p "$dir"

# Stronger first; the total of the first is the total of the second plus the step.
steps=(
  "level1 random"
  "level2 level1"
  "level3 level2"
  "greedy level3"
  "level4 level3"
  "level5 level4"
  "level6 level5"
  "level7 level6"
  "level8 level7"
  "level9 level8"
)

printf '| player | against | pairs LL/LD/WL+DD/WD/WW | step Elo (95%% CI) | total Elo, random = 0 |\n'
printf '|---|---|---|---|---|\n'
declare -A total bound
total[random]=0
bound[random]=0
for step in "${steps[@]}"; do
  read -r strong weak <<<"$step"
  budget=(--movetime 60000)
  if [ "$strong" = level9 ]; then budget=(--movetime "$movetime"); fi
  report="$dir/$strong-vs-$weak.txt"
  nice -n 10 "$punct" match "$strong" "$weak" --games "$games" --concurrency 1 "${budget[@]}" \
    >"$report"
  # `pairs LL 0, LD 1, WL+DD 4, WD 2, WW 13` and `Elo +382 ± 253 (95% CI +254 to +761), …`
  pairs=$(awk '/^pairs /{gsub(",",""); print $3"/"$5"/"$7"/"$9"/"$11}' "$report")
  read -r elo lo hi <<<"$(awk '/^Elo /{gsub(/[(),]/,""); print $2, $7, $9}' "$report")"
  below="${total[$weak]}"
  # A total is a bound once any step under it is; `awk` adds `∞` as 0, so the bound
  # comes from the step's finite end of its interval.
  read -r sum kind <<<"$(awk -v e="$elo" -v lo="$lo" -v hi="$hi" -v b="$below" -v k="${bound[$weak]}" 'BEGIN {
    if (e ~ /∞/) { if (e ~ /^-/) { print b + hi, "le" } else { print b + lo, "ge" } }
    else { print b + e, (k == "ge" ? "ge" : (k == "le" ? "le" : 0)) } }')"
  total[$strong]="$sum"
  bound[$strong]="$kind"
  shown="$sum"
  case "$kind" in ge) shown="≥ $sum" ;; le) shown="≤ $sum" ;; esac
  printf '| %s | %s | %s | %s (%s to %s) | %s |\n' "$strong" "$weak" "$pairs" "$elo" "$lo" "$hi" "$shown"
done
