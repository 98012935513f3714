#!/usr/bin/env python3
"""The cabledyn program as a user calls it: exit statuses (0 done, 1 error, 2 command line,
3 feature not implemented, with every feature named), --out creating its folders and a
trailing / naming the folder, --tmax on a MoorDyn deck, a directory given as the deck,
tools/run_decks.py tabulating the MoorDyn-style decks of tests/io/decks/moordyn, --system
accepted (the same run bit for bit) and the retired --single-line refused as a bad command line.

    cli_test.py DRIVER SOURCE_DIR
"""
import os
import shutil
import subprocess
import sys
import tempfile

driver, source = sys.argv[1], sys.argv[2]
decks = os.path.join(source, "tests", "io", "decks", "moordyn")
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAILED:", what)


def run(*args):
    p = subprocess.run([driver, "--quiet"] + list(args), capture_output=True, text=True, timeout=600)
    return p.returncode, p.stdout, p.stderr


tmp = tempfile.mkdtemp(prefix="cabledyn_cli_")
try:
    # A deck of objects and friction: refused, exit 3, naming what no route models (the
    # friction), not the objects the system route models.
    rc, out, err = run("--out", os.path.join(tmp, "x") + "/", os.path.join(decks, "objects_and_friction.dat"))
    check(rc == 3, "objects_and_friction.dat: exit status 3, got %d" % rc)
    check("seabed friction" in err, "the refusal names seabed friction: " + err)
    for f in ("rods (ROD TYPES, RODS)", "bodies (BODIES)", "free points (Free/Connect)"):
        check(f not in err, "the refusal does not name " + f + ", which the system route models: " + err)
    check(not os.path.exists(os.path.join(tmp, "x", "objects_and_friction.out")), "a refused deck writes no results")
    # A MoorDyn deck marched with --tmax into a folder that does not exist yet.
    rc, out, err = run("--tmax", "0.1", "--out", os.path.join(tmp, "a", "b") + "/", os.path.join(decks, "v2_three_chains.dat"))
    check(rc == 0, "v2_three_chains.dat --tmax 0.1: exit 0, got %d (%s)" % (rc, err))
    res = os.path.join(tmp, "a", "b", "v2_three_chains")
    for suffix in (".out", ".nodes.out", ".static.out", ".summary.txt", "_Line1.out", "_Line3.out"):
        check(os.path.exists(res + suffix), "--out dir/ writes " + suffix)
    if os.path.exists(res + ".summary.txt"):
        s = open(res + ".summary.txt").read()
        check("run length from --tmax" in s, "the summary says where the run length came from")
    # --out ROOT with a name: dir/name.*
    rc, out, err = run("--static", "--out", os.path.join(tmp, "c", "named"), os.path.join(decks, "v1_header_cable.dat"))
    check(rc == 0 and os.path.exists(os.path.join(tmp, "c", "named.static.out")), "--out dir/name writes dir/name.*")
    # Errors: --tmax not a multiple of dtM (1), two decks (2), an unknown option (2), a folder as the deck (1).
    rc, out, err = run("--tmax", "0.105", "--out", os.path.join(tmp, "d") + "/", os.path.join(decks, "v2_three_chains.dat"))
    check(rc == 1 and "a multiple of dtM" in err, "--tmax 0.105 on dtM 0.01: exit 1 naming the rule (%d: %s)" % (rc, err))
    rc, out, err = run(os.path.join(decks, "v2_three_chains.dat"), os.path.join(decks, "v1_header_cable.dat"))
    check(rc == 2 and "two decks" in err, "two decks: exit 2 (%d: %s)" % (rc, err))
    rc, out, err = run("--frobnicate")
    check(rc == 2 and "unknown option" in err, "an unknown option: exit 2")
    rc, out, err = run("--out", os.path.join(tmp, "e") + "/", decks)
    check(rc == 1 and "a directory" in err, "a folder as the deck: exit 1 naming it (%d: %s)" % (rc, err))
    # run_decks.py over the MoorDyn-style decks: 3 run, 1 refused by feature, nothing else.
    p = subprocess.run([sys.executable, os.path.join(source, "tools", "run_decks.py"), decks, "--driver", driver,
                        "--tmax", "0.1", "--jobs", "2"], capture_output=True, text=True, timeout=900)
    check(p.returncode == 0, "run_decks.py exit 0 (%d): %s" % (p.returncode, p.stdout + p.stderr))
    check("4 decks: 3 runs, 1 refused" in p.stdout, "run_decks.py table: " + p.stdout)
    check("seabed friction" in p.stdout and "#23 seabed" in p.stdout, "run_decks.py names the feature and its issue")
    # A deck with free points runs as one mooring system (the system route).
    bridle = os.path.join(source, "tests", "capi", "decks", "bridle_driver.dat")
    rc, out, err = run("--out", os.path.join(tmp, "sys") + "/", bridle)
    check(rc == 0, "bridle_driver.dat: exit 0, got %d (%s)" % (rc, err))
    res = os.path.join(tmp, "sys", "bridle_driver")
    for suffix in (".out", ".summary.txt", ".static.out", ".profile.svg", ".plan.svg"):
        check(os.path.exists(res + suffix), "the system route writes " + suffix)
    if os.path.exists(res + ".profile.svg"):
        svg = open(res + ".profile.svg").read()
        check(svg.count("<polyline") == 5, "the profile draws the 4 lines and the seabed: %d polylines" % svg.count("<polyline"))
        check(svg.count("<circle") == 5 + 2, "the profile marks the 5 points (and 2 legend circles): %d" % svg.count("<circle"))
    if os.path.exists(res + ".static.out"):
        st = open(res + ".static.out").read().split("\n\n")
        nodes = [l for l in st[0].splitlines()[1:] if l.strip()]
        check(len(nodes) == 26 + 26 + 16 + 16, "static.out lists every node of the 4 lines: %d" % len(nodes))
        pts = [l.split("\t") for l in st[1].splitlines()[1:] if l.strip()] if len(st) > 1 else []
        check(len(pts) == 5, "static.out lists the 5 points")
    if os.path.exists(res + ".summary.txt"):
        summary = open(res + ".summary.txt").read()
        check("system route: 4 lines, 5 points" in summary, "the summary names the system route: " + summary[:300])
        check("march: 100 steps" in summary, "the summary counts the march's steps")
    if os.path.exists(res + ".out"):
        rows = [l.split("\t") for l in open(res + ".out").read().splitlines()[3:]]
        check(len(rows) == 101, "101 output rows (t = 0 .. 5 s), got %d" % len(rows))
    # A deck of lines between fixed and coupled points runs as one mooring system; --system, the
    # name of that route when there were two, is accepted and changes nothing (the same channels
    # bit for bit); --single-line, the retired route, is a bad command line that says so.
    cable = os.path.join(decks, "v1_header_cable.dat")
    rc1, _, err1 = run("--system", "--tmax", "0.1", "--out", os.path.join(tmp, "route_named") + "/", cable)
    rc2, _, err2 = run("--tmax", "0.1", "--out", os.path.join(tmp, "route_sys") + "/", cable)
    check(rc1 == 0 and rc2 == 0, "v1_header_cable.dat with and without --system: exit 0 (%d, %d: %s)" % (rc1, rc2, err1 + err2))
    summary = os.path.join(tmp, "route_sys", "v1_header_cable.summary.txt")
    if os.path.exists(summary):
        check("system route" in open(summary).read(), "the deck runs as one mooring system")
    rc, _, err = run("--single-line", "--tmax", "0.1", "--out", os.path.join(tmp, "route_bad") + "/", cable)
    check(rc == 2 and "--single-line" in err and "retired" in err,
          "--single-line: exit 2 saying the route was retired (%d: %s)" % (rc, err))
    if rc1 == 0 and rc2 == 0:
        a = open(os.path.join(tmp, "route_named", "v1_header_cable.out")).read()
        b = open(os.path.join(tmp, "route_sys", "v1_header_cable.out")).read()
        check(a == b and len(a.splitlines()) == 3 + 6, "--system writes the same .out bit for bit (6 rows at dtOut 0.02 s)")
    rc, out, err = run("--system", "--tmax", "0.1", "--out", os.path.join(tmp, "route_sys2") + "/",
                       os.path.join(decks, "v2_three_chains.dat"))
    check(rc == 0, "--system on a deck with node acceleration channels: exit 0 (%d: %s)" % (rc, err))
    if rc == 0:
        head = open(os.path.join(tmp, "route_sys2", "v2_three_chains.out")).read().splitlines()
        check(any("L1N12ax" in h for h in head[:3]), "--system writes the node acceleration channel L1N12ax")
finally:
    shutil.rmtree(tmp, ignore_errors=True)

print("cli_test: %d failure(s)" % len(failures))
sys.exit(1 if failures else 0)
