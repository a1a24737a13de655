"""Merge tables files preset by preset: retrain some presets without touching the others.

Each preset of a tables file depends only on its own training (seed, hands, rounds) and card
removal pass, so a file can hold presets made by different commands. ``merge`` takes every
preset of ``NEW`` and the other presets of ``BASE``, and records, per preset, the commands that
made it (what ``meta["by_preset"]`` reads), so the shipped file keeps saying how each part was
made:

    python -m solver.games.capsa.strategy.merge BASE.npz NEW.npz -o OUT.npz
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import numpy as np

from solver.errors import InputError
from solver.games.capsa.strategy.tables import TRAINED_PRESETS, load_raw, write_arrays


def _origin(meta: dict, preset: str) -> dict[str, Any]:
    """What made ``preset`` in a file whose metadata is ``meta`` (a merged file keeps its own
    per-preset record; a file from one training run is described by its top level)."""
    by_preset = meta.get("by_preset") or {}
    if preset in by_preset and "train" in by_preset[preset]:
        return dict(by_preset[preset])
    last = meta.get("last_change")
    removal = meta.get("removal") or {}
    train = next((c for c in meta.get("commands", [])
                  if preset in c.split("--presets")[-1].split(" -o")[0].split()), meta.get("command"))
    known = by_preset.get(preset, {})
    return {"train": train, "seed": meta.get("seed"),
            "hands_per_round": known.get("hands_per_round", meta.get("hands_per_round")),
            "rounds": known.get("rounds", meta.get("rounds")),
            "last_change": known.get("last_change",
                                     last.get(preset) if isinstance(last, dict) else last),
            "removal": removal.get("command") if preset in removal.get("presets", ()) else None,
            "alpha_scale": (removal.get("alpha_scale") or {}).get(preset),
            "suit_scale": (removal.get("suit_scale") or {}).get(preset),
            **({"removal_rounds": removal["rounds"]}
               if removal.get("rounds") and preset in removal.get("presets", ()) else {})}


def merge(base: str | Path, new: str | Path, out: str | Path) -> dict[str, Any]:
    """Write ``out``: every preset of ``new``, the others from ``base``; returns its metadata."""
    raws = {"base": load_raw(str(base)), "new": load_raw(str(new))}
    taken = [p for p in TRAINED_PRESETS if p in raws["new"]]
    if not taken:
        raise InputError(f"{new} holds no trained preset")
    arrays: dict[str, np.ndarray] = {}
    by_preset: dict[str, dict[str, Any]] = {}
    for preset in TRAINED_PRESETS:
        source = "new" if preset in taken else "base"
        raw = raws[source]
        if preset not in raw:
            continue
        for name, value in raw[preset].items():
            arrays[f"{preset}/{name}"] = (np.array(value) if name in ("alpha", "suit_scale") else
                                          value.astype(np.int64) if name in ("hist", "naturals")
                                          else value.astype(np.float32))
        by_preset[preset] = _origin(raw["meta"], preset)
    commands = list(dict.fromkeys(c for o in by_preset.values() for c in (o["train"], o["removal"]) if c))
    meta: dict[str, Any] = {
        "format": 1, "presets": list(by_preset), "by_preset": by_preset, "commands": commands,
        "command": " ; ".join(commands),
        "hands_per_round": min(int(o["hands_per_round"] or 0) for o in by_preset.values()),
        "merged": f"python -m solver.games.capsa.strategy.merge {Path(base).name} "
                  f"{Path(new).name} -o {Path(out).name}",
        "note": "each preset is reproduced by its own commands (by_preset)"}
    write_arrays(Path(out), arrays, meta)
    return meta


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m solver.games.capsa.strategy.merge",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("base", type=Path, help="tables file the other presets come from")
    ap.add_argument("new", type=Path, help="tables file whose presets replace the base's")
    ap.add_argument("-o", "--output", type=Path, required=True)
    args = ap.parse_args(argv)
    try:
        meta = merge(args.base, args.new, args.output)
    except (InputError, OSError, KeyError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {args.output}: {', '.join(meta['presets'])}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
