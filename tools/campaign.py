#!/usr/bin/env python3
"""A robustness campaign: physically plausible decks, generated from a seed, run through the
cabledyn driver with invariants checked on each (docs/robustness.md).

    tools/campaign.py generate --seed S --count N --out DIR
    tools/campaign.py run DIR [--driver PATH] [--jobs J] [--timeout SECONDS]
    tools/campaign.py all --seed S --count N --out DIR [--driver PATH] [--jobs J]

`generate` writes DIR/decks/case_NNNN.dat (and motion tables), each with a twin rotated about
the vertical axis (and translated where the sea allows it) and DIR/decks/case_NNNN.json (the
parameters and the bounds the checks use). The space: water depth 20-3000 m; chain, wire,
polyester-like (linear EA) and cable (EI > 0) types; 1-6 lines; grounded and suspended lines,
anchors on the seabed or in mid-water; no, uniform or profile currents; still water, regular
(Airy) and irregular (JONSWAP, long- or short-crested) waves; harmonic or tabulated fairlead
motions up to slack-and-snap; 4-60 elements per line; dtM 0.005-0.2 s; both deck dialects.

`run` runs each deck (statics and a short march, with the driver's restart check at half of
the run) and its twin, in parallel, and checks:
  - the exit status: 0, or 1 with a named error (InputError, SolveError, DomainError); a crash,
    a hang (the timeout), an unnamed error or a refusal for a missing feature is a violation;
  - every output finite (.out, .nodes.out);
  - the static residual below 1e-5 of the system's force scale;
  - tensions within physical bounds: node tensions of undamped EI = 0 lines >= 0 (a damped
    line reports the dashpot's share too, which the spec keeps active on a slack element, as
    MoorDyn does), every end tension below the bound of the deck's .json (weight, stretch at
    the largest chord, drag and inertia of the motion, with a factor 3);
  - no spike: a one-step jump of a FairTen channel above 8 times the local standard deviation
    of the jumps that halving dtM removes (the run is repeated at dtM / 2 to tell);
  - the restart: the lines restored to their state at half the run repeat the rest bit for bit
    (the driver's --restart-check);
  - the twin, rotated (and moved), gives the same static end tensions (to 1e-6 of the
    largest, plus 10 round-off floors 16 eps EA/L0 |x|) and the same end tensions over the first
    tenth of the march (at least 5 steps; to 1e-5 plus 100 floors): a rotated frame rounds
    differently, Newton stops within its tolerance (1e-8 of the force scale) at every step,
    and a slack-and-snap run amplifies such differences later on, so later steps are compared
    only for the report (not a violation).
A violation whose cause the driver's own summary notes is counted as "explained": a spike on
a line whose summary notes steps that kept the plain step (a sub-step did not converge, so a
snap is not resolved there), a twin that differs where the summary notes a buckled static shape
out of the vertical plane (its mirror image is an equilibrium too).
It writes DIR/report.md (the table of outcomes) and copies each failing or explained deck to
DIR/failing/. Exit status 0 when no deck has an unexplained violation.
"""
import argparse
import concurrent.futures
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
G, RHO = 9.80665, 1025.0

# ---- generation ---------------------------------------------------------------------------------


def log_uniform(rng, a, b):
    return math.exp(rng.uniform(math.log(a), math.log(b)))


def line_type(rng, kind):
    """(name, d, mass, EA, BA, EI, Cd, Ca, CdAx, CaAx) of a plausible type of `kind`."""
    if kind == "chain":
        dn = rng.uniform(0.06, 0.16)  # nominal diameter [m]
        return ("chain", 1.8 * dn, 19900 * dn * dn, 0.854e11 * dn * dn, -rng.uniform(0.2, 1.0), 0.0, 2.4, 1.0, 1.15, 0.5)
    if kind == "wire":
        d = rng.uniform(0.05, 0.14)
        return ("wire", d, 5000 * d * d, 4.0e10 * d * d, -rng.uniform(0.2, 1.0), 0.0, 1.2, 1.0, 0.01, 0.0)
    if kind == "polyester":
        d = rng.uniform(0.1, 0.28)
        # a rope about 1.35 times as heavy as the water it displaces, as polyester
        return ("polyester", d, 1090 * d * d, 1.1e10 * d * d, -rng.uniform(0.2, 1.0), 0.0, 1.2, 1.0, 0.008, 0.0)
    d = rng.uniform(0.1, 0.25)  # a power cable, EI > 0
    return ("cable", d, 1200 * d * d + 10, 2.0e10 * d * d, -rng.uniform(0.2, 1.0), rng.uniform(5e3, 8e4), 1.2, 1.0, 0.01,
            0.0)


