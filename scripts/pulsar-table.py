#!/usr/bin/env python3
"""Markdown tables for `cargo bench --bench pulsar --features sim`, in the seed's shapes, with ratios to the seed.

Reads target/pulsar-bench.json, written by benches/pulsar.rs: per id the median and mean of
individual operations (each timed alone), the harness (criterion or plain) and the load average
before and after the run. Prints, as STYLE §2.10 asks, the machine, OS, toolchain, build flags,
date, commit and the regenerating command, then:

1. the K = 21 (t = 14) ML-DSA-65 ceremony per phase and per party, next to the seed's
   `LocalRun(5)` figures (M1 Max), with Combine ÷ one plain ML-DSA-65 sign;
2. what Combine is made of;
3. reshare n → n (t = ⌈2n/3⌉) with the activation round (proofs of possession, the certificate), total
   and per party, next to the seed's `BenchmarkPulsarReshare` (t = n, per party = total ÷ n);
4. the six transitions next to the seed's figures.

Ratios are seed ÷ this (how many times faster this is; below 1 means slower).

Per-party figures are one party's own steps (benches/common replays a reference run through the library's
parties), never a total ÷ n.

Usage: python3 scripts/pulsar-table.py [--results FILE] [--out FILE]
"""
import argparse
import json
import os
import platform
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The seed's figures (milliseconds), as published.
SEED_K21 = {  # phase: (mean, median)
    "Gen": (8.475, 8.475),
    "SignRound1": (40.789, 40.742),
    "SignRound2Preprocess": (112.869, 112.541),
    "SignRound2": (6.532, 6.532),
    "SignFinalize": (0.090, None),
    "Verify": (0.950, None),
    "Total Signing": (160.190, 159.987),
}
SEED_MLDSA65_SIGN = 2.63  # ms, single-party Pulsar-65 Sign (REPORT.md, M1 Max)
SEED_RESHARE = {21: (12.67e3, 603.0), 64: (156.61e3, 2447.0), 128: (1212.74e3, 9474.0)}  # ms: total, total ÷ n
SEED_TRANSITIONS = {
    "21->21 refresh": 720.0,
    "21->21 new set": 960.0,
    "21->64 new set": 1820.0,
    "64->21 new set": 1080.0,
    "64->128 new set": 3460.0,
    "128->64 new set": 1820.0,
}
SAME = [3, 7, 21, 64, 128]
TRANSITIONS = [
    ("21->21 refresh", "21 → 21 (refresh, same set; all 21 deal)"),
    ("21->21 new set", "21 → 21 (reshare, new set)"),
    ("21->64 new set", "21 → 64 (expansion, new set)"),
    ("64->21 new set", "64 → 21 (contraction, new set)"),
    ("64->128 new set", "64 → 128 (expansion, new set)"),
    ("128->64 new set", "128 → 64 (contraction, new set)"),
]


def sh(*cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, check=True, cwd=ROOT).stdout.strip()
    except Exception:
        return None


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def os_name():
    try:
        with open("/etc/os-release") as f:
            kv = dict(l.rstrip("\n").split("=", 1) for l in f if "=" in l)
        return kv.get("PRETTY_NAME", "").strip('"') + f" (Linux {platform.release()})"
    except OSError:
        return platform.platform()


