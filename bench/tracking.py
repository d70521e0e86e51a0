"""Tracking a whole game from video: events found, rule breaks flagged, frames per second.

    python3 bench/tracking.py [--videos N] [--moves M] [--illegal K] [--blocked B] [--fps F] [--json OUT]
    python3 bench/tracking.py --combine OUT1 OUT2 ...    # the figures over several sets
    python3 bench/tracking.py --reuse --keep DIR --turn 1  # the same videos filmed from the table's side

Renders game videos with seeds the vision models never saw, in the card
style they were not trained on (procedural decks in the Caladea font), each
game a casual player's random play with K illegal tableau moves and B deals
with an empty column inserted (a deal where the player never empties a column
in time is passed over for the next). Tracks each video and compares its log with
the renderer's truth log:

* events: moves and deals (with their legality), flips (column and card),
  removals, and the reads of dealt cards (the truth log's deals name their
  cards in its positions; the tracker logs them as flips); precision and
  recall over the multiset of events. A flip counts with its card as the log
  finally has it: a misread that a later correction event fixes counts as
  read (the corrections are counted too);
* flags: rule breaks due (illegal moves and blocked deals in the truth),
  raised (flagged by the tracker on the same move), false (flagged where the
  truth has none); other flags (doubtful reads, ambiguities) are counted;
* the log replays consistently; the final face-up cards match the truth;
* frames per second processed (tracking only; the models loaded once).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import sys
import tempfile
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from spider_vision.engine import Deal, Position, apply_move, deal_position, reveal  # noqa: E402
from spider_vision.gamelog import (  # noqa: E402
    CorrectionEvent, FlipEvent, MoveEvent, NoteEvent, RemoveEvent, read_log, replay,
)
from spider_vision.synth import random_play, random_scene, render_game, style_names  # noqa: E402
from spider_vision.synth.video import video_noise  # noqa: E402
from spider_vision.tracking import Tracker, open_source  # noqa: E402
from spider_vision.tracking.identities import CardBook  # noqa: E402
from spider_vision.tracking.observation import allowed_classes  # noqa: E402
from spider_vision.vision import Models  # noqa: E402

HELD_OUT_STYLES = tuple(name for name in style_names() if name.startswith("proc-") and int(name[5:]) % 7 == 4)
"""The card style left out of the models' training (models/README.md)."""
FIRST_SEED = 700_000
DEAL_TRIES = 30
"""Deals tried per video for one where the casual player empties a column in time for its blocked deals."""
RULE_FLAGS = ("illegal-move", "blocked-deal")


def truth_keys(events_path: Path) -> tuple[list[tuple], list[tuple], Position]:
    """The truth log's event keys (deals add the reads of their cards), its rule breaks, the final position."""
    lines = [json.loads(line) for line in events_path.read_text().splitlines() if line.strip()]
    position = Position.from_spn(lines[0]["start"])
    keys: list[tuple] = []
    breaks: list[tuple] = []
    for event in lines[1:]:
        kind = event["kind"]
        if kind in ("move", "deal"):
            keys.append((kind, event["move"], event["legal"]))
            if not event["legal"]:
                breaks.append((kind, event["move"]))
            if kind == "deal":
                for column, card in enumerate(position.stock[:10]):
                    keys.append(("flip", "abcdefghij"[column], str(card)))
            position = Position.from_spn(event["after"])
        elif kind == "flip":
            keys.append(("flip", event["column"], event["card"]))
        elif kind == "remove":
            keys.append(("remove", event["column"], event["suit"]))
    return keys, breaks, position