def dispersion(omega, h):
    k = omega * omega / G
    for _ in range(100):
        f = G * k * math.tanh(k * h) - omega * omega
        df = G * math.tanh(k * h) + G * k * h / math.cosh(k * h) ** 2
        k -= f / df
    return k


def generate_case(seed, index):
    rng = random.Random(seed * 1000003 + index)
    c = {"index": index, "seed": seed}
    h = log_uniform(rng, 20, 3000)
    c["depth"] = h
    kind = rng.choice(["chain", "chain", "wire", "polyester", "cable"])
    t = line_type(rng, kind)
    if rng.random() < 0.3:  # undamped: the node tension of an EI = 0 line is then >= 0
        t = t[:4] + (0.0,) + t[5:]
    c["type"] = t
    n = rng.randint(1, 6)
    zf = -min(rng.uniform(3, 25), 0.3 * h)
    rf = rng.uniform(3, 40)
    V = h + zf  # vertical span to the seabed
    mode = rng.choice(["grounded", "grounded", "suspended"])
    if kind == "polyester" or (mode == "suspended" and rng.random() < 0.5):
        ratio = rng.uniform(0.8, 2.0)  # taut-ish
    else:
        ratio = rng.uniform(1.5, 4.0)
    X = ratio * V
    za = -h if (mode == "grounded" or rng.random() < 0.6) else -h + rng.uniform(0, 0.3 * V)
    Vs = za - zf  # negative
    chord = math.hypot(X, Vs)
    if mode == "grounded":
        f = rng.uniform(0.25, 0.8)
        L = chord + f * (X + abs(Vs) - chord)
    else:
        L = chord * (1 + rng.uniform(0.003, 0.06))
    c["mode"] = mode
    segs = rng.randint(4, 60)
    if t[5] > 0:
        # A cable's elements resolve its bending length (EI/|w|)^(1/3) (the driver notes a
        # coarser mesh: its static shape near the touchdown and the ends is not resolved).
        w = abs(t[2] - RHO * math.pi * t[1] ** 2 / 4) * G
        lb = (t[5] / max(w, 1e-9)) ** (1.0 / 3.0)
        segs = max(rng.randint(8, 40), int(math.ceil(L / (1.5 * lb))))
        if segs > 150:
            segs = 150
    phi0 = rng.uniform(0, 2 * math.pi)
    lines = []
    for k in range(n):
        a = phi0 + 2 * math.pi * k / n
        fair = (rf * math.cos(a), rf * math.sin(a), zf)
        anch = ((rf + X) * math.cos(a), (rf + X) * math.sin(a), za)
        lines.append({"fair": fair, "anch": anch, "L": L, "segs": segs})
    c["lines"] = lines
    # Sea state.
    u = 0.0
    cur = rng.choice(["none", "none", "uniform", "profile"])
    if cur == "uniform":
        sp, d = rng.uniform(0.1, 1.5), rng.uniform(0, 360)
        c["current"] = ("uniform", sp * math.cos(math.radians(d)), sp * math.sin(math.radians(d)))
        u = sp
    elif cur == "profile":
        s0, s1, d = rng.uniform(0.05, 0.4), rng.uniform(0.3, 1.5), rng.uniform(0, 360)
        c["current"] = ("profile", -h, s0, 0, s1, math.radians(d))
        u = s1
    else:
        c["current"] = ("none",)
    wv = rng.choice(["none", "none", "airy", "jonswap"])
    a_w = 0.0
    if wv == "airy":
        H, T = rng.uniform(0.5, min(12, 0.3 * h)), rng.uniform(5, 16)
        c["waves"] = ("airy", H, T, rng.uniform(0, 360), rng.uniform(0, 360))
        u += math.pi * H / T
        a_w = 2 * math.pi ** 2 * H / T ** 2
    elif wv == "jonswap":
        Hs, Tp = rng.uniform(0.5, min(10, 0.25 * h)), rng.uniform(6, 16)
        s = rng.choice([0, 0, 4])
        c["waves"] = ("jonswap", Hs, Tp, rng.uniform(0, 360), s, rng.randint(1, 10000))
        u += 2 * math.pi * Hs / Tp
        a_w = 4 * math.pi ** 2 * Hs / Tp ** 2
    else:
        c["waves"] = ("none",)
    # Time.
    dt = log_uniform(rng, 0.005, 0.2)
    steps = rng.randint(40, 160)
    dt = round(dt, 4)
    c["dtM"], c["steps"] = dt, steps
    tmax = dt * steps
    # Motion: harmonic (along x, y or z) or a table (a translation, sum of sinusoids).
    mot = rng.choice(["none", "harmonic", "harmonic", "table"])
    c["motion"] = ("none",)
    amp_lim = max_offset(lines, L)
    v_m = a_m = 0.0
    if mot == "harmonic":
        axis = rng.choice(["surge", "sway", "heave"])
        T = rng.uniform(max(4 * dt, 4), 20)
        A = rng.uniform(0.05, 1.0) * amp_lim[axis]
        c["motion"] = ("harmonic", axis, A, T, rng.uniform(0, 360))
        v_m, a_m = 2 * math.pi * A / T, (2 * math.pi / T) ** 2 * A
    elif mot == "table":
        ds = rng.choice([0.05, 0.2, 0.5, 1.0])
        comps = [(rng.uniform(0.05, 0.5) * min(amp_lim["surge"], amp_lim["sway"]), rng.uniform(6, 30), rng.uniform(0, 6.3),
                  rng.uniform(0, 2 * math.pi)) for _ in range(3)]
        c["motion"] = ("table", ds, comps)
        for A, T, _, _ in comps:
            v_m += 2 * math.pi * A / T
            a_m += (2 * math.pi / T) ** 2 * A
    c["dialect"] = rng.choice(["cabledyn", "moordyn"])
    # The bound on end tensions: weight, the stretch at the largest chord, drag and inertia.
    name, d, m, EA, BA, EI, Cd, Ca, CdAx, CaAx = t
    w = abs(m - RHO * math.pi * d * d / 4) * G
    reach = max(chord + sum(A for A in (amp_lim_used(c),)), chord)
    eps = max(0.0, reach / L - 1) + 0.01
    drag = 0.5 * RHO * Cd * d * L * (v_m + u + 1) ** 2
    inertia = (m + RHO * math.pi * d * d / 4 * Ca) * L * (a_m + a_w + 1)
    c["tension_bound"] = 3 * (w * L + EA * eps + drag + inertia) + 1e3
    # The round-off floor of the nodal forces (spec "Convergence": 16 eps max(EA/L0) max(|q|, L0)),
    # with the twin's translation: tensions of two frames agree only to a multiple of it.
    reachmax = max(max(abs(x) for x in ln["anch"][:2] + ln["fair"][:2]) for ln in lines) + 1000
    c["force_floor"] = 16 * 2.2e-16 * EA / (L / segs) * max(reachmax, h)
    return c


