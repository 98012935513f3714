#!/usr/bin/env bash
# Builds and runs every cabledyn test: the single-header check, then ONE build at -Og
# (assertions on) with -Wall -Wextra -Werror of the tests, benchmarks and examples, the test
# executables instrumented with -fsanitize=address,undefined (CABLEDYN_SANITIZE), and CTest
# over it. One tree serves both requirements (warnings as errors; the tests under the
# sanitizers) because the compile, not the test run, is what costs on a two-core machine:
# two trees took 37 min. UBSan's null, alignment, object-size and vptr checks are left
# out: they tripled the compile time of the template-heavy tests, and AddressSanitizer
# covers null and out-of-object accesses. The verification runs (tests/verification/, long physics
# runs against published results) are built -O2 without the sanitizers (tests/CMakeLists.txt). -Og rather than -O1: the instrumented code compiles
# about a quarter faster and the tests run as fast. With GCC, the collector runs later
# (--param ggc-min-*: about 7 % less compile time, about 1.3 GB per compiler). The tests of a
# folder compile as one unit (tests/CMakeLists.txt, CABLEDYN_UNITY_TESTS).
# CABLEDYN_RELEASE_BUILD=1 adds a Release (-O3) -Werror build with its CTest run.
# Build trees go under ${CABLEDYN_BUILD_ROOT:-build}.
set -euo pipefail
cd "$(dirname "$0")/.."
root=${CABLEDYN_BUILD_ROOT:-build}
jobs=${CABLEDYN_JOBS:-$(nproc)}
export CCACHE_DIR=${CCACHE_DIR:-$PWD/$root/ccache}
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
start=$(date +%s)

echo "== single header =="
python3 tools/amalgamate.py --check

san="-fsanitize=address,undefined -fno-sanitize=null,alignment,object-size,vptr -fno-sanitize-recover=all"
gc=""
if "${CXX:-c++}" --version 2>/dev/null | head -1 | grep -qE 'g\+\+|GCC'; then
  gc="--param ggc-min-expand=400 --param ggc-min-heapsize=2097152"
fi
echo "== -Og -Wall -Wextra -Werror; tests with $san =="
cmake -S . -B "$root/check" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-Og" -DCMAKE_CXX_FLAGS="-Wall -Wextra -Werror $gc" \
  "-DCABLEDYN_SANITIZE=$san" >/dev/null
cmake --build "$root/check" -j "$jobs" -- -k 0  # report every failing file
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir "$root/check" --output-on-failure -j "$jobs"

if [ "${CABLEDYN_RELEASE_BUILD:-0}" = 1 ]; then
  echo "== Release, -Wall -Wextra -Werror =="
  cmake -S . -B "$root/werror" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_FLAGS="-Wall -Wextra -Werror" >/dev/null
  cmake --build "$root/werror" -j "$jobs"
  ctest --test-dir "$root/werror" --output-on-failure -j "$jobs"
fi

echo "== all tests passed in $(( $(date +%s) - start )) s =="
