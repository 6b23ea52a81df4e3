#!/usr/bin/env bash
# Builds the rules for the browser (crates/punct-wasm) as WebAssembly and puts the module
# where the app serves it: crates/punct-server/static/wasm/punct_wasm.wasm (built into the
# server at its next build; without it the page asks the server for legal moves).
#
# rustup cannot fetch the wasm32 target here, so the toolchain is Debian's rustc-web (1.96,
# bookworm-security), which knows wasm32-unknown-unknown, with its standard library's source
# (rust-web-src) for `-Z build-std`. Its packages are downloaded and unpacked under
# target/wasm-toolchain (never installed: the machine's rustup toolchain stays the default),
# and that rustc is called explicitly under rustup's cargo. See docs/wasm.md.
set -euo pipefail
cd "$(dirname "$0")/.."

VERSION="${PUNCT_RUSTC_WEB:-1.96.0+dfsg1-1~deb12u2}"
LLVM="${PUNCT_LLVM_WEB:-1:22.1.8-1~deb12u1}"
tools="$PWD/target/wasm-toolchain"
root="$tools/root"

# What those packages link from the system (libllvm22's dependencies): ordinary libraries,
# installed as usual (.ci/run does it).
missing=()
for lib in libedit2 libffi8 libxml2 libz3-4 libzstd1 zlib1g; do
  dpkg -s "$lib" >/dev/null 2>&1 || missing+=("$lib")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "scripts/wasm.sh: the toolchain needs ${missing[*]}: apt-get install -y ${missing[*]}" >&2
  exit 1
fi

if [ ! -x "$root/usr/bin/rustc" ]; then
  mkdir -p "$tools/debs"
  packages=("rustc-web=$VERSION" "libstd-rust-web-dev=$VERSION" "libstd-rust-web-1.96=$VERSION"
    "rust-web-src=$VERSION" "libllvm22=$LLVM" "lld-22=$LLVM")
  # A machine whose package lists are old (or were never read) reads them first.
  (cd "$tools/debs" && { apt-get download "${packages[@]}" || { apt-get update -qq && apt-get download "${packages[@]}"; }; })
  mkdir -p "$root"
  for deb in "$tools"/debs/*.deb; do dpkg -x "$deb" "$root"; done
fi

export LD_LIBRARY_PATH="$root/usr/lib/x86_64-linux-gnu:$root/usr/lib/rustlib/x86_64-unknown-linux-gnu/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export RUSTC="$root/usr/bin/rustc"
# The wasm linker, rust-lld, is Debian's lld-22: on the PATH alone (not the rest of usr/bin,
# whose cargo would shadow rustup's).
mkdir -p "$tools/bin"
ln -sf "$root/usr/bin/lld-22" "$tools/bin/rust-lld"
export PATH="$tools/bin:$PATH"
# -Z build-std is a nightly feature; Debian's rustc is a release, which this allows.
export RUSTC_BOOTSTRAP=1
# Small rather than fast: the page downloads it.
export CARGO_PROFILE_RELEASE_OPT_LEVEL=s CARGO_PROFILE_RELEASE_LTO=true \
  CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1 CARGO_PROFILE_RELEASE_PANIC=abort \
  CARGO_PROFILE_RELEASE_DEBUG=0 CARGO_PROFILE_RELEASE_STRIP=true

cargo build -p punct-wasm --release --target wasm32-unknown-unknown \
  -Z build-std=std,panic_abort --target-dir target/wasm

out=crates/punct-server/static/wasm
mkdir -p "$out"
cp target/wasm/wasm32-unknown-unknown/release/punct_wasm.wasm "$out/"
ls -l "$out/punct_wasm.wasm"