def max_offset(lines, L):
    """The largest offset of the fairleads along x, y and z that keeps every chord below
    1.005 L (a slack-and-snap range, not a line stretched beyond its material)."""
    out = {}
    for axis, e in (("surge", (1, 0, 0)), ("sway", (0, 1, 0)), ("heave", (0, 0, 1))):
        lim = 1e9
        for ln in lines:
            for sgn in (1, -1):
                lo, hi = 0.0, 2 * L
                for _ in range(60):
                    mid = 0.5 * (lo + hi)
                    f = [ln["fair"][i] + sgn * mid * e[i] for i in range(3)]
                    ch = math.dist(f, ln["anch"])
                    if ch <= 1.005 * L and f[2] < -0.5:
                        lo = mid
                    else:
                        hi = mid
                lim = min(lim, lo)
        out[axis] = max(lim, 0.0)
    return out


def amp_lim_used(c):
    m = c["motion"]
    if m[0] == "harmonic":
        return m[2]
    if m[0] == "table":
        return sum(abs(A) for A, _, _, _ in m[2])
    return 0.0


def rotate(p, th, dx=0.0, dy=0.0):
    return (p[0] * math.cos(th) - p[1] * math.sin(th) + dx, p[0] * math.sin(th) + p[1] * math.cos(th) + dy, p[2])