def two_thirds(n):
    return -(-2 * n // 3)


def fmt_ms(ms):
    if ms is None:
        return "–"
    if ms < 1.0:
        return f"{ms * 1000:.0f} µs" if ms >= 0.01 else f"{ms * 1000:.1f} µs"
    if ms < 1000.0:
        return f"{ms:.2f} ms"
    return f"{ms / 1000:.2f} s"


def fmt_ratio(seed, ours):
    if seed is None or ours is None or ours == 0:
        return "–"
    r = seed / ours
    if r >= 100:
        return f"{r:,.0f}×"
    if r >= 10:
        return f"{r:.0f}×"
    return f"{r:.2f}×"


class Results:
    def __init__(self, path):
        with open(path) as f:
            self.doc = json.load(f)["results"]

    def get(self, key, what="median_ns"):
        e = self.doc.get(key)
        return None if e is None else e[what] / 1e6  # ms

    def med(self, key):
        return self.get(key, "median_ns")

    def mean(self, key):
        return self.get(key, "mean_ns")

    def meta(self):
        starts = sorted({e["started"] for e in self.doc.values() if e.get("started")})
        loads = sorted({e["load_before"] for e in self.doc.values()} | {e["load_after"] for e in self.doc.values()})
        return starts, loads


def add(*xs):
    return None if any(x is None for x in xs) else sum(xs)


def header(res, out):
    starts, loads = res.meta()
    commit = sh("git", "rev-parse", "--short", "HEAD") or "unknown"
    dirty = sh("git", "status", "--porcelain", "--", "crate", "benches", "Cargo.toml")
    rustc = sh("rustc", "--version") or "unknown rustc"
    node = sh("node", "--version") or "not installed"
    ncpu = os.cpu_count()
    one_min = [float(l.split()[0]) for l in loads if l]
    w = out.append
    w(f"- Machine: {cpu_model()}, {ncpu} vCPUs (KVM), shared with other builds; the bench is single-threaded.")
    if one_min:
        w(f"  Load average (1 min) seen at start/end of the runs: {min(one_min):.2f}–{max(one_min):.2f} "
          f"on {ncpu} cores (this bench's own thread counts 1), so whole-run wall times include waiting for the CPU; medians of short steps are "
          "little affected. Rerun on a quiet machine for publication.")
    w(f"- OS: {os_name()}; {rustc}; Node {node} (not used here).")
    w("- Build: `[profile.bench]` = release + `lto = \"fat\"`, `codegen-units = 1`, `opt-level = 3`; no RUSTFLAGS "
      "(no `target-cpu=native`); harness built with `panic = \"unwind\"` as cargo always builds bench harnesses.")
    w(f"- Date: {', '.join(starts) if starts else 'unknown'}; commit `{commit}`"
      + (" plus uncommitted changes in the tree" if dirty else "") + ".")
    w("- Command: `cargo bench --bench pulsar --features sim && python3 scripts/pulsar-table.py` "
      "(n = 128 totals: plain harness, `PULSAR_BENCH_RUNS` runs, default 3). While the tree's `[[bin]]` targets "
      "are built with `panic = \"abort\"` next to the unwinding bench harness, cargo may write two different "
      "`libquasar_pq.rlib` to one path (\"output filename collision\") and fail to link a bin; prefix "
      "`CARGO_PROFILE_RELEASE_PANIC=unwind CARGO_TARGET_DIR=target/pulsar-target` (the measured code is the same: "
      "the harness always links the unwinding build).")
    w("- Seeds: fixed and labelled: each party's ChaCha20 from `party::sim::party_rng(\"quasar-pq/bench/\" ‖ label, id)`, "
      "so reruns are comparable.")
    w("- Seed figures: luxfi/pulsar `LocalRun(5)` at K = 21 and `BenchmarkPulsarReshare` (Go, Apple M1 Max, 10 cores), "
      "as published; different machine, so ratios are indicative. Ratio = seed ÷ this (× faster; < 1 is slower).")
    w("")


def k21(res, out):
    p = "pulsar/k21/"
    m, a = (lambda k: res.med(p + k)), (lambda k: res.mean(p + k))
    w = out.append
    w("### K = 21 (t = 14) ML-DSA-65 ceremony, per phase (ms/op, lower is better)")
    w("")
    w("Per-party rows time one party's step, from the bytes it receives to the bytes it sends; never a total ÷ n.")
    w("")
    w("| Phase | Median | Mean | Seed phase | Seed mean | Seed median | Ratio (mean) |")
    w("|---|---:|---:|---|---:|---:|---:|")
    kc = "Gen"
    rows = [
        ("Key ceremony, whole, one process (21-party DKG + derivation + certification + 21 stores)",
         "keyceremony-total", kc),
        ("  DKG deal (per party)", "dkg-deal", None),
        ("  DKG round 2: decode, check shares (per party)", "dkg-round2", None),
        ("  DKG round 3 (per party)", "dkg-round3", None),
        ("  DKG finalize (per party)", "dkg-finalize", None),
        ("  **DKG work per party (deal + round 2 + round 3 + finalize)**", "+dkg", kc),
        ("  Derivation round 1 (per signer)", "derive-round1", None),
        ("  Derivation round 2 (per signer)", "derive-round2", None),
        ("  Derivation combine (combiner: rebuild, keygen, proof)", "derive-combine", None),
        ("  Store: check announcement, certify the key (own proof, 20 proofs, certificate), keep share (per party)",
         "derive-store", None),
        ("Combiner setup: ML-KEM-768 keygen (per session)", "combiner-setup", None),
        ("Round 1 (per signer)", "sign-round1", "SignRound1"),
        ("Round 2 (per signer)", "sign-round2", "SignRound2Preprocess + SignRound2"),
        ("Combine (combiner's whole step)", "combine", "SignFinalize"),
        ("Verify (plain ML-DSA-65)", "verify", "Verify"),
    ]
    dkg_keys = ["dkg-deal", "dkg-round2", "dkg-round3", "dkg-finalize"]
    m0, a0 = m, a
    m = lambda k: add(*[m0(x) for x in dkg_keys]) if k == "+dkg" else m0(k)  # noqa: E731
    a = lambda k: add(*[a0(x) for x in dkg_keys]) if k == "+dkg" else a0(k)  # noqa: E731
    for label, key, seed in rows:
        if seed == "SignRound2Preprocess + SignRound2":
            s_mean = SEED_K21["SignRound2Preprocess"][0] + SEED_K21["SignRound2"][0]
            s_med = SEED_K21["SignRound2Preprocess"][1] + SEED_K21["SignRound2"][1]
        elif seed:
            s_mean, s_med = SEED_K21[seed]
        else:
            s_mean = s_med = None
        w(f"| {label} | {fmt_ms(m(key))} | {fmt_ms(a(key))} | {seed or ''} | {fmt_ms(s_mean)} | "
          f"{fmt_ms(s_med)} | {fmt_ratio(s_mean, a(key))} |")
    per_med = add(m("sign-round1"), m("sign-round2"))
    per_mean = add(a("sign-round1"), a("sign-round2"))
    w(f"| **Signing work per signer (round 1 + round 2)** | **{fmt_ms(per_med)}** | **{fmt_ms(per_mean)}** | "
      f"Total Signing (per party) | {fmt_ms(SEED_K21['Total Signing'][0])} | {fmt_ms(SEED_K21['Total Signing'][1])} | "
      f"**{fmt_ratio(SEED_K21['Total Signing'][0], per_mean)}** |")
    w(f"| Whole signing session, one process (combiner setup, 14 signers, combine) | {fmt_ms(m('sign-total'))} | "
      f"{fmt_ms(a('sign-total'))} | | | | |")
    w(f"| Plain ML-DSA-65 sign, hedged, from secret-key bytes | {fmt_ms(m('mldsa-sign'))} | {fmt_ms(a('mldsa-sign'))} | "
      f"Pulsar-65 Sign (single party) | {fmt_ms(SEED_MLDSA65_SIGN)} | | {fmt_ratio(SEED_MLDSA65_SIGN, a('mldsa-sign'))} |")
    w("")
    w("Comparability: the seed's phases are a different protocol (its rounds do lattice work; here round 1 seals "
      "the share to the combiner with ML-KEM-768 + XChaCha20-Poly1305 and round 2 only checks the others' "
      "commitments and releases the envelope), so compare the per-signer total. The seed's SignFinalize is a "
      "Lagrange combination without signing; Combine here rebuilds the key and runs FIPS 204 keygen, sign and "
      "verify. The seed's Gen is a single key generation, not a 21-party DKG.")
    w("")
    ratio_med = m("combine") / m("mldsa-sign") if m("combine") and m("mldsa-sign") else None
    ratio_mean = a("combine") / a("mldsa-sign") if a("combine") and a("mldsa-sign") else None
    w("Goals:")
    if per_mean is not None:
        w(f"- Per-party signing work under 2 ms: **{fmt_ms(per_mean)}** mean "
          f"({'met' if per_mean < 2.0 else 'NOT met'}; seed 160 ms).")
    if ratio_mean is not None:
        w(f"- Combine within 2× of one ML-DSA sign: Combine ÷ sign = **{ratio_med:.1f}×** (medians), "
          f"**{ratio_mean:.1f}×** (means): {'met' if ratio_mean <= 2.0 else 'NOT met'}.")
    w("")
    t = 14
    dec, chk = m("part-mlkem-decaps"), m("part-share-check")
    kg, sg, vf = m("mldsa-keygen"), m("mldsa-sign"), m("verify")
    w("### What Combine is made of (K = 21, t = 14; medians, each piece timed alone)")
    w("")
    w("| Piece | Per item | × count | Subtotal |")
    w("|---|---:|---:|---:|")
    pieces = [
        ("ML-KEM-768 decapsulation (one envelope)", dec, t),
        ("Share check against the Pedersen commitments (one share)", chk, t),
        ("ML-DSA-65 keygen from the rebuilt seed", kg, 1),
        ("ML-DSA-65 sign (hedged)", sg, 1),
        ("ML-DSA-65 verify of the result", vf, 1),
    ]
    total = 0.0
    for label, v, n in pieces:
        if v is None:
            continue
        total += v * n
        w(f"| {label} | {fmt_ms(v)} | {n} | {fmt_ms(v * n)} |")
    if m("combine") is not None:
        w(f"| Rest (session, decoding, commitments, AEAD, Lagrange, C_0 check, PULS) | | | "
          f"{fmt_ms(m('combine') - total)} |")
        w(f"| **Combine, measured** | | | **{fmt_ms(m('combine'))}** |")
    w("")


def reshare(res, out):
    w = out.append

    def get(case, step, stat="med"):
        k = f"pulsar/reshare/{case}/{step}"
        return res.med(k) if stat == "med" else res.mean(k)

    def harness(case):
        e = res.doc.get(f"pulsar/reshare/{case}/total")
        return None if e is None else (e["harness"], e["count"])

    def cpu(case):
        v = res.med(f"pulsar/reshare/{case}/total#cpu")
        wall = get(case, "total")
        return fmt_ms(v) if v is not None and wall is not None and wall >= 100 else "–"

    w("### Reshare n → n with the activation round (median time per run, lower is better)")
    w("")
    w("t = ⌈2n/3⌉, same set, a minimal quorum of t_old dealers, the dealing bound to the group key. **Total** = one "
      "process, every party through `party::sim`: LSS deal, decode, check, complain, respond, finalize (all "
      "verification), the activation round (every new member's proof of possession of its new share, every "
      "participant checking the others' proofs into the certificate), and each new member checking the "
      "certificate and storing its custody share. Per-party columns are one party's own steps on the inbox of a "
      "reference run: deal = one dealer's start; receive = the same party's rounds 1–3; activate = its activation "
      "round, the certificate check and storage. Seed: t = n, and its per-party figure is total ÷ n.")
    w("")
    w("| n | t | Total (wall) | Total (CPU) | Deal | Receive | Activate | Party total (deal + receive + activate) "
      "| Cert verify | Seed total | Seed per party (÷ n) | Ratio total | Ratio per party |")
    w("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n in SAME:
        case = f"{n}->{n}"
        tot = get(case, "total")
        party = add(get(case, "deal"), get(case, "receive"), get(case, "activate"))
        st, sp = SEED_RESHARE.get(n, (None, None))
        h = harness(case)
        note = f" ({h[1]} runs)" if h and h[0] == "plain" else ""
        w(f"| {n} | {two_thirds(n)} | {fmt_ms(tot)}{note} | {cpu(case)} | {fmt_ms(get(case, 'deal'))} | "
          f"{fmt_ms(get(case, 'receive'))} | {fmt_ms(get(case, 'activate'))} | {fmt_ms(party)} | "
          f"{fmt_ms(get(case, 'cert-verify'))} | {fmt_ms(st)} | {fmt_ms(sp)} | {fmt_ratio(st, tot)} | "
          f"{fmt_ratio(sp, party)} |")
    w("")
    tot128 = get("128->128", "total")
    if tot128 is not None:
        w(f"Goal: 128 → 128 reshare with activation under 1.5 s in one process: "
          f"**{fmt_ms(tot128)}** wall (median; mean {fmt_ms(get('128->128', 'total', 'mean'))}), "
          f"{'met' if tot128 < 1500 else 'NOT met'}; seed 1212.74 s → {fmt_ratio(1212.74e3, tot128)}.")
        w("")
    w("### Reshare transitions with the activation round (median time per run, lower is better)")
    w("")
    w("t = ⌈2n/3⌉ on both sides; new sets use fresh ids; dealers are the first t_old old parties (refresh: all 21). "
      "Deal is one old dealer; receive and activate are one new party; party total = the larger of an old "
      "dealer's work (deal) and a new party's (receive + activate), or their sum when one party does both.")
    w("")
    w("| Transition | Total (wall) | Total (CPU) | Deal | Receive | Activate | Party total | Cert verify | "
      "Seed Pulsar | Ratio total |")
    w("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for case, label in TRANSITIONS:
        tot = get(case, "total")
        d, r, s = get(case, "deal"), get(case, "receive"), get(case, "activate")
        if "refresh" in case:
            party = add(d, r, s)
        else:
            party = None if None in (d, r, s) else max(d, r + s)
        h = harness(case)
        note = f" ({h[1]} runs)" if h and h[0] == "plain" else ""
        seed = SEED_TRANSITIONS.get(case)
        w(f"| {label} | {fmt_ms(tot)}{note} | {cpu(case)} | {fmt_ms(d)} | {fmt_ms(r)} | {fmt_ms(s)} | "
          f"{fmt_ms(party)} | {fmt_ms(get(case, 'cert-verify'))} | {fmt_ms(seed)} | {fmt_ratio(seed, tot)} |")
    w("")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--results", default=os.path.join(ROOT, "target", "pulsar-bench.json"))
    ap.add_argument("--out")
    args = ap.parse_args()
    if not os.path.exists(args.results):
        sys.exit(f"{args.results} not found: run `cargo bench --bench pulsar --features sim` first")
    res = Results(args.results)
    out = []
    header(res, out)
    k21(res, out)
    reshare(res, out)
    text = "\n".join(out)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
