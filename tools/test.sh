#!/usr/bin/env bash
# Builds and runs every cabledyn test: the single-header check, a Release build with
# -Wall -Wextra -Werror (tests, benchmarks, examples; CTest), and a build of the tests with
# -fsanitize=address,undefined (CTest). Build trees go under ${CABLEDYN_BUILD_ROOT:-build}.
set -euo pipefail
cd "$(dirname "$0")/.."
root=${CABLEDYN_BUILD_ROOT:-build}
jobs=${CABLEDYN_JOBS:-$(nproc)}
export CCACHE_DIR=${CCACHE_DIR:-$PWD/$root/ccache}
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
start=$(date +%s)

echo "== single header =="
python3 tools/amalgamate.py --check

echo "== Release, -Wall -Wextra -Werror =="
cmake -S . -B "$root/werror" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_FLAGS="-Wall -Wextra -Werror" >/dev/null
cmake --build "$root/werror" -j "$jobs"
ctest --test-dir "$root/werror" --output-on-failure -j "$jobs"

echo "== tests with -fsanitize=address,undefined =="
cmake -S . -B "$root/asan" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" \
  -DCMAKE_CXX_FLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DCABLEDYN_BUILD_BENCHMARKS=OFF -DCABLEDYN_BUILD_EXAMPLES=OFF -DCABLEDYN_TEST_CONSUMER=OFF >/dev/null
cmake --build "$root/asan" -j "$jobs"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir "$root/asan" --output-on-failure -j "$jobs"

echo "== all tests passed in $(( $(date +%s) - start )) s =="
