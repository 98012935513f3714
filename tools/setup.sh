#!/usr/bin/env bash
# Installs the Debian packages cabledyn builds with (idempotent: installs only what is
# missing, after one apt-get update). Needs root or sudo.
set -euo pipefail
packages=(g++ cmake ninja-build ccache python3 libeigen3-dev catch2 libbenchmark-dev
          liblapack-dev libblas-dev libxtensor-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all packages present"
  exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
