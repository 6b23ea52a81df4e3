#!/usr/bin/env bash
# Builds the engine of an earlier commit as a baseline beside the current binary, so that
# later engines can be matched against it:
#
#   scripts/baseline.sh                 # v0: commit 4a4071c, the engine before issue 20
#   scripts/baseline.sh v1 <commit>     # a later generation
#   punct match full cmd:baselines/v0/punct\ engine --movetime 1000
#   punct match full "cmd:baselines/v0/punct engine" "cmd:baselines/v1/punct engine"  # gauntlet
#
# The commit is checked out in a temporary git worktree and built with `cargo build
# --release --locked`; the binary lands in baselines/NAME/punct with the commit beside it
# (baselines/ is ignored by git). The build uses its own target directory,
# baselines/target, unless CARGO_TARGET_DIR says otherwise.
set -euo pipefail

name="${1:-v0}"
commit="${2:-4a4071c}"
if [ "$name" = v0 ] && [ -n "${2:-}" ] && [ "$2" != 4a4071c ]; then
  echo "baseline.sh: v0 is commit 4a4071c; give a later generation another name" >&2
  exit 2
fi

root="$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)"
out="$root/baselines/$name"
full="$(git -C "$root" rev-parse --verify "$commit^{commit}")"
if [ -x "$out/punct" ] && [ "$(cat "$out/COMMIT" 2>/dev/null)" = "$full" ]; then
  echo "baselines/$name is already built from $full"
  exit 0
fi

src="$root/baselines/src-$name"
rm -rf "$src"
git -C "$root" worktree prune
git -C "$root" worktree add --detach "$src" "$full" >/dev/null
trap 'git -C "$root" worktree remove --force "$src"' EXIT

target="${CARGO_TARGET_DIR:-$root/baselines/target}"
(cd "$src" && CARGO_TARGET_DIR="$target" nice -n 10 cargo build --release --locked -p punct)

mkdir -p "$out"
cp "$target/release/punct" "$out/punct.new"
mv "$out/punct.new" "$out/punct"
echo "$full" > "$out/COMMIT"
echo "built baselines/$name/punct from $full; play it as \"cmd:baselines/$name/punct engine\""
