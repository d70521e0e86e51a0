"""Render a whole game as a video: a hand makes each move, the camera jitters, the light drifts.

``render_game`` takes any sequence of engine ``Step``s (a solver's line,
random play from ``random_play``, with forced illegal moves and blocked
deals mixed in) and writes the video with two files beside it:

* ``<stem>.events.jsonl``: a game log (spider-log, notation.md) of what
  happened, each event also giving the ``frame`` where it completes;
* ``<stem>.frames.jsonl.gz``: one JSON object per frame with the truth of
  every card (``CardTruth.to_json``), the hands' polygons, the SPN of the
  position on the table (``null`` while cards are in the hand) and the phase.
"""

from __future__ import annotations

import gzip
import json
import logging
import math
import random
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Sequence

import cv2
import numpy as np

from spider_vision.engine import (
    STANDARD,
    Card,
    Deal,
    Move,
    Position,
    Step,
    TableauMove,
    Variant,
    apply_move,
    column_letter,
    is_legal,
    legal_moves,
)
from spider_vision.synth.camera import Camera
from spider_vision.synth.hands import Hand
from spider_vision.synth.layout import CARD_HEIGHT_MM, CARD_WIDTH_MM, PlacedCard, Table, lay_out
from spider_vision.synth.render import card_width_px, make_camera, render_table, single_threaded
from spider_vision.synth.scene import Scene, random_scene

__all__ = ["GameVideo", "random_play", "render_game", "video_noise"]

logger = logging.getLogger(__name__)

STARTED = "2026-01-01T00:00:00+00:00"
"""The header time of synthetic game logs (fixed, so that output is reproducible)."""
VIDEO_NOISE = 1.5
"""The most sensor noise (grey levels) a video gets unless asked for more: codecs smooth noise away."""


# --- the moves to render ---------------------------------------------------------------


def random_play(
    start: Position,
    moves: int,
    seed: int = 0,
    *,
    illegal: int = 0,
    blocked_deals: int = 0,
    variant: Variant = STANDARD,
) -> list[Step]:
    """A plausible game of ``moves`` steps by a casual player, with rule breaks inserted.

    The player prefers moves that turn a card over or build in suit, avoids
    undoing the previous move, and deals when nothing useful is left.
    ``illegal`` forced illegal tableau moves and ``blocked_deals`` deals with an
    empty column are spread over the game (a blocked deal needs an empty
    column and a stock; it is inserted at the first chance after its turn).
    """
    rng = random.Random(seed)
    position = start
    steps: list[Step] = []
    illegal_at = set(rng.sample(range(1, max(moves, 2)), min(illegal, max(moves - 1, 0))))
    blocked_left = blocked_deals
    blocked_from = sorted(rng.sample(range(1, max(moves, 2)), min(blocked_deals, max(moves - 1, 0))))
    previous: TableauMove | None = None
    for turn in range(moves):
        if position.is_won:
            break
        if blocked_left and blocked_from and turn >= blocked_from[0] and position.stock and position.empty_columns():
            steps.append(apply_move(position, Deal(), variant, force=True))
            position = steps[-1].after
            blocked_left -= 1
            blocked_from.pop(0)
            continue
        if turn in illegal_at:
            wrong = _illegal_move(position, rng, variant)
            if wrong is not None:
                steps.append(apply_move(position, wrong, variant, force=True))
                position = steps[-1].after
                continue
        move = _choose(position, rng, variant, previous, want_empty=blocked_left > 0)
        if move is None:
            break
        step = apply_move(position, move, variant)
        steps.append(step)
        position = step.after
        previous = move if isinstance(move, TableauMove) else None
    if blocked_left:
        logger.warning("%d blocked deals could not be inserted (no empty column with a stock left)", blocked_left)
    return steps


