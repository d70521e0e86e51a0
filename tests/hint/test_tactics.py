"""Reasons in a player's words and the tactical ranking used when time is short."""

from __future__ import annotations

import pytest

from spider_vision.engine import Position, resolve_move
from spider_vision.hint import explain, tactical_score

BASE = "5|Ks/5|Jh/5|9h/5|7s/4|7d/4|5c/4|3d/4|Ah/4|As/4|Kd 50 - 4"


@pytest.mark.parametrize(
    ("spn", "move", "reason"),
    [
        ("5|Ks/5|9h/5|2c/5|Qd/4|8h/4|7h/4|Ah/4|3d/4|Tc/4|2c 50 - 4", "fe", "joins 8h-7h into one run and turns over a card in column f"),
        ("5|Ks/5|9h/5|2c/5|Qd/4|8h/4|7s/4|Ah/4|3d/4|Tc/4|2c 50 - 4", "fe", "turns over a card in column f"),
        ("5|Ks/5|9h8h/5|2c/5|Qd/4|7h/4|7s/5|Ah/4|3d/4|Tc/|2c 50 - 4", "eb", "joins 9h-8h-7h into one run and turns over a card in column e"),
        ("5|Ks/5|9h8h/5|2c/5|Qd/4|8c/4|7s/5|Ah/4|3d/4|Tc/|7h 50 - 4", "jb", "joins 9h-8h-7h into one run and empties column j"),
        ("5|Ks/5|9h/5|9c/5|Qd/4|8c/4|7s/5|Ah/4|3d/4|Tc/|8h 50 - 4", "jc", "empties column j"),
        ("5|Ks/5|9h/5|9c/5|Qd/4|8c/4|7s/5|Ah/4|3d/4|Tc/|8c 50 - 4", "jc", "joins 9c-8c into one run and empties column j"),
        ("5|Ks/5|9h/5|2c/5|Qd/4|8h/4|7h/4|Ah/4|3d/4|TcJs/4|2c 50 - 4", "id", "moves Js onto Qd"),
        ("5|Ks/5|9h/5|2c/5|QdJs/4|8c/4|7s/5|Ah/4|3d/4|Tc/| 50 - 4", "dj", "moves Js to the empty column j"),
    ],
)
def test_reasons(spn: str, move: str, reason: str) -> None:
    position = Position.from_spn(spn, validate=False)
    assert explain(position, resolve_move(position, move)) == reason


def test_deal_reason_says_whether_anything_useful_is_left() -> None:
    stuck = Position.from_spn(BASE)
    assert explain(stuck, resolve_move(stuck, "deal")) == "deal: nothing useful is left"
    useful = Position.from_spn(BASE.replace("5|7s/4|7d", "5|7s/4|8d"))
    assert explain(useful, resolve_move(useful, "deal")) == "deal new cards"


def test_a_flip_beats_splitting_a_suited_run_and_a_deal() -> None:
    position = Position.from_spn(
        "5|Ks/5|9h8h/5|2c/5|Qd/4|7h/4|7s/5|Ah/4|3d/4|Tc/|2c 50 - 4", validate=False
    )
    flip = tactical_score(position, resolve_move(position, "eb"))
    split = tactical_score(position, resolve_move(position, "bj"))
    assert flip > 0 > split
    assert flip > tactical_score(position, resolve_move(position, "deal"))
