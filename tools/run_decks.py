#!/usr/bin/env python3
"""Runs the cabledyn driver on every deck of a folder and prints a table of outcomes.

    tools/run_decks.py FOLDER [--driver PATH] [--tmax T] [--dtm DT] [--timeout S] [--jobs N]

A deck is a .dat or .txt file with a section header (a line with --- and one of LINE TYPES,
LINES, POINTS, RODS, BODIES, OPTIONS) under FOLDER, recursively. Each runs as `cabledyn --quiet --out TMP/ deck`
(plus --tmax / --dtm when given, so that MoorDyn decks, which carry no TMax, also march). The
outcome is the driver's exit status: 0 runs, 3 refused because it asks for a feature that is
not implemented (the features are listed), 1 error, 2 bad command line, other: a crash or a
timeout. The table ends with the counts and, for the refused decks, how many decks each
missing feature blocks. Exit status 0 when no deck ends in an error, crash or timeout.
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

# The open issue that builds each missing feature (prefix of the feature's name).
BUILT_BY = [
    ("free points", "#20 systems"), ("points on bodies", "#20 systems"), ("points on turbines", "#20 systems"),
    ("bodies", "#20 systems"), ("rods", "#20 systems"), ("finite-EI lines on zero-length rods", "#20 systems"),
    ("lines attached to rods", "#20 systems"),
    ("the mass, volume", "#20 systems"), ("MoorDyn-F inertial", "#20 systems"), ("rigid-vessel", "#20 systems"),
    ("seabed friction", "#23 seabed"), ("static seabed friction", "#23 seabed"), ("bathymetry", "#23 seabed"),
    ("viscoelastic", "#22 laws"), ("load-dependent viscoelastic", "#22 laws"), ("the Syrope", "#22 laws"),
    ("a nonlinear", "#22 laws"),
    ("MoorDyn's water kinematics", "#24 hydrodynamics"), ("MoorDyn's current inputs", "#24 hydrodynamics"),
    ("MoorDyn's kinematics ramp", "#24 hydrodynamics"), ("water kinematics from files", "#24 hydrodynamics"),
    ("vortex-induced vibration", "#24 hydrodynamics"),
    ("torsion", "#25 cable features"), ("discrete attachments", "#25 cable features"),
    ("adaptive mesh", "#25 cable features"), ("mesh-sequenced", "#25 cable features"),
]


def built_by(feature):
    for prefix, issue in BUILT_BY:
        if feature.startswith(prefix):
            return issue
    return "no open issue"


def is_deck(path):
    if not path.endswith((".dat", ".txt")):
        return False
    try:
        with open(path, "r", errors="replace") as f:
            for line in f:
                u = line.upper()
                if "---" in u and any(k in u for k in ("LINE TYPES", "LINE DICTIONARY", "LINES", "POINTS", "RODS", "BODIES", "OPTIONS")):
                    return True
    except OSError:
        return False
    return False


def features_of(message):
    """The missing features a NotImplementedError names: the first after 'not implemented: ',
    the others after 'also not implemented: ', each '<feature> (line ...)'."""
    out = []
    m = re.search(r"\(limit: not implemented: (.*)\)\s*$", message.strip())
    if not m:
        return out
    text = m.group(1)
    first, _, rest = text.partition("; also not implemented: ")
    out.append(first.split("; ")[0].strip())
    for part in re.split(r"\); ", rest):
        part = part.strip()
        if part:
            out.append(re.sub(r"\s*\(lines? [^)]*\)?$", "", part).strip())
    return out


def run_one(driver, deck, extra, timeout, out_dir):
    cmd = [driver, "--quiet", "--out", out_dir + os.sep] + extra + [deck]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return deck, "timeout", "no answer in %g s" % timeout, []
    msg = (p.stderr.strip().splitlines() or [""])[-1]
    if p.returncode == 0:
        return deck, "runs", "", []
    if p.returncode == 3:
        f = features_of(msg)
        return deck, "refused", "; ".join(f), f
    if p.returncode in (1, 2):
        return deck, "error", msg.replace("cabledyn: error: ", ""), []
    return deck, "crash", "exit status %d: %s" % (p.returncode, msg), []


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder")
    ap.add_argument("--driver", default=os.path.join(HERE, "..", "build", "release", "examples", "cabledyn"))
    ap.add_argument("--tmax", type=float)
    ap.add_argument("--dtm", type=float)
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    a = ap.parse_args()
    if not os.access(a.driver, os.X_OK):
        sys.exit("run_decks: no driver at %s (build it: tools/run.sh --help)" % a.driver)
    decks = sorted(os.path.join(r, f) for r, _, fs in os.walk(a.folder) for f in fs if is_deck(os.path.join(r, f)))
    if not decks:
        sys.exit("run_decks: no deck under %s" % a.folder)
    extra = []
    if a.tmax is not None:
        extra += ["--tmax", repr(a.tmax)]
    if a.dtm is not None:
        extra += ["--dtm", repr(a.dtm)]
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
            futs = [ex.submit(run_one, a.driver, d, extra, a.timeout, os.path.join(tmp, str(i))) for i, d in enumerate(decks)]
            results = [f.result() for f in futs]
    width = max(len(os.path.relpath(d, a.folder)) for d in decks)
    print("%-*s  %-8s  %s" % (width, "deck", "outcome", "detail"))
    counts, blocking = {}, {}
    for deck, outcome, detail, feats in results:
        counts[outcome] = counts.get(outcome, 0) + 1
        for f in feats:
            blocking[f] = blocking.get(f, 0) + 1
        print("%-*s  %-8s  %s" % (width, os.path.relpath(deck, a.folder), outcome, detail[:160]))
    print()
    print("%d decks: %s" % (len(decks), ", ".join("%d %s" % (counts[k], k) for k in
                                                  ("runs", "refused", "error", "crash", "timeout") if k in counts)))
    if blocking:
        print("missing features (decks each blocks):")
        for f, n in sorted(blocking.items(), key=lambda kv: (-kv[1], kv[0])):
            print("  %3d  %-60s  %s" % (n, f, built_by(f)))
    bad = sum(counts.get(k, 0) for k in ("error", "crash", "timeout"))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