def _choose(position: Position, rng: random.Random, variant: Variant, previous: TableauMove | None,
            want_empty: bool = False) -> Move | None:
    """The casual player's move; ``want_empty`` steers toward emptying a column (for a blocked deal)."""
    moves = legal_moves(position, variant)
    scored: list[tuple[float, Move]] = []
    for move in moves:
        if isinstance(move, Deal):
            scored.append((0.1, move))
            continue
        if not isinstance(move, TableauMove):
            scored.append((5.0, move))
            continue
        if previous and move.source == previous.target and move.target == previous.source:
            continue
        source = position.columns[move.source]
        target = position.columns[move.target]
        score = 1.0
        if len(source.up) == move.count and source.down:
            score += 4.0
        moved = source.up[-move.count]
        if target.top is not None and moved is not None and target.top.suit == moved.suit:
            score += 2.0
        if target.is_empty:
            score -= 0.8 if len(source.up) == move.count and not source.down else 0.0
            score *= 0.4
        elif want_empty:
            # Work on the shortest column until it is empty.
            shortest = min(len(column) for column in position.columns if not column.is_empty)
            score += 6.0 if len(source) == move.count else (3.0 if len(source) == shortest else 0.0)
        scored.append((max(score, 0.05) * rng.uniform(0.5, 1.5), move))
    if not scored:
        return None
    best = max(scored, key=lambda pair: pair[0])
    deal = next((move for _, move in scored if isinstance(move, Deal)), None)
    if deal is not None and best[0] < 1.6 and rng.random() < 0.35:
        # Nothing turns a card over or builds in suit: a casual player deals.
        return deal
    return best[1]


def _illegal_move(position: Position, rng: random.Random, variant: Variant) -> TableauMove | None:
    """A tableau move the rules refuse but a hand can make (wrong rank or a mixed-suit group)."""
    candidates = []
    for source, column in enumerate(position.columns):
        for count in range(1, min(len(column.up), 3) + 1):
            for target in range(10):
                if target == source:
                    continue
                move = TableauMove(source, target, count)
                if not is_legal(position, move, variant):
                    candidates.append(move)
    return rng.choice(candidates) if candidates else None


# --- frames ----------------------------------------------------------------------------


@dataclass
class _Shot:
    """One frame to draw: the table, what the hand holds and where the hand is."""

    table: Table
    spn: str | None
    phase: str
    hand_at: tuple[float, float] | None = None  # table mm of the fingertips
    carried: tuple[tuple[Card | None, bool], ...] = ()
    events: list[dict] = field(default_factory=list)


def _smooth(t: float) -> float:
    return t * t * (3 - 2 * t)


def _without_top(table: Table, column: int, count: int) -> Table:
    columns = list(table.columns)
    columns[column] = columns[column][: len(columns[column]) - count]
    return replace(table, columns=tuple(columns))


def _pile_point(placed: list[PlacedCard], column: int, index: int, fallback_x: float) -> np.ndarray:
    """Table mm of the middle of a card's top edge zone (where a hand grips it)."""
    for card in placed:
        if card.pile == "tableau" and card.column == column and card.index == index:
            return card.corners[:2].mean(axis=0) * 0.6 + card.corners[2:].mean(axis=0) * 0.4
    return np.array([fallback_x, CARD_HEIGHT_MM * 0.4])


