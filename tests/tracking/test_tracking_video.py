"""The tracker on a rendered game video: its log matches the renderer's truth and replays."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spider_vision.engine import deal_position
from spider_vision.gamelog import FlipEvent, MoveEvent, read_log, replay
from spider_vision.synth import random_play, random_scene, render_game
from spider_vision.tracking import Tracker, open_source
from spider_vision.vision import Models


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory):
    """A short two-suit game with one illegal move, rendered at 960x540 and 8 frames a second."""
    folder = tmp_path_factory.mktemp("video")
    start = deal_position(21, 2)
    steps = random_play(start, 4, seed=4, illegal=1)
    assert sum(not step.legal for step in steps) == 1
    scene = random_scene(4, 960, 540).with_(deck="kennard-2color")
    video = render_game(start, steps, folder / "game.mp4", scene=scene, seed=4, fps=8.0, deal=21)
    log = folder / "track.jsonl"
    with open_source(video.video) as source:
        tracker = Tracker(Models.load(), suits=2, log_path=log)
        flags = [flag for frame in source for flag in tracker.feed(frame).flags]
        tracker.close()
    truth = [json.loads(line) for line in video.events.read_text().splitlines()[1:]]
    return truth, read_log(log), flags


def test_moves_and_flips_match_the_truth(game) -> None:
    truth, log, _ = game
    moves = [(str(e.event.move), e.event.legal, e.event.reason) for e in log.events if isinstance(e.event, MoveEvent)]
    assert moves == [(t["move"], t["legal"], t.get("reason", "")) for t in truth if t["kind"] in ("move", "deal")]
    flips = [("abcdefghij"[e.event.column], str(e.event.card)) for e in log.events if isinstance(e.event, FlipEvent)]
    assert flips == [(t["column"], t["card"]) for t in truth if t["kind"] == "flip"]


def test_the_illegal_move_is_flagged_with_the_spec_reason(game) -> None:
    truth, _, flags = game
    reasons = [t["reason"] for t in truth if not t.get("legal", True)]
    assert [flag.message for flag in flags if flag.kind in ("illegal-move", "blocked-deal")] == reasons


def test_the_log_replays(game) -> None:
    _, log, _ = game
    result = replay(log)
    assert result.consistent, result.mismatch
    assert log.header.source == "video" and log.header.start.spn().endswith("50 - 2")
