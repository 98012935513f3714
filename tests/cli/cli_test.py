#!/usr/bin/env python3
"""The cabledyn program as a user calls it: exit statuses (0 done, 1 error, 2 command line,
3 feature not implemented, with every feature named), --out creating its folders and a
trailing / naming the folder, --tmax on a MoorDyn deck, a directory given as the deck,
tools/run_decks.py tabulating the MoorDyn-style decks of tests/io/decks/moordyn, and --system
(the system route on a deck of lines alone) giving the single-line route's channels.

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
    # A deck of lines between fixed and coupled points runs as one mooring system (the default
    # route) and gives the single-line route's channels (--single-line; a taut polyester line
    # and a hanging cable); --system, the default, is accepted; the system route writes node
    # acceleration channels; --single-line on a deck with free points is refused by name.
    cable = os.path.join(decks, "v1_header_cable.dat")
    rc1, _, err1 = run("--single-line", "--tmax", "0.1", "--out", os.path.join(tmp, "route_line") + "/", cable)
    rc2, _, err2 = run("--tmax", "0.1", "--out", os.path.join(tmp, "route_sys") + "/", cable)
    check(rc1 == 0 and rc2 == 0, "v1_header_cable.dat with and without --single-line: exit 0 (%d, %d: %s)" % (rc1, rc2, err1 + err2))
    summary = os.path.join(tmp, "route_sys", "v1_header_cable.summary.txt")
    if os.path.exists(summary):
        check("system route" in open(summary).read(), "the default route is the system route")
    rc, _, err = run("--single-line", "--tmax", "0.1", "--out", os.path.join(tmp, "route_bad") + "/", bridle)
    check(rc == 1 and "--single-line" in err and "drop --single-line" in err,
          "--single-line on a deck with free points: exit 1 naming the option (%d: %s)" % (rc, err))
    if rc1 == 0 and rc2 == 0:
        def table(folder):
            rows = open(os.path.join(tmp, folder, "v1_header_cable.out")).read().splitlines()[3:]
            return [[float(x) for x in r.split("\t")] for r in rows if r.strip()]
        a, b = table("route_line"), table("route_sys")
        check(len(a) == len(b) == 6, "6 output rows (dtOut 0.02 s) in both routes (%d, %d)" % (len(a), len(b)))
        worst = max(abs(x - y) / max(abs(x), abs(y), 1.0) for ra, rb in zip(a, b) for x, y in zip(ra, rb))
        check(worst < 1e-6, "the system route gives the single-line route's channels to 1e-6: %g" % worst)
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