class _Planner:
    """Turns steps into shots: idle, reach, carry, place, flip, remove, retreat."""

    def __init__(self, scene: Scene, layout_seed: int, fps: float, rng: random.Random) -> None:
        self.scene = scene
        self.seed = layout_seed
        self.fps = fps
        self.rng = rng
        self.spacing = CARD_WIDTH_MM * scene.column_gap

    def frames(self, seconds: float) -> int:
        return max(1, int(round(seconds * self.fps * self.rng.uniform(0.8, 1.25))))

    def column_x(self, column: int) -> float:
        return column * self.spacing + CARD_WIDTH_MM / 2

    def placed(self, table: Table) -> list[PlacedCard]:
        return lay_out(table, self.scene, self.seed)[0]

    def travel(self, table: Table, spn: str | None, phase: str, start: np.ndarray, end: np.ndarray,
               seconds: float, carried: tuple[tuple[Card | None, bool], ...] = ()) -> list[_Shot]:
        count = self.frames(seconds)
        shots = []
        for k in range(count):
            t = _smooth((k + 1) / count)
            point = start + (end - start) * t
            shots.append(_Shot(table, spn, phase, (float(point[0]), float(point[1])), tuple(carried)))
        return shots

    def offscreen(self, near: np.ndarray) -> np.ndarray:
        return np.array([near[0] + self.rng.gauss(0, 40), near[1] + CARD_HEIGHT_MM * 9])

    def idle(self, table: Table, spn: str, seconds: float) -> list[_Shot]:
        return [_Shot(table, spn, "idle") for _ in range(self.frames(seconds))]

    def step(self, step: Step, rng: random.Random) -> list[_Shot]:
        before = Table.from_position(step.before, rng)
        after = Table.from_position(step.after, rng)
        move = step.move
        if isinstance(move, Deal):
            return self._deal(step, before, after)
        if not isinstance(move, TableauMove):
            return [_Shot(after, step.after.spn(), "idle")]
        source, target, count = move.source, move.target, move.count
        source_pile = before.columns[source]
        lifted = source_pile[len(source_pile) - count :]
        placed_before = self.placed(before)
        grip = _pile_point(placed_before, source, len(source_pile) - count, self.column_x(source))
        target_index = len(before.columns[target])
        drop_table = after
        columns = list(before.columns)
        columns[source] = source_pile[: len(source_pile) - count]
        columns[target] = before.columns[target] + lifted
        placed_table = replace(before, columns=tuple(columns))
        drop = _pile_point(self.placed(placed_table), target, target_index, self.column_x(target))
        start = self.offscreen(grip)
        shots = self.travel(before, step.before.spn(), "reach", start, grip, 0.5)
        shots += self.travel(_without_top(before, source, count), None, "carry", grip, drop, 0.6, carried=lifted)
        shots += self.travel(placed_table, None, "place", drop, drop + [0, 3], 0.25)
        if step.flips:
            flip_at = _pile_point(self.placed(placed_table), source, len(columns[source]) - 1, self.column_x(source))
            shots += self.travel(placed_table, None, "flip", drop, flip_at, 0.3)
            drop = flip_at
        if step.removals:
            for removal in step.removals:
                run_at = _pile_point(self.placed(drop_table), removal.column,
                                     max(len(drop_table.columns[removal.column]) - 1, 0), self.column_x(removal.column))
                shots += self.travel(drop_table, None, "remove", drop, run_at, 0.5)
                drop = run_at
        shots += self.travel(drop_table, step.after.spn(), "retreat", drop, self.offscreen(drop), 0.45)
        shots[-1].events.extend(_events(step))
        return shots

    def _deal(self, step: Step, before: Table, after: Table) -> list[_Shot]:
        stock_pile = [card for card in self.placed(before) if card.pile == "stock" and card.column == 0]
        stock_at = stock_pile[-1].corners.mean(axis=0) if stock_pile else np.array([0.0, -CARD_HEIGHT_MM])
        shots = self.travel(before, step.before.spn(), "reach", self.offscreen(stock_at), stock_at, 0.5)
        dealt = list(before.columns)
        pile = list(before.stock[:10])
        rest = before.stock[10:]
        point = stock_at
        for column in range(10):
            if not pile:
                break
            card = pile.pop(0)
            dealt[column] = dealt[column] + ((card, True),)
            table = Table(tuple(dealt), rest, before.removed)
            goal = _pile_point(self.placed(table), column, len(dealt[column]) - 1, self.column_x(column))
            carried = tuple((c, False) for c in pile)
            shots += self.travel(table, None, "deal", point, goal, 0.18, carried=carried)
            point = goal
        shots += self.travel(after, step.after.spn(), "retreat", point, self.offscreen(point), 0.45)
        shots[-1].events.extend(_events(step))
        return shots


