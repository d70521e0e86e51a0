"""The replayer: logs of random play replay cleanly; every kind of damage is named at its line."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from spider_vision.engine import (
    Game,
    Position,
    Removal,
    SuitMode,
    TableauMove,
    Variant,
    deal_position,
    parse_card,
)
from spider_vision.gamelog import (
    CorrectionEvent,
    FlipEvent,
    Header,
    MoveEvent,
    NoteEvent,
    RemoveEvent,
    parse_log,
    read_log,
    replay,
    replay_events,
)
from spider_vision.gamelog.sample import random_game, sample_game, write_game

MANUAL = Variant(manual_removal=True)
LOOSE = Variant(deal_with_empty_columns=True)


@pytest.mark.parametrize(
    ("deal", "mode", "variant", "observed", "undo", "illegal", "moves"),
    [
        (1, SuitMode.ONE, Variant(), False, 0.0, 0.0, 200),
        (2, SuitMode.ONE, MANUAL, False, 0.05, 0.05, 300),
        (3, SuitMode.ONE, Variant(), True, 0.05, 0.05, 300),
        (4, SuitMode.ONE, MANUAL, True, 0.05, 0.05, 300),
        (5, SuitMode.TWO, Variant(), False, 0.1, 0.1, 120),
        (6, SuitMode.TWO, LOOSE, True, 0.1, 0.1, 120),
        (7, SuitMode.FOUR, Variant(), False, 0.1, 0.15, 120),
        (8, SuitMode.FOUR, MANUAL, True, 0.1, 0.1, 120),
        (2**32 - 1, SuitMode.FOUR, Variant(), True, 0.0, 0.0, 80),
    ],
)
def test_random_play_logs_replay_consistently(
    tmp_path: Path, deal, mode, variant, observed, undo, illegal, moves
) -> None:
    game = random_game(deal, mode, seed=deal, moves=moves, variant=variant,
                       undo_rate=undo, illegal_rate=illegal, observed=observed)
    path = tmp_path / "game.jsonl"
    write_game(game, path)
    result = replay(read_log(path))
    assert result.mismatch is None, str(result.mismatch)
    assert len(result.entries) == len(game.events)
    kinds = {type(e).__name__ for e in game.events}
    if undo:
        assert "NoteEvent" in kinds
    if illegal:
        assert result.flags and all(not e.event.legal for e in result.flags)
    if observed:
        assert "??" not in result.position.spn().split(" ")[0]
        assert result.position.stock == () or set(result.position.stock) == {None}
    last_after = next(e.after for e in reversed(game.events) if hasattr(e, "after") and e.after)
    assert Position.from_spn(last_after, validate=False).spn() == result.position.spn()


def test_random_play_removes_runs_in_both_removal_variants() -> None:
    """Guards the tables above: removals (automatic and manual) really are exercised."""
    for variant in (Variant(), MANUAL):
        game = random_game(2, SuitMode.ONE, seed=2, moves=300, variant=variant,
                           undo_rate=0.05, illegal_rate=0.05)
        assert any(isinstance(e, RemoveEvent) for e in game.events)
        assert replay_events(game.header, list(game.events)).consistent


# --- damaged logs ------------------------------------------------------------------------

SAMPLE = sample_game()
BASE = [json.loads(line) for line in SAMPLE.lines()]


def _index(predicate) -> int:
    return next(i for i, data in enumerate(BASE) if i and predicate(data))


ILLEGAL = _index(lambda d: d.get("legal") is False and d["kind"] == "move")
BLOCKED = _index(lambda d: d.get("legal") is False and d["kind"] == "deal")
LEGAL = _index(lambda d: d.get("legal") is True and d["kind"] == "move")
FLIP = _index(lambda d: d["kind"] == "flip")
UNDO = _index(lambda d: "undo" in d)
MIDDLE_MOVE = next(i for i, d in enumerate(BASE) if d.get("kind") == "move" and i > len(BASE) // 2)


def _set(index: int, **changes):
    def mutate(lines: list[dict]) -> list[dict]:
        lines[index] = {**lines[index], **changes}
        return lines
    return mutate


def _drop_key(index: int, key: str):
    def mutate(lines: list[dict]) -> list[dict]:
        del lines[index][key]
        return lines
    return mutate


def _insert(index: int, data: dict):
    def mutate(lines: list[dict]) -> list[dict]:
        lines.insert(index, {"seq": lines[index - 1].get("seq", 0), "t": 0, **data})
        for number, line in enumerate(lines[1:], start=1):
            line["seq"] = number
        return lines
    return mutate


def _compose(*mutations):
    def mutate(lines):
        for mutation in mutations:
            lines = mutation(lines)
        return lines
    return mutate


def _other_spn(spn: str) -> str:
    columns, *rest = spn.split(" ")
    piles = columns.split("/")
    piles[0], piles[1] = piles[1], piles[0]
    return " ".join(["/".join(piles), *rest])


DAMAGES = [
    ("wrong after", _set(LEGAL, after=_other_spn(BASE[LEGAL]["after"])), LEGAL, "column a is"),
    ("after not SPN", _set(LEGAL, after="x y"), LEGAL, "is not a position"),
    ("illegal marked legal", _compose(_set(ILLEGAL, legal=True), _drop_key(ILLEGAL, "reason")),
     ILLEGAL, "logged as legal but the rules refuse it: illegal group move"),
    ("blocked deal marked legal", _compose(_set(BLOCKED, legal=True), _drop_key(BLOCKED, "reason")),
     BLOCKED, "blocked deal"),
    ("legal marked illegal", _set(LEGAL, legal=False, reason="made up"), LEGAL,
     "logged as illegal (made up) but it is legal"),
    ("wrong reason", _set(ILLEGAL, reason="because"), ILLEGAL, "gives the reason 'because'"),
    ("wrong flip card", _set(FLIP, card="Kd" if BASE[FLIP]["card"] != "Kd" else "Qd"), FLIP,
     "the card turned over in column"),
    ("flip with nothing turned", _insert(LEGAL + 1, {"kind": "flip", "column": "a", "card": "As"}),
     LEGAL + 1, "no card turned over"),
    ("spurious remove", _insert(LEGAL + 1, {"kind": "remove", "column": "c", "suit": "s"}),
     LEGAL + 1, "no completed run was removed from column c"),
    ("undo of another move", _set(UNDO, undo="ab"), UNDO, "but the last move was"),
    ("undo at the start", _insert(1, {"kind": "note", "text": "undo", "undo": "ab",
                                      "after": BASE[0]["start"]}), 1, "no move has been made"),
    ("undo to a wrong position", _set(UNDO, after=BASE[0]["start"]), UNDO, "after undo"),
    ("move out of an empty column", _insert(1, {"kind": "move", "move": "ab3", "legal": False,
                                                "reason": "x", "after": BASE[0]["start"]}),
     1, "cannot be made even by hand"),
    ("corrupt middle line",
     lambda lines: lines[:MIDDLE_MOVE] + ["{not json"] + lines[MIDDLE_MOVE + 1:],
     MIDDLE_MOVE, "not JSON"),
    ("start is not the deal", lambda lines: [{**lines[0], "deal": 2}] + lines[1:], 0,
     "start is not deal 2"),
    ("correction of a card that is not there",
     _insert(LEGAL + 1, {"kind": "correction", "column": "a", "index": 0, "was": "??",
                         "now": "Ks", "after": BASE[LEGAL]["after"]}),
     LEGAL + 1, "card 0 of column a"),
]


@pytest.mark.parametrize(("name", "mutate", "index", "words"), DAMAGES, ids=[d[0] for d in DAMAGES])
def test_the_first_inconsistent_event_is_named(name, mutate, index, words) -> None:
    lines = mutate([dict(data) for data in BASE])
    texts = [line if isinstance(line, str) else json.dumps(line) for line in lines]
    result = replay(parse_log(texts))
    assert result.mismatch is not None
    assert result.mismatch.line == index + 1
    assert words in result.mismatch.message
    assert len(result.entries) == max(index - 1, 0)
    assert str(result.mismatch).startswith(f"line {index + 1}: ")


def test_the_unmodified_sample_is_consistent() -> None:
    result = replay(parse_log(json.dumps(d) for d in BASE))
    assert result.consistent and result.damage is None
    assert {e.line - 1 for e in result.flags} == {ILLEGAL, BLOCKED}


def test_a_truncated_last_line_keeps_the_events_before_it() -> None:
    texts = [json.dumps(d) for d in BASE]
    texts[-1] = texts[-1][: len(texts[-1]) // 2]
    result = replay(parse_log(texts))
    assert result.consistent
    assert result.damage is not None and result.damage.last
    assert len(result.entries) == len(BASE) - 2


# --- flips of unread cards, corrections, manual removal ------------------------------------

START = deal_position(21, SuitMode.FOUR)
HEADER = Header(START.observed(), Variant(), None, "camera", "2026-11-29T21:00:00+00:00")


def _first_move_with_flip() -> tuple[TableauMove, Position]:
    game = Game(START)
    for move in game.legal_moves():
        step = game.play(move)
        if step.flips:
            return move, step.after
        game.undo()
    raise AssertionError("deal 21 has no first move that turns a card over")


MOVE, FULL_AFTER = _first_move_with_flip()
SOURCE = MOVE.source
TRUE_CARD = FULL_AFTER.columns[SOURCE].up[0]
SEEN_AFTER = Position.from_spn(FULL_AFTER.observed().spn().replace(
    FULL_AFTER.observed().columns[SOURCE].text(),
    f"{len(FULL_AFTER.columns[SOURCE].down)}|??"), validate=False)


@pytest.mark.parametrize(
    ("flips", "consistent"),
    [
        ([("??",), (str(TRUE_CARD),)], True),   # turned over unread, then read
        ([(str(TRUE_CARD),)], True),            # turned over and read at once
        ([("??",)], True),                      # turned over, never read
        ([], True),                             # no flip event: the ?? stays
        ([(str(TRUE_CARD),), (str(TRUE_CARD),)], False),  # read twice: nothing left to read
    ],
)
def test_flip_events_read_unknown_cards(flips, consistent) -> None:
    events = [MoveEvent(1, 0.0, MOVE, True, SEEN_AFTER.spn())]
    events += [FlipEvent(2 + i, 0.0, SOURCE, parse_card(card)) for i, (card,) in enumerate(flips)]
    result = replay_events(HEADER, events)
    assert result.consistent == consistent, result.mismatch
    if consistent:
        read = any(card != "??" for (card,) in flips)
        expected = TRUE_CARD if read else None
        assert result.position.columns[SOURCE].up == (expected,)


def test_a_flip_read_that_would_make_too_many_copies_is_refused() -> None:
    shown = FULL_AFTER.observed().known_cards()
    both = [card for card, count in shown.items() if count == SuitMode.FOUR.copies]
    once = [card for card, count in shown.items() if count == 1]
    events = [MoveEvent(1, 0.0, MOVE, True, SEEN_AFTER.spn())]
    if both:
        result = replay_events(HEADER, events + [FlipEvent(2, 0.0, SOURCE, both[0])])
        assert result.mismatch is not None and "copies" in result.mismatch.message
    # A card shown once may be read: its second copy is still unseen.
    result = replay_events(HEADER, events + [FlipEvent(2, 0.0, SOURCE, once[0])])
    assert result.consistent, result.mismatch
    # A club in a two-suit game cannot exist at all.
    two = replace(HEADER, start=deal_position(21, SuitMode.TWO).observed())
    move_two = Game(deal_position(21, SuitMode.TWO)).play(MOVE)
    seen = Position.from_spn(move_two.after.observed().spn().replace(
        move_two.after.observed().columns[SOURCE].text(),
        f"{len(move_two.after.columns[SOURCE].down)}|??"), validate=False)
    result = replay_events(two, [MoveEvent(1, 0.0, MOVE, True, seen.spn()),
                                 FlipEvent(2, 0.0, SOURCE, parse_card("5c"))])
    assert result.mismatch is not None and "cannot exist" in result.mismatch.message


def test_a_correction_fixes_a_misread_card() -> None:
    counts = FULL_AFTER.observed().known_cards()
    wrong = next(card for card in SuitMode.FOUR.deck() if card != TRUE_CARD and counts[card] == 0)
    index = len(FULL_AFTER.columns[SOURCE].down)
    misread = FULL_AFTER.observed().with_columns(
        {SOURCE: replace(FULL_AFTER.observed().columns[SOURCE], up=(wrong,))})
    events = [
        MoveEvent(1, 0.0, MOVE, True, SEEN_AFTER.spn()),
        FlipEvent(2, 0.5, SOURCE, wrong),
        CorrectionEvent(3, 1.0, SOURCE, index, wrong, TRUE_CARD, FULL_AFTER.observed().spn()),
    ]
    result = replay_events(HEADER, events)
    assert result.consistent, result.mismatch
    assert result.entries[1].position == misread
    assert result.position == FULL_AFTER.observed()
    bad_was = replace(events[2], was=TRUE_CARD)
    result = replay_events(HEADER, events[:2] + [bad_was])
    assert result.mismatch is not None and result.mismatch.line == 4
    assert f"it was {TRUE_CARD}" in result.mismatch.message


# 1 suit, manual removal: "ba" completes a King-to-Ace run in column a.
RUN_SPN = "3|KsQsJsTs9s8s7s6s5s4s3s2s/1|As/4|Ks/4|Ks/4|Ks/4|Ks/4|Ks/4|Js/4|Js/5|Qs 20 ss 1"


@pytest.mark.parametrize("with_move", [True, False])
def test_manual_removal_by_move_or_by_remove_event(with_move: bool) -> None:
    start = Position.from_spn(RUN_SPN)
    game = Game(start, MANUAL)
    game.play(TableauMove(1, 0))
    built = game.position
    step = game.play(Removal(0))
    header = Header(start, MANUAL, None, "manual", "2026-11-29T21:00:00+00:00")
    events = [MoveEvent(1, 0.0, TableauMove(1, 0), True, built.spn())]
    if with_move:
        events.append(MoveEvent(2, 1.0, step.move, True, step.after.spn()))
    events.append(RemoveEvent(len(events) + 1, 1.0, 0, "s"))
    result = replay_events(header, events)
    assert result.consistent, result.mismatch
    assert result.position == step.after
    wrong_suit = events[:-1] + [replace(events[-1], suit="h")]
    assert not replay_events(header, wrong_suit).consistent
    standard = replace(header, variant=Variant())
    assert not replay_events(standard, events[:1] + events[-1:]).consistent


def test_plain_notes_change_nothing() -> None:
    events = [NoteEvent(1, 0.0, "hello"), NoteEvent(2, 0.5, "camera moved")]
    result = replay_events(HEADER, events)
    assert result.consistent and result.position == HEADER.start
