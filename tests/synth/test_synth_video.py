"""Game videos: frames, per-frame truth and the event log agree with the engine."""

from __future__ import annotations

import gzip
import json

import cv2
import numpy as np
import pytest

from spider_vision.engine import STANDARD, Deal, Position, apply_move, deal_position, parse_move
from spider_vision.synth import random_play, random_scene, render_game


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    folder = tmp_path_factory.mktemp("video")
    start = deal_position(21, 2)
    steps = random_play(start, 4, seed=21, illegal=1)
    scene = random_scene(21, 320, 180, deck="kennard-2color", surface="felt", surface_variant=4, clutter=0,
                         contrast=1.0, sharpen=0.0,
                         table_edge=0.0)
    video = render_game(start, steps, folder / "game.mp4", scene=scene, seed=21, fps=4, deal=21)
    return start, steps, video


def test_random_play_inserts_the_illegal_moves() -> None:
    start = deal_position(22, 4)
    steps = random_play(start, 12, seed=22, illegal=3)
    assert len(steps) == 12
    assert sum(not step.legal for step in steps) == 3
    position = start
    for step in steps:
        assert step.before == position
        position = step.after


def test_blocked_deals_need_an_empty_column() -> None:
    start = Position.from_spn(deal_position(23, 1).spn())
    for step in random_play(start, 60, seed=23, blocked_deals=1):
        if isinstance(step.move, Deal) and not step.legal:
            assert step.before.empty_columns()
            assert "empty" in step.reason


def test_video_frames_match_the_truth_file(game) -> None:
    _, _, video = game
    capture = cv2.VideoCapture(str(video.video))
    frames = 0
    while True:
        ok, frame = capture.read()
        if not ok:
            break
        assert frame.shape == (180, 320, 3)
        frames += 1
    assert frames == video.frame_count
    with gzip.open(video.frames, "rt") as handle:
        records = [json.loads(line) for line in handle]
    assert [record["frame"] for record in records] == list(range(frames))
    assert {record["phase"] for record in records} >= {"idle", "reach", "carry", "retreat"}
    assert any(record["hands"] for record in records)
    assert all(record["cards"] for record in records)


def test_event_log_replays_through_the_engine(game) -> None:
    start, steps, video = game
    lines = [json.loads(line) for line in video.events.read_text().splitlines()]
    header, events = lines[0], lines[1:]
    assert header["format"] == "spider-log" and header["start"] == start.spn() and header["deal"] == 21
    moves = [event for event in events if event["kind"] in ("move", "deal")]
    assert [event["move"] for event in moves] == [str(step.move) for step in steps]
    position = start
    for event in moves:
        move, _ = parse_move(event["move"])
        step = apply_move(position, move, STANDARD, force=not event["legal"])
        assert step.after.spn() == event["after"]
        position = step.after
    assert [event["seq"] for event in events] == list(range(1, len(events) + 1))
    assert all(later["frame"] >= earlier["frame"] for earlier, later in zip(events, events[1:]))
    assert sum(not event["legal"] for event in moves) == 1


def test_truth_spn_after_each_move_is_the_engine_position(game) -> None:
    start, steps, video = game
    with gzip.open(video.frames, "rt") as handle:
        shown = [json.loads(line)["spn"] for line in handle]
    settled = [spn for spn in shown if spn]
    expected = [start.spn()] + [step.after.spn() for step in steps]
    assert [spn for index, spn in enumerate(settled) if index == 0 or spn != settled[index - 1]] == expected


def test_frame_truth_matches_the_frame_pixels(game) -> None:
    """In every tenth frame the cards' visible parts are paper (dark only where ink is) and the rest is dark cloth.

    A truth off by three pixels breaks both bounds (measured: 10% dark inside, bright pixels outside).
    """
    _, _, video = game
    with gzip.open(video.frames, "rt") as handle:
        records = [json.loads(line) for line in handle]
    capture = cv2.VideoCapture(str(video.video))
    for number, record in enumerate(records):
        ok, frame = capture.read()
        assert ok
        if number % 10:
            continue
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        cards = np.zeros(grey.shape, np.uint8)
        faces = np.zeros(grey.shape, np.uint8)
        for card in record["cards"]:
            cv2.fillPoly(cards, [np.int32(np.round(card["quad"]))], 255)
            if card["face_up"] and card["visible_fraction"] > 0.9 and len(card["visible_polygon"]) >= 3:
                cv2.fillPoly(faces, [np.int32(np.round(card["visible_polygon"]))], 255)
        for polygon in record["hands"]:
            cv2.fillPoly(cards, [np.int32(np.round(polygon))], 255)
            cv2.fillPoly(faces, [np.int32(np.round(polygon))], 0)
        faces = cv2.erode(faces, np.ones((3, 3), np.uint8))
        table = cv2.erode(cv2.bitwise_not(cards), np.ones((5, 5), np.uint8))
        assert faces.any() and table.any()
        assert (grey[faces > 0] < 70).mean() < 0.07
        assert (grey[table > 0] > 110).mean() < 0.0001


def _first_frame(path) -> np.ndarray:
    capture = cv2.VideoCapture(str(path))
    ok, frame = capture.read()
    assert ok
    return frame.astype(np.float32)


def test_a_video_gets_the_sensor_noise_asked_for(tmp_path) -> None:
    """``noise`` overrides the scene's (at most 1.5 levels by default): robustness runs film a noisier camera."""
    start = deal_position(24, 1)
    steps = random_play(start, 1, seed=24)
    scene = random_scene(24, 320, 180, clutter=0)
    frames = {
        noise: _first_frame(render_game(start, steps, tmp_path / f"n{noise}.mp4", scene=scene, seed=24, fps=2,
                                        noise=noise).video)
        for noise in (0.0, 6.0)
    }
    again = _first_frame(render_game(start, steps, tmp_path / "again.mp4", scene=scene, seed=24, fps=2,
                                     noise=0.0).video)
    assert float(np.abs(again - frames[0.0]).mean()) < 0.5
    assert float(np.abs(frames[6.0] - frames[0.0]).mean()) > 3.5  # 1.5 levels give about 2.2