def _events(step: Step) -> list[dict]:
    """The game-log events of a step (move or deal, then flips, then removals)."""
    move_text = str(step.move)
    event = {"kind": "deal" if isinstance(step.move, Deal) else "move", "move": move_text, "legal": step.legal}
    if not step.legal:
        event["reason"] = step.reason
    event["after"] = step.after.spn()
    events = [event]
    for flip in step.flips:
        events.append({"kind": "flip", "column": column_letter(flip.column), "card": str(flip.card) if flip.card else "??"})
    for removal in step.removals:
        events.append({"kind": "remove", "column": column_letter(removal.column), "suit": removal.suit})
    return events


# --- rendering -------------------------------------------------------------------------


@dataclass(frozen=True)
class GameVideo:
    """What ``render_game`` wrote."""

    video: Path
    events: Path
    frames: Path
    frame_count: int
    fps: float
    scene: Scene


def _reference_table(start: Position) -> Table:
    """A table as long as a typical mid-game one, to aim the camera for the whole game."""
    column = tuple([(None, False)] * 4 + [(Card(13, "s"), True)] * 5)
    return Table(tuple([column] * 10), tuple([None] * len(start.stock)), "ss")


def _camera_path(frames: int, rng: np.random.Generator) -> np.ndarray:
    """Smooth small camera wander per frame: (dx mm, dy mm, roll deg, tilt deg)."""
    knots = max(frames // 20 + 2, 3)
    points = rng.normal(0, 1, (knots, 4)) * [2.0, 2.0, 0.25, 0.3]
    times = np.linspace(0, frames - 1, knots)
    path = np.stack([np.interp(np.arange(frames), times, points[:, k]) for k in range(4)], axis=1)
    return path + rng.normal(0, 1, (frames, 4)) * [0.25, 0.25, 0.03, 0.03]


def video_noise(scene: Scene, noise: float | None = None) -> float:
    """The sensor noise a video of ``scene`` is filmed with: ``noise`` when asked for, else the scene's
    own, at most ``VIDEO_NOISE``."""
    return min(scene.noise, VIDEO_NOISE) if noise is None else noise


def render_game(
    start: Position,
    steps: Sequence[Step],
    out: str | Path,
    *,
    scene: Scene | None = None,
    seed: int = 0,
    fps: float = 12.0,
    deal: int | None = None,
    variant: Variant = STANDARD,
    noise: float | None = None,
) -> GameVideo:
    """Render ``steps`` from ``start`` as a video at ``out`` (mp4v .mp4 or MJPG .avi) with its truth files.

    ``noise`` is the camera's sensor noise in grey levels; by default the
    scene's own, at most ``VIDEO_NOISE`` (a robustness test asks for more).
    """
    out = Path(out)
    if scene is None:
        scene = random_scene(seed, 960, 540, hands=0)
    # The player sits at the bottom of the picture: the hand comes in from there.
    # Video codecs smooth sensor noise away and compress on their own.
    scene = scene.with_(hands=0, fit_view=True, view_offset=(0.0, 0.0), motion_blur=0.0,
                        noise=video_noise(scene, noise), jpeg_quality=0,
                        roll=float(np.clip(scene.roll, -12, 12)), tilt_azimuth=float(np.clip(scene.tilt_azimuth, -20, 20)))
    rng = random.Random(seed)
    planner = _Planner(scene, seed, fps, rng)
    shots: list[_Shot] = []
    table = Table.from_position(start, rng)
    shots += planner.idle(table, start.spn(), 1.0)
    for step in steps:
        shots += planner.step(step, rng)
        shots += planner.idle(Table.from_position(step.after, rng), step.after.spn(), 0.5)
    shots += planner.idle(Table.from_position(steps[-1].after if steps else start, rng),
                          (steps[-1].after if steps else start).spn(), 1.0)

    reference = lay_out(_reference_table(start), scene, seed)[0]
    corners = np.concatenate([card.corners for card in reference])
    clutter_around = (*corners.min(axis=0), *corners.max(axis=0))
    wander = _camera_path(len(shots), np.random.default_rng(seed))
    fourcc = cv2.VideoWriter.fourcc(*("MJPG" if out.suffix.lower() == ".avi" else "mp4v"))
    writer = cv2.VideoWriter(str(out), fourcc, fps, (scene.width, scene.height))
    if not writer.isOpened():
        raise OSError(f"could not open a video writer for '{out}' (use .mp4 or .avi)")
    stem = out.with_suffix("")
    events_path = Path(f"{stem}.events.jsonl")
    frames_path = Path(f"{stem}.frames.jsonl.gz")
    light = np.random.default_rng(seed + 7)
    drift = np.cumsum(light.normal(0, 1, (len(shots), 2)), axis=0) / math.sqrt(max(len(shots), 1))
    sequence = 0
    hand_angle = -90 + rng.gauss(0, 15)
    hand_size_factor = rng.uniform(1.2, 1.45)
    try:
        with single_threaded(), open(events_path, "w") as events_file, gzip.open(frames_path, "wt") as frames_file:
            header = {
                "format": "spider-log", "version": 1, "suits": int(start.mode), "variant": variant.to_json(),
                "deal": deal, "start": start.spn(), "source": "video", "started": STARTED,
            }
            events_file.write(json.dumps(header) + "\n")
            for number, shot in enumerate(shots):
                frame_scene = scene.with_(
                    ambient=float(np.clip(scene.ambient * (1 + 0.06 * drift[number, 0]), 0.5, 1.3)),
                    light_azimuth=scene.light_azimuth + 8 * drift[number, 1],
                )
                camera = make_camera(frame_scene, reference, jitter=wander[number])
                hands, carried = _hand_and_cards(shot, camera, scene, hand_angle, hand_size_factor)
                rendering = render_table(shot.table, frame_scene, seed * 100003 + number, camera=camera,
                                         hands=hands, carried=carried, spn=shot.spn or "", layout_seed=seed,
                                         clutter_around=clutter_around)
                writer.write(rendering.image)
                t = round(number / fps, 3)
                for event in shot.events:
                    sequence += 1
                    events_file.write(json.dumps({"seq": sequence, "t": t, "frame": number, **event}) + "\n")
                record = {
                    "frame": number, "t": t, "phase": shot.phase, "spn": shot.spn,
                    "hands": [[list(p) for p in polygon] for polygon in rendering.hands],
                    "cards": [card.to_json() for card in rendering.cards],
                }
                frames_file.write(json.dumps(record, separators=(",", ":")) + "\n")
    finally:
        writer.release()
    return GameVideo(out, events_path, frames_path, len(shots), fps, scene)


def _hand_and_cards(shot: _Shot, camera: Camera, scene: Scene, angle: float,
                    size_factor: float) -> tuple[list[Hand], list[PlacedCard]]:
    """The hand of a shot in canvas pixels and the cards it carries (floating, under the palm)."""
    if shot.hand_at is None:
        return [], []
    point = np.array(shot.hand_at)
    tip = camera.project(point[None, :])[0]
    card_w = card_width_px(camera)
    hand = Hand(tip=(float(tip[0]), float(tip[1])), angle=angle, size=card_w * size_factor,
                skin=scene.skin, sleeve=scene.sleeve, spread=0.25, closed=bool(shot.carried))
    carried = []
    for index, (card, face_up) in enumerate(shot.carried):
        cx = point[0]
        cy = point[1] + CARD_HEIGHT_MM * 0.35 + index * CARD_HEIGHT_MM * (0.22 if face_up else 0.02)
        a = math.radians(2.0 * index)
        c, s = math.cos(a), math.sin(a)
        half = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * [CARD_WIDTH_MM / 2, CARD_HEIGHT_MM / 2]
        corners = half @ np.array([[c, -s], [s, c]]).T + [cx, cy]
        carried.append(PlacedCard("hand", 0, index, card, face_up, corners, z=9000 + index, floating=True))
    return [hand], carried