def twin_transform(c, rng):
    """The twin's rotation (about the vertical axis through the origin) and translation: a
    rotation keeps every linear sea (the directions turn with the positions); a translation
    needs the phase of each wave component, so only decks in still water or an Airy wave (whose
    phase the deck gives) are translated; a harmonic surge or sway has an axis: not rotated."""
    th = rng.uniform(0, 2 * math.pi)
    dx, dy = rng.uniform(-500, 500), rng.uniform(-500, 500)
    if c["motion"][0] == "harmonic" and c["motion"][1] in ("surge", "sway"):
        th = 0.0
    if c["waves"][0] == "jonswap":
        dx = dy = 0.0
    if th == 0.0 and dx == 0.0 and dy == 0.0:
        dx = 100.0 if c["waves"][0] != "jonswap" else 0.0
    return th, dx, dy


def table_rows(c, th, dx, dy):
    ds, comps = c["motion"][1], c["motion"][2]
    tmax = c["dtM"] * c["steps"]
    n = int(math.ceil(tmax / ds)) + 2
    rows = []
    for i in range(n + 1):
        t = i * ds
        ox = sum(A * math.sin(2 * math.pi * t / T + p) * math.cos(b) for A, T, p, b in comps)
        oy = sum(A * math.sin(2 * math.pi * t / T + p) * math.sin(b) for A, T, p, b in comps)
        row = [t]
        for ln in c["lines"]:
            f = (ln["fair"][0] + ox, ln["fair"][1] + oy, ln["fair"][2])
            row += list(rotate(f, th, dx, dy))
        rows.append(row)
    return rows


def write_deck(c, path, th=0.0, dx=0.0, dy=0.0):
    name, d, m, EA, BA, EI, Cd, Ca, CdAx, CaAx = c["type"]
    n = len(c["lines"])
    out = ["--------------------- MoorDyn Input File ---------------------",
           "campaign case %d (seed %d): %d %s line(s), %s, depth %.1f m%s" %
           (c["index"], c["seed"], n, name, c["mode"], c["depth"], "" if th == 0 and dx == 0 and dy == 0 else
            ", twin rotated %.6f rad, moved (%.3f, %.3f) m" % (th, dx, dy)),
           "---------------------- LINE TYPES ----------------------",
           "TypeName Diam Mass/m EA BA/-zeta EI Cd Ca CdAx CaAx",
           "%s %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g" % (name, d, m, EA, BA, EI, Cd, Ca, CdAx, CaAx),
           "---------------------- POINTS ----------------------",
           "ID Type X Y Z Mass Volume CdA Ca"]
    for k, ln in enumerate(c["lines"]):
        a = rotate(ln["anch"], th, dx, dy)
        out.append("%d Fixed %.17g %.17g %.17g 0 0 0 0" % (k + 1, a[0], a[1], a[2]))
    for k, ln in enumerate(c["lines"]):
        f = rotate(ln["fair"], th, dx, dy)
        out.append("%d Vessel %.17g %.17g %.17g 0 0 0 0" % (n + k + 1, f[0], f[1], f[2]))
    out.append("---------------------- LINES ----------------------")
    if c["dialect"] == "moordyn":
        out.append("ID LineType AttachA AttachB UnstrLen NumSegs LineOutputs")
        for k, ln in enumerate(c["lines"]):
            out.append("%d %s %d %d %.17g %d -" % (k + 1, name, k + 1, n + k + 1, ln["L"], ln["segs"]))
    else:
        out.append("ID NodeA NodeB Outputs")
        for k, ln in enumerate(c["lines"]):
            out.append("%d %d %d -" % (k + 1, n + k + 1, k + 1))
        out.append("---------------------- SECTIONS ----------------------")
        for k, ln in enumerate(c["lines"]):
            out.append("%d %s %.17g %d" % (k + 1, name, ln["L"], ln["segs"]))
    out.append("---------------------- OPTIONS ----------------------")
    out += ["%.17g WtrDpth" % c["depth"], "3.0e6 kBot", "3.0e5 cBot", "%.17g dtM" % c["dtM"],
            "%.17g TMax" % (c["dtM"] * c["steps"]), "0 WriteUnits"]
    cur = c["current"]
    if cur[0] == "uniform":
        v = rotate((cur[1], cur[2], 0), th)
        out.append("uniform current %.17g %.17g 0" % (v[0], v[1]))
    elif cur[0] == "profile":
        _, zb, s0, _, s1, dr = cur
        v0 = rotate((s0 * math.cos(dr), s0 * math.sin(dr), 0), th)
        v1 = rotate((s1 * math.cos(dr), s1 * math.sin(dr), 0), th)
        out.append("profile current %.17g %.17g %.17g 0 0 %.17g %.17g 0" % (zb, v0[0], v0[1], v1[0], v1[1]))
    wv = c["waves"]
    if wv[0] == "airy":
        _, H, T, dr, ph = wv
        k = dispersion(2 * math.pi / T, c["depth"])
        e = (math.cos(math.radians(dr + math.degrees(th))), math.sin(math.radians(dr + math.degrees(th))))
        # The translation shifts the phase the moored system sees by -k (d . e).
        ph2 = ph - math.degrees(k * (dx * e[0] + dy * e[1]))
        out.append("airy waves %.17g %.17g %.17g %.17g" % (H, T, dr + math.degrees(th), ph2))
    elif wv[0] == "jonswap":
        _, Hs, Tp, dr, s, seed = wv
        out += ["jonswap waves %.17g %.17g 3.3 %.17g %g" % (Hs, Tp, dr + math.degrees(th), s), "%d WaveSeed" % seed,
                "40 WaveComponents", "5 WaveDirections"]
    mot = c["motion"]
    if mot[0] == "harmonic":
        out.append("%s fairleadMotion %.17g %.17g %.17g" % (mot[1], mot[2], mot[3], mot[4]))
    elif mot[0] == "table":
        mpath = os.path.splitext(path)[0] + "_motion.csv"
        with open(mpath, "w") as f:
            f.write("Time" + "".join(",x%d,y%d,z%d" % (k, k, k) for k in range(n)) + "\n")
            for r in table_rows(c, th, dx, dy):
                f.write(",".join("%.17g" % v for v in r) + "\n")
        out.append("%s motionFile" % os.path.basename(mpath))
    out.append("---------------------- OUTPUTS ----------------------")
    chans = []
    for k, ln in enumerate(c["lines"]):
        chans += ["FairTen%d" % (k + 1), "AnchTen%d" % (k + 1)]
    out.append(" ".join(chans))
    mid = c["lines"][0]["segs"] // 2
    out.append("Ten1N%d" % (mid + (0 if c["dialect"] == "moordyn" else 1)))
    out.append("Point%dFx Point%dFz" % (n + 1, n + 1))
    out.append("---------------------- need this line ----------------------")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def generate(seed, count, out):
    d = os.path.join(out, "decks")
    os.makedirs(d, exist_ok=True)
    for i in range(1, count + 1):
        c = generate_case(seed, i)
        rng = random.Random(seed * 7919 + i)
        th, dx, dy = twin_transform(c, rng)
        c["twin"] = (th, dx, dy)
        base = os.path.join(d, "case_%04d" % i)
        write_deck(c, base + ".dat")
        write_deck(c, base + "_twin.dat", th, dx, dy)
        with open(base + ".json", "w") as f:
            json.dump(c, f, indent=1)
    return count


