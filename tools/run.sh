#!/usr/bin/env bash
# Builds the examples (Release) and runs the main job. Until the `cabledyn` deck driver
# exists this is the most complete example the library has.
set -euo pipefail
cd "$(dirname "$0")/.."
root=${CABLEDYN_BUILD_ROOT:-build}
cmake -S . -B "$root/release" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCABLEDYN_BUILD_TESTS=OFF -DCABLEDYN_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build "$root/release" -j "${CABLEDYN_JOBS:-$(nproc)}"
out=${CABLEDYN_OUT:-$root/results}
mkdir -p "$out"
"$root/release/examples/catenary_statics" "$@" > "$out/oc3_profile.csv"
echo "profile written to $out/oc3_profile.csv"