def tracked_keys(log_path: Path) -> tuple[list[tuple], int]:
    """The tracker log's event keys, a flip naming its card as finally corrected; and the flips so corrected.

    A card read wrongly when it was turned over and corrected later (a
    correction event) counts as read right: the log says what it is.
    """
    log = read_log(log_path)
    position = log.header.start
    book = CardBook.for_position(position, allowed_classes(position.mode))
    keys: list[tuple] = []
    flip_of: dict[int, int] = {}
    corrected = 0
    taken: list[tuple[Position, tuple]] = []
    for logged in log.events:
        event = logged.event
        if isinstance(event, MoveEvent):
            keys.append((event.kind, str(event.move), event.legal))
            taken.append((position, book.snapshot()))
            step = apply_move(position, event.move, log.header.variant, force=not event.legal)
        elif isinstance(event, FlipEvent):
            slot = position.columns[event.column].up.index(None)
            flip_of[book.id_at(event.column, slot)] = len(keys)
            keys.append(("flip", "abcdefghij"[event.column], str(event.card)))
            step = reveal(position, event.column, event.card, log.header.variant)
        elif isinstance(event, RemoveEvent):
            keys.append(("remove", "abcdefghij"[event.column], event.suit))
            continue
        elif isinstance(event, CorrectionEvent):
            pile = position.columns[event.column]
            slot = event.index - len(pile.down)
            card_id = book.id_at(event.column, slot) if 0 <= slot < len(pile.up) else None
            if card_id in flip_of:
                key = keys[flip_of[card_id]]
                keys[flip_of[card_id]] = (key[0], key[1], str(event.now))
                corrected += 1
            position = Position.from_spn(event.after, validate=False)
            continue
        elif isinstance(event, NoteEvent) and event.undo is not None:
            keys.append(("undo", str(event.undo)))
            position, snapshot = taken.pop()
            book.restore(snapshot)
            continue
        else:
            continue
        book.follow(step)
        position = step.after
    return keys, corrected


def face_up_errors(tracked: Position, truth: Position) -> int:
    """Face-up cards of the truth the tracker has wrong or lacks (a wrong pile counts whole)."""
    errors = 0
    for mine, theirs in zip(tracked.columns, truth.columns):
        if len(mine.up) != len(theirs.up):
            errors += len(theirs.up)
        else:
            errors += sum(a != b for a, b in zip(mine.up, theirs.up))
    return errors


def one_video(number: int, args: argparse.Namespace, models: Models, folder: Path) -> dict:
    seed = args.seed + number
    rng = random.Random(seed)
    suits = args.suit_modes[number % len(args.suit_modes)]
    for _ in range(DEAL_TRIES):
        deal = rng.randrange(2**32)
        start = deal_position(deal, suits)
        steps = random_play(start, args.moves, seed, illegal=args.illegal, blocked_deals=args.blocked)
        if sum(isinstance(step.move, Deal) and not step.legal for step in steps) >= args.blocked:
            break
    scene = random_scene(seed, args.width, args.height).with_(deck=rng.choice(HELD_OUT_STYLES))
    path = folder / f"game-{seed}-{suits}.mp4"
    events = folder / f"game-{seed}-{suits}.events.jsonl"
    if not (args.reuse and path.exists() and events.exists()):
        render_game(start, steps, path, scene=scene, seed=seed, fps=args.fps, deal=deal, noise=args.noise)
    log = folder / f"game-{seed}-{suits}.track.jsonl"
    started = time.perf_counter()
    frames = 0
    with open_source(path) as source:
        tracker = Tracker(models, suits=suits, log_path=log, source_name="video")
        flags = []
        for frame in source:
            if args.turn:
                frame = replace(frame, image=np.ascontiguousarray(np.rot90(frame.image, args.turn)))
            frames += 1
            flags.extend(tracker.feed(frame).flags)
        tracker.close()
    seconds = time.perf_counter() - started
    truth, breaks, final = truth_keys(events)
    mine, corrected = tracked_keys(log)
    common = sum((Counter(truth) & Counter(mine)).values())
    flagged = [key[:2] for key in mine if key[0] in ("move", "deal") and not key[2]]
    raised = sum((Counter(breaks) & Counter(flagged)).values())
    replayed = replay(read_log(log))
    row = {
        "seed": seed, "deal": deal, "suits": suits, "deck": scene.deck,
        "noise": video_noise(scene, args.noise), "frames": frames,
        "seconds": round(seconds, 2), "fps": round(frames / seconds, 1),
        "frames_read": tracker.frames_read,
        "truth_events": len(truth), "tracked_events": len(mine), "matched": common,
        "flags_due": len(breaks), "flags_raised": raised, "false_flags": len(flagged) - raised,
        "rule_flags": sum(flag.kind in RULE_FLAGS for flag in flags),
        "other_flags": dict(Counter(flag.kind for flag in flags if flag.kind not in RULE_FLAGS)),
        "corrections": sum(1 for e in tracker.history if e.kind == "correction"),
        "flips_corrected": corrected,
        "replay_consistent": replayed.consistent,
        "final_face_up_errors": face_up_errors(tracker.position, final) if tracker.position else None,
        "missed": sorted(map(str, (Counter(truth) - Counter(mine)).elements())),
        "extra": sorted(map(str, (Counter(mine) - Counter(truth)).elements())),
    }
    return row