# ---- running ------------------------------------------------------------------------------------


def read_table(path):
    """Header names and numeric rows of a tab-separated output (title and units rows skipped)."""
    names, rows = [], []
    with open(path) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if parts[0] == "Time(s)":
                names = parts
                continue
            try:
                rows.append([float(x) for x in parts])
            except ValueError:
                continue
    return names, rows


def run_driver(driver, deck, out_root, extra, timeout):
    cmd = [driver, "--quiet", "--out", out_root] + extra + [deck]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", ""
    msg = (p.stderr.strip().splitlines() or [""])[-1]
    return p.returncode, msg


NAMED = re.compile(r"^cabledyn: error: (InputError|SolveError|DomainError): ")


def spikes(t, y):
    """Times of one-step jumps above 8 times the local standard deviation of the jumps."""
    out = []
    d = [y[i] - y[i - 1] for i in range(1, len(y))]
    scale = max(abs(v) for v in y) if y else 0
    for i in range(3, len(d)):
        w = d[max(0, i - 10):i] + d[i + 1:i + 11]
        if len(w) < 6:
            continue
        mu = sum(w) / len(w)
        sd = math.sqrt(sum((v - mu) ** 2 for v in w) / len(w))
        if abs(d[i] - mu) > 8 * sd + 1e-6 * scale and abs(d[i]) > 1e-3 * scale:
            out.append((t[i + 1], abs(d[i])))
    return out


