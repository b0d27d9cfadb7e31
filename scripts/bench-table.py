#!/usr/bin/env python3
"""Turn criterion's results for `cargo bench --bench mldsa` into a markdown table.

Reads target/criterion/<group>/<bench>/new/{benchmark,estimates}.json (ids like
`mldsa65/verify/quasar`) and prints, per parameter set and operation, median and mean in µs/op
for quasar-pq and each peer, and the ratio quasar / peer (medians; below 1 means quasar is
faster). The header records machine, OS, toolchain, date, commit and the regenerating command,
as STYLE §2.10 asks.

Usage: python3 scripts/bench-table.py [--criterion-dir DIR] [--out FILE]
"""
import argparse
import datetime
import json
import os
import platform
import subprocess
import sys

OURS = "quasar"
PEERS = ["quasar-avx2", "quasar-portable", "libcrux", "pqclean", "fips204", "rustcrypto", "libcrux-portable"]
PEER_LABEL = {
    "quasar-avx2": "quasar-pq with its four-way Keccak held to AVX2, libcrux's width (only with `--features bench-internals`)",
    "quasar-portable": "quasar-pq without SIMD: portable NTT kernels and scalar Keccak (only with `--features bench-internals`)",
    "pqclean": "PQClean through pqcrypto-mldsa 0.1.2 (AVX2 dispatch; hedged signing, random keys)",
    "rustcrypto": "RustCrypto ml-dsa 0.1",
    "fips204": "fips204 0.5",
    "libcrux": "libcrux-ml-dsa 0.0.11 (AVX2 dispatch)",
    "libcrux-portable": "libcrux-ml-dsa 0.0.11 (portable)",
}
SETS = ["mldsa44", "mldsa65", "mldsa87"]
OPS = ["keygen", "sign", "verify"]


def sh(*cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.strip()
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


def load(criterion_dir):
    results = {}
    for root, _dirs, files in os.walk(criterion_dir):
        if os.path.basename(root) != "new" or "estimates.json" not in files:
            continue
        with open(os.path.join(root, "benchmark.json")) as f:
            bench = json.load(f)
        with open(os.path.join(root, "estimates.json")) as f:
            est = json.load(f)
        full_id = bench.get("full_id") or f"{bench['group_id']}/{bench['function_id']}"
        parts = full_id.split("/")
        if len(parts) != 3 or parts[0] not in SETS:
            continue
        set_, op, impl = parts
        results[(set_, op, impl)] = (
            est["median"]["point_estimate"] / 1000.0,
            est["mean"]["point_estimate"] / 1000.0,
        )
    return results


def fmt_us(x):
    if x >= 100:
        return f"{x:.0f}"
    if x >= 10:
        return f"{x:.1f}"
    return f"{x:.2f}"


def table(results):
    impls = [OURS] + [p for p in PEERS if any(k[2] == p for k in results)]
    lines = []
    head = ["set", "op", "quasar (median / mean)"]
    for p in impls[1:]:
        head += [f"{p} (median / mean)", f"quasar ÷ {p}"]
    lines.append("| " + " | ".join(head) + " |")
    lines.append("|" + "|".join(["---"] * 2 + ["---:"] * (len(head) - 2)) + "|")
    for s in SETS:
        for op in OPS:
            ours = results.get((s, op, OURS))
            if ours is None:
                continue
            row = [s.replace("mldsa", "ML-DSA-"), op, f"{fmt_us(ours[0])} / {fmt_us(ours[1])}"]
            for p in impls[1:]:
                peer = results.get((s, op, p))
                if peer is None:
                    row += ["—", "—"]
                else:
                    row += [f"{fmt_us(peer[0])} / {fmt_us(peer[1])}", f"{ours[0] / peer[0]:.2f}×"]
            lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines), impls


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    ap.add_argument("--criterion-dir", default=os.path.join(root, "target", "criterion"))
    ap.add_argument("--out", help="also write the markdown here")
    args = ap.parse_args()

    results = load(args.criterion_dir)
    if not results:
        sys.exit(f"no mldsa results under {args.criterion_dir}; run `cargo bench --bench mldsa` first")
    body, impls = table(results)
    commit = sh("git", "-C", root, "rev-parse", "--short", "HEAD") or "uncommitted"
    dirty = sh("git", "-C", root, "status", "--porcelain", "--untracked-files=no")
    if dirty:
        commit += " (+ uncommitted changes)"
    newest = max(
        os.path.getmtime(os.path.join(dp, f))
        for dp, _d, fs in os.walk(args.criterion_dir)
        for f in fs
        if f == "estimates.json" and os.path.basename(dp) == "new"
    )
    when = datetime.datetime.fromtimestamp(newest, datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    out = [
        "### ML-DSA, native (µs/op, lower is better)",
        "",
        f"- Machine: {cpu_model()}, {os.cpu_count()} cores visible; criterion runs each benchmark on one thread",
        f"- OS: {os_name()}",
        f"- Rust: {sh('rustc', '--version') or 'unknown'}",
        "- Build: `cargo bench` profile `bench` (opt-level 3, fat LTO, codegen-units 1), no `-C target-cpu`",
        f"- Date of the run: {when}; commit {commit}",
        "- Regenerate: `cargo bench --bench mldsa && python3 scripts/bench-table.py`",
        "- Inputs: fixed labelled seeds (SHAKE256 of `quasar-pq/bench/mldsaNN/seed`), a fixed 64-byte message, "
        "empty context. keygen = seed → pk, sk bytes; sign = deterministic pure sign from sk bytes; "
        "verify = pure verify from pk bytes (all implementations decode keys on every call)",
        "- Peers: " + "; ".join(f"`{p}` = {PEER_LABEL.get(p, p)}" for p in impls[1:]),
        "- Ratio = quasar median ÷ peer median: below 1.00× quasar is faster, above it is slower",
        "",
        body,
        "",
    ]
    text = "\n".join(out)
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
