"""The engine's line protocol: requests, answers and errors that keep it running."""

from __future__ import annotations

import math

import pytest

from spider_vision.engine import deal_position, legal_moves, parse_move
from spider_vision.hint import HintLimits, advisor
from spider_vision.hint.protocol import EngineProtocol

START = deal_position(3, 2).observed().spn()
FAST = HintLimits(movetime=math.inf, samples=2, nodes_per_move=6000)


@pytest.mark.parametrize(
    ("request_line", "answer"),
    [
        ("isready", "readyok"),
        ("go movetime 100", "error no position yet: send position <SPN> first"),
        ("position", "error position needs an SPN: position <SPN>"),
        ("position 5|Ks", "error SPN has four fields"),
        ("seen Zz", "error 'Zz' is not a card"),
        ("seen ??", "error seen takes known cards, not '??'"),
        ("fly", "error unknown request 'fly'"),
    ],
)
def test_requests_answered_alone(request_line: str, answer: str) -> None:
    answers = EngineProtocol(FAST).handle(request_line)
    assert len(answers) == 1 and answers[0].startswith(answer)


def test_go_answers_info_then_a_legal_bestmove() -> None:
    protocol = EngineProtocol(FAST)
    assert protocol.handle(f"position {START}") == []
    answers = protocol.handle("go movetime 200 seed 4")
    info = answers[0].split()
    assert info[:2] == ["info", "samples"]
    fields = dict(zip(info[1::2], info[2::2]))
    assert set(fields) == {"samples", "wins", "undecided", "estimate", "chance", "nodes", "time"}
    assert 0.0 <= float(fields["chance"]) <= 1.0
    assert answers[1].startswith("info reason ")
    verb, move = answers[-1].split()
    assert verb == "bestmove"
    assert parse_move(move)[0] in legal_moves(deal_position(3, 2).observed())


@pytest.mark.parametrize(
    "bad_go",
    ["go movetime", "go movetime fast", "go depth 3", "go samples -1", "go samples 99999999 movetime 10", "go nodes 0"],
)
def test_bad_go_is_an_error_and_the_engine_keeps_running(bad_go: str) -> None:
    protocol = EngineProtocol(FAST)
    protocol.handle(f"position {START}")
    assert protocol.handle(bad_go)[0].startswith("error go ")
    assert protocol.handle("isready") == ["readyok"]
    assert not protocol.finished


def test_seen_cards_that_contradict_the_position_are_refused_and_not_kept() -> None:
    protocol = EngineProtocol(FAST)
    protocol.handle(f"position {START}")
    absent = next(f"{rank}c" for rank in "A23456789TJQK" if f"{rank}c" not in START)
    assert protocol.handle(f"seen {absent}")[0].startswith("error seen cards")
    assert protocol.handle("go")[-1].startswith("bestmove ")


def test_go_searches_no_more_worlds_than_asked_even_when_it_carries_more() -> None:
    protocol = EngineProtocol(FAST)
    protocol.handle(f"position {START}")
    protocol.handle("go samples 4")
    protocol.handle("go samples 4")
    assert protocol.handle("go samples 4")[0].split()[1:3] == ["samples", "3"]
    assert protocol.handle("go samples 1")[0].split()[1:3] == ["samples", "1"]


def test_quit_and_newgame() -> None:
    protocol = EngineProtocol(FAST)
    protocol.handle(f"position {START}")
    assert protocol.handle("newgame") == []
    assert protocol.handle("go")[0].startswith("error no position")
    assert protocol.handle("") == []
    protocol.handle("quit")
    assert protocol.finished


@pytest.mark.parametrize("nodes", [3000, 8000])
def test_go_nodes_budgets_the_hint_in_positions(nodes: int) -> None:
    protocol = EngineProtocol(HintLimits(movetime=2.0, samples=2, nodes_per_move=10**8))
    protocol.handle(f"position {START}")
    answers = protocol.handle(f"go nodes {nodes} seed 2")
    fields = dict(zip(answers[0].split()[1::2], answers[0].split()[2::2]))
    assert answers[-1].split()[0] == "bestmove"
    assert int(fields["nodes"]) <= advisor.PLAN_NODES + advisor.HintLimits().bank_limit * nodes
