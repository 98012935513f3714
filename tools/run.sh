#!/usr/bin/env bash
# Builds the cabledyn driver (Release) and runs the main job: with no argument the embedded
# default deck (a three-line catenary chain mooring of a floating platform under a 5 m, 10 s
# surge), writing cabledyn_results/default.* (outputs, summary, SVG figures); with
# arguments, `cabledyn` on them (e.g. tools/run.sh --static my_deck.dat).
set -euo pipefail
cd "$(dirname "$0")/.."
root=${CABLEDYN_BUILD_ROOT:-build}
cmake -S . -B "$root/release" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCABLEDYN_BUILD_TESTS=OFF -DCABLEDYN_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build "$root/release" -j "${CABLEDYN_JOBS:-$(nproc)}" --target cabledyn_driver
"$root/release/examples/cabledyn" "$@"
