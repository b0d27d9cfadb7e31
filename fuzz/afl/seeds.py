#!/usr/bin/env python3
"""Writes the AFL++ seed corpora (in/pcgk, in/lsa2, in/qsnp) from the committed known-answer
vectors: every PCGK record (after its sharing: u32 length ‖ LSG1 ‖ PCGK) and LSA2 certificate of
kats/pulsar.json, and kats/snapshot-v1.hex."""
import json
import pathlib

HERE = pathlib.Path(__file__).resolve().parent
KATS = HERE.parent.parent / "kats"
seeds = {"pcgk": [], "lsa2": [], "qsnp": [bytes.fromhex(KATS.joinpath("snapshot-v1.hex").read_text().strip())]}
for case in json.loads(KATS.joinpath("pulsar.json").read_text())["cases"]:
    sharing = bytes.fromhex(case["sharing"])
    seeds["pcgk"].append(len(sharing).to_bytes(4, "big") + sharing + bytes.fromhex(case["group_key_record"]))
    seeds["lsa2"] += [bytes.fromhex(case["key_certificate"]), bytes.fromhex(case["activation_certificate"])]
for target, items in seeds.items():
    d = HERE / "in" / target
    d.mkdir(parents=True, exist_ok=True)
    for i, b in enumerate(items):
        (d / f"{i}.bin").write_bytes(b)
    print(f"{target}: {len(items)} seeds in {d.relative_to(HERE)}")
