"""The stability gate alone on kept game videos, against the renderer's hands.

    python3 bench/stability.py DIR... [--set change=18 ...] [--min-area 400] [--verbose]

DIR holds the videos and truth that ``bench/tracking.py --keep DIR`` wrote
(``game-*.mp4`` with its ``.frames.jsonl.gz``). Each video goes through a
fresh ``StabilityGate`` (no models, so a set of videos takes seconds each)
and the gate's states are compared with the hand polygons of the truth:

* false rests: frames the gate calls stable while a hand covers at least
  ``--min-area`` pixels of the picture (the tracker reads such a table);
* missed rests: stretches of six or more frames with no hand in the picture
  in which the gate finds no stable frame (two moves then fall between two
  tables at rest).

``--set NAME=VALUE`` overrides one field of ``GateSettings`` to compare
thresholds on the same videos in one run of the same code.
"""

from __future__ import annotations

import argparse
import dataclasses
import gzip
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from spider_vision.tracking import GateSettings, StabilityGate  # noqa: E402

REST_FRAMES = 6
"""Frames without a hand that make a rest the gate should see (its hold is three)."""


def _settings(overrides: list[str]) -> GateSettings:
    base = GateSettings()
    values = {}
    for item in overrides:
        name, _, value = item.partition("=")
        if not hasattr(base, name):
            raise SystemExit(f"stability.py: GateSettings has no field {name!r}")
        values[name] = type(getattr(base, name))(float(value))
    return dataclasses.replace(base, **values)


def _hand_area(polygons: list | None, size: tuple[int, int]) -> int:
    mask = np.zeros((size[1], size[0]), np.uint8)
    for polygon in polygons or []:
        cv2.fillPoly(mask, [np.round(np.asarray(polygon)).astype(np.int32)], 1)
    return int(mask.sum())


def _runs(frames: list[int]) -> list[tuple[int, int]]:
    runs: list[tuple[int, int]] = []
    for frame in frames:
        if runs and runs[-1][1] == frame - 1:
            runs[-1] = (runs[-1][0], frame)
        else:
            runs.append((frame, frame))
    return runs


def one_video(path: Path, settings: GateSettings, min_area: int) -> dict:
    """The gate's false and missed rests on one video."""
    truth = [json.loads(line) for line in gzip.open(path.with_name(f"{path.stem}.frames.jsonl.gz"), "rt")]
    capture = cv2.VideoCapture(str(path))
    gate = StabilityGate(settings)
    states: list[str] = []
    hands: list[bool] = []
    while len(states) < len(truth):
        ok, image = capture.read()
        if not ok:
            break
        states.append(gate.update(image))
        hands.append(_hand_area(truth[len(hands)]["hands"], (image.shape[1], image.shape[0])) >= min_area)
    capture.release()
    false = [k for k, (state, hand) in enumerate(zip(states, hands)) if state == "stable" and hand]
    rests = [(a, b) for a, b in _runs([k for k, hand in enumerate(hands) if not hand]) if b - a + 1 >= REST_FRAMES]
    missed = [(a, b) for a, b in rests if "stable" not in states[a:b + 1]]
    return {"video": path.name, "frames": len(states), "false_rest_frames": len(false),
            "false_rests": _runs(false), "rests": len(rests), "missed_rests": missed}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--min-area", type=int, default=400, help="pixels of hand that count as a hand (default 400)")
    parser.add_argument("--verbose", action="store_true", help="print each video's false and missed rests")
    args = parser.parse_args()
    settings = _settings(args.overrides)
    videos = sorted(path for folder in args.folders for path in folder.glob("game-*.mp4"))
    if not videos:
        raise SystemExit("stability.py: no game-*.mp4 in " + " ".join(map(str, args.folders)))
    total = {"videos": 0, "false_rest_frames": 0, "false_rests": 0, "rests": 0, "missed_rests": 0}
    for path in videos:
        row = one_video(path, settings, args.min_area)
        total["videos"] += 1
        total["false_rest_frames"] += row["false_rest_frames"]
        total["false_rests"] += len(row["false_rests"])
        total["rests"] += row["rests"]
        total["missed_rests"] += len(row["missed_rests"])
        if args.verbose and (row["false_rests"] or row["missed_rests"]):
            print(json.dumps(row), flush=True)
    shown = ("change", "inset", "presence", "frozen_border", "local_motion", "rest_noise")
    print(json.dumps({"settings": {name: getattr(settings, name) for name in shown},
                      **total}))


if __name__ == "__main__":
    main()
