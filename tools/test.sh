#!/usr/bin/env bash
# Builds and runs every cabledyn test: the single-header check, a Release build with
# -Wall -Wextra -Werror (tests, benchmarks, examples; CTest), and a build with
# -fsanitize=address,undefined (CTest) of the test modules that index memory by hand or
# parse input (core, autodiff, linalg, elements, hydro, seabed, line, statics, dynamics,
# nodes, io); the sea and modal tests (closed-form kinematics, and eigen-solvers on the
# sanitised linalg kernels) run in the first build only, which keeps CI near 25 minutes on
# two cores. CABLEDYN_ASAN_MODULES=all sanitises every module. Build trees go under
# ${CABLEDYN_BUILD_ROOT:-build}.
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

asan_modules=${CABLEDYN_ASAN_MODULES:-core;autodiff;linalg;elements;hydro;seabed;line;statics;dynamics;nodes;io}
[ "$asan_modules" = all ] && asan_modules=""
echo "== tests with -fsanitize=address,undefined (${asan_modules:-all modules}) =="
cmake -S . -B "$root/asan" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" \
  -DCMAKE_CXX_FLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DCABLEDYN_BUILD_BENCHMARKS=OFF -DCABLEDYN_BUILD_EXAMPLES=OFF -DCABLEDYN_TEST_CONSUMER=OFF \
  -DCABLEDYN_TEST_SINGLE_HEADER=OFF "-DCABLEDYN_TEST_MODULES=$asan_modules" >/dev/null
cmake --build "$root/asan" -j "$jobs"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir "$root/asan" --output-on-failure -j "$jobs"

echo "== all tests passed in $(( $(date +%s) - start )) s =="