def summarise(rows: list[dict]) -> dict:
    """The figures over several videos' rows: events, flags, games tracked exactly, frames per second."""
    total = {key: sum(row[key] for row in rows) for key in
             ("truth_events", "tracked_events", "matched", "flags_due", "flags_raised", "false_flags",
              "frames", "seconds", "corrections")}
    return {
        "videos": len(rows),
        "event_precision": round(total["matched"] / max(total["tracked_events"], 1), 4),
        "event_recall": round(total["matched"] / max(total["truth_events"], 1), 4),
        "flags_due": total["flags_due"], "flags_raised": total["flags_raised"],
        "false_flags": total["false_flags"],
        "games_exact": sum(row["matched"] == row["truth_events"] == row["tracked_events"] for row in rows),
        "fps": round(total["frames"] / max(total["seconds"], 1e-9), 1),
        "corrections": total["corrections"],
        "replays_consistent": sum(row["replay_consistent"] for row in rows),
        "final_face_up_errors": sum(row["final_face_up_errors"] or 0 for row in rows),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--videos", type=int, default=6, help="game videos (default 6)")
    parser.add_argument("--moves", type=int, default=30, help="moves per game (default 30)")
    parser.add_argument("--illegal", type=int, default=2, help="illegal moves inserted per game (default 2)")
    parser.add_argument("--blocked", type=int, default=1, help="blocked deals inserted per game (default 1)")
    parser.add_argument("--fps", type=float, default=12.0, help="video frame rate (default 12)")
    parser.add_argument("--noise", type=float, default=None,
                        help="the camera's sensor noise in grey levels (default: the scene's, at most 1.5)")
    parser.add_argument("--width", type=int, default=960)
    parser.add_argument("--height", type=int, default=540)
    parser.add_argument("--suit-modes", type=lambda t: [int(x) for x in t.split(",")], default=[1, 2, 4],
                        help="suit modes cycled over the videos (default 1,2,4)")
    parser.add_argument("--seed", type=int, default=FIRST_SEED, help=f"first seed (default {FIRST_SEED})")
    parser.add_argument("--turn", type=int, choices=range(4), default=0,
                        help="quarter turns anticlockwise given to each frame before tracking: 1 or 3 films the "
                             "table from its side, 2 from across it (default 0)")
    parser.add_argument("--keep", type=Path, default=None, help="write videos and logs here (default: a temp folder)")
    parser.add_argument("--reuse", action="store_true",
                        help="track the videos already in --keep instead of rendering them again")
    parser.add_argument("--models", type=Path, default=None)
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    parser.add_argument("--combine", type=Path, nargs="+", default=None, metavar="JSON",
                        help="only print the figures over the videos of earlier --json files (several sets)")
    args = parser.parse_args()
    if args.combine:
        print(json.dumps(summarise([row for path in args.combine for row in json.loads(path.read_text())["videos"]])))
        return 0
    cv2.setNumThreads(1)
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    logging.getLogger("spider_vision.synth.video").setLevel(logging.ERROR)  # deals passed over, said above
    models = Models.load(args.models)
    load = os.getloadavg()
    rows = []
    with tempfile.TemporaryDirectory() as temporary:
        folder = args.keep or Path(temporary)
        folder.mkdir(parents=True, exist_ok=True)
        for number in range(args.videos):
            row = one_video(number, args, models, folder)
            rows.append(row)
            print(json.dumps(row), flush=True)
    summary = summarise(rows)
    summary.update({"load_before": [round(x, 2) for x in load],
                    "load_after": [round(x, 2) for x in os.getloadavg()]})
    print(json.dumps(summary))
    if args.json is not None:
        args.json.write_text(json.dumps({"videos": rows, "summary": summary}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
