"""The appraisal bench: a position reached by the hint engine's own play, and a bad position refused in one line."""

from __future__ import annotations

import sys

import pytest

from spider_vision.engine import Game, SuitMode, deal_position, parse_move
from tests.bench import load_bench

appraise = load_bench("appraise")


@pytest.mark.parametrize(("deal", "suits", "moves"), [(3, 1, 5), (8, 4, 3)])
def test_the_position_is_the_one_the_hint_engine_reaches(deal: int, suits: int, moves: int) -> None:
    position, played = appraise.position_after(deal, suits, moves, 20_000)
    game = Game(deal_position(deal, SuitMode(suits)))
    for text in played:
        game.play(parse_move(text)[0])
    assert len(played) == moves and game.position == position


def test_a_bad_position_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "argv", ["appraise.py", "not a position"])
    assert appraise.main() == 2
    error = capsys.readouterr().err
    assert error.startswith("error: ") and error.count("\n") == 1