def check_case(driver, base, res_dir, timeout):
    """Runs one case and its twin; returns (outcome, [violations], detail)."""
    c = json.load(open(base + ".json"))
    name = os.path.basename(base)
    v = []
    steps, dt = c["steps"], c["dtM"]
    half = dt * (steps // 2)
    root = os.path.join(res_dir, name)
    rc, msg = run_driver(driver, base + ".dat", root, ["--restart-check", repr(half)], timeout)
    if rc == "timeout":
        return "hang", ["no answer in %g s" % timeout], ""
    if rc == 1:
        if "restart" in msg:
            return "error", ["restart not bit for bit: " + msg], msg
        if not NAMED.match(msg):
            return "error", ["unnamed error: " + msg], msg
        return "named error", [], msg[17:]
    if rc != 0:
        return "crash", ["exit status %s: %s" % (rc, msg)], msg
    # Outputs finite.
    names, rows = read_table(root + ".out")
    nnames, nrows = read_table(root + ".nodes.out")
    for r in rows + nrows:
        if not all(math.isfinite(x) for x in r):
            v.append("a non-finite output")
            break
    if len(rows) != steps + 1:
        v.append("%d output rows, expected %d" % (len(rows), steps + 1))
    # The static residual against the system's force scale; a summary without it is a violation.
    residuals = 0
    with open(root + ".summary.txt") as f:
        for line in f:
            m = re.search(r"^statics: .*residual ([^ ]+) N \(force scale ([^ ]+) N\)", line)
            if m:
                residuals += 1
                r, scale = (float(x) for x in m.groups())
                if not r <= 1e-5 * max(scale, 1.0):
                    v.append("static residual %g N above 1e-5 of the force scale %g N" % (r, scale))
    if residuals == 0:
        v.append("the summary gives no static residual")
    # Bounds.
    bound = c["tension_bound"]
    ei0 = c["type"][5] == 0
    for j, n in enumerate(names):
        col = [r[j] for r in rows]
        if n.startswith("FairTen") or n.startswith("AnchTen"):
            if max(col) > bound:
                v.append("%s reaches %.4g N, above the bound %.4g N" % (n, max(col), bound))
        if n.startswith("Ten") and ei0 and c["type"][4] == 0 and min(col) < -1e-6 * max(1.0, max(abs(x) for x in col)):
            v.append("%s negative on an undamped EI = 0 line: %g N" % (n, min(col)))
    # Spikes: repeated at dtM / 2 to tell a snap from a numerical artefact.
    t = [r[0] for r in rows]
    found = {}
    for j, n in enumerate(names):
        if n.startswith("FairTen"):
            s = spikes(t, [r[j] for r in rows])
            if s:
                found[n] = s
    if found:
        rc2, msg2 = run_driver(driver, base + ".dat", root + "_half", ["--dtm", repr(dt / 2)], timeout)
        if rc2 == 0:
            names2, rows2 = read_table(root + "_half.out")
            t2 = [r[0] for r in rows2]
            for n, s in found.items():
                j2 = names2.index(n)
                y2 = [r[j2] for r in rows2]
                for ts, jump in s:
                    # The largest one-step jump of the fine run around ts, twice (its steps are half).
                    near = [abs(y2[i] - y2[i - 1]) for i in range(1, len(y2)) if abs(t2[i] - ts) <= 1.01 * dt]
                    if near and 2 * max(near) < 0.25 * jump:
                        v.append("%s spike of %.4g N at t = %g s that dtM / 2 removes" % (n, jump, ts))
    # The twin.
    rc3, msg3 = run_driver(driver, base + "_twin.dat", root + "_twin", [], timeout)
    note = ""
    if rc3 != 0:
        v.append("the twin (rotated/moved) failed: %s %s" % (rc3, msg3))
    else:
        names3, rows3 = read_table(root + "_twin.out")
        early = max(5, steps // 10)
        for j, n in enumerate(names):
            if not (n.startswith("FairTen") or n.startswith("AnchTen")):
                continue
            j3 = names3.index(n)
            scale = max(max(abs(r[j]) for r in rows), 1.0)
            d0 = abs(rows[0][j] - rows3[0][j3])
            de = max(abs(a[j] - b[j3]) for a, b in zip(rows[:early + 1], rows3[:early + 1]))
            dl = max(abs(a[j] - b[j3]) for a, b in zip(rows, rows3))
            floor = c.get("force_floor", 0.0)
            if d0 > 1e-6 * scale + 10 * floor:
                v.append("%s of the twin differs at t = 0 (the static state, loaded by the motion's initial velocity) by %.3g N (%.2g of %.4g N)" % (n, d0, d0 / scale, scale))
                break
            if de > 1e-5 * scale + 100 * floor:
                v.append("%s of the twin differs by %.3g N in the first %d steps (%.2g of %.4g N)" %
                         (n, de, early, de / scale, scale))
                break
            if dl > 1e-3 * scale and not note:
                note = "the twin drifts later: %s by %.2g of its largest" % (n, dl / scale)
    if not v:
        return "runs", v, note
    # A violation the driver itself notes (its summary names the cause) is explained, not
    # silent: a spike where a step kept its plain (unresolved) solve, a twin whose statics
    # reached the mirror image of a buckled equilibrium.
    text = ""
    for suffix in (".summary.txt", "_twin.summary.txt"):
        if os.path.exists(root + suffix):
            text += open(root + suffix).read()
    why = []
    for x in v:
        if "spike" in x and "kept the plain step" in text:
            why.append(x + " (explained: the summary notes steps that kept the plain step)")
        elif "of the twin differs" in x and "leaves the vertical plane" in text:
            why.append(x + " (explained: the summary notes a buckled equilibrium out of the plane)")
        else:
            return "violation", v, note
    return "explained", why, note


def run(folder, driver, jobs, timeout):
    decks = sorted(os.path.join(folder, "decks", f[:-5]) for f in os.listdir(os.path.join(folder, "decks"))
                   if f.endswith(".json"))
    res = os.path.join(folder, "results")
    os.makedirs(res, exist_ok=True)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as ex:
        out = list(ex.map(lambda b: (b, check_case(driver, b, res, timeout)), decks))
    fail_dir = os.path.join(folder, "failing")
    counts = {}
    lines = ["| case | lines | type | mode | sea | motion | dtM | outcome | detail |", "|---|---|---|---|---|---|---|---|---|"]
    bad = 0
    for b, (outcome, v, detail) in out:
        c = json.load(open(b + ".json"))
        counts[outcome] = counts.get(outcome, 0) + 1
        if v:
            bad += outcome != "explained"
            os.makedirs(fail_dir, exist_ok=True)
            for suffix in (".dat", "_twin.dat", ".json", "_motion.csv", "_twin_motion.csv"):
                if os.path.exists(b + suffix):
                    shutil.copy(b + suffix, fail_dir)
        sea = c["waves"][0] + ("+" + c["current"][0] if c["current"][0] != "none" else "")
        lines.append("| %s | %d | %s | %s | %s | %s | %g | %s | %s |" % (
            os.path.basename(b), len(c["lines"]), c["type"][0], c["mode"], sea, c["motion"][0], c["dtM"], outcome,
            "; ".join(v) if v else detail[:120].replace("|", "/")))
    summary = "%d decks: " % len(out) + ", ".join("%d %s" % (counts[k], k) for k in sorted(counts))
    with open(os.path.join(folder, "report.md"), "w") as f:
        f.write("# Campaign report\n\n" + summary + "\n\n" + "\n".join(lines) + "\n")
    print(summary)
    for b, (outcome, v, detail) in out:
        if v:
            print("%s: %s: %s" % (os.path.basename(b), outcome, "; ".join(v)))
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("generate")
    r = sub.add_parser("run")
    a = sub.add_parser("all")
    for p in (g, a):
        p.add_argument("--seed", type=int, default=1)
        p.add_argument("--count", type=int, default=40)
        p.add_argument("--out", required=True)
    r.add_argument("folder")
    for p in (r, a):
        p.add_argument("--driver", default=os.path.join(HERE, "..", "build", "release", "examples", "cabledyn"))
        p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
        p.add_argument("--timeout", type=float, default=600)
    args = ap.parse_args()
    if args.cmd in ("generate", "all"):
        generate(args.seed, args.count, args.out)
        if args.cmd == "generate":
            print("generated %d decks in %s" % (args.count, os.path.join(args.out, "decks")))
            return 0
    folder = args.folder if args.cmd == "run" else args.out
    if not os.access(args.driver, os.X_OK):
        sys.exit("campaign: no driver at %s (tools/run.sh --help builds it)" % args.driver)
    return 1 if run(folder, args.driver, args.jobs, args.timeout) else 0


if __name__ == "__main__":
    sys.exit(main())
