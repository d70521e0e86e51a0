"""The writer: every event on disk at once, steps turned into events in order, safe appends."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spider_vision.engine import (
    STANDARD,
    Deal,
    Game,
    Position,
    SuitMode,
    TableauMove,
    Variant,
    apply_move,
    deal_position,
    legal_moves,
    parse_card,
    reveal,
)
from spider_vision.gamelog import (
    FlipEvent,
    LogWriter,
    MoveEvent,
    NoteEvent,
    RemoveEvent,
    events_from_step,
    read_log,
    replay,
)
from spider_vision.gamelog.sample import random_game

START = deal_position(11, SuitMode.TWO)


def _ticks(step: float = 0.5):
    values = iter(range(10_000))
    return lambda: next(values) * step


@pytest.mark.parametrize("count", [1, 3, 12])
def test_every_event_is_readable_while_the_writer_is_open(tmp_path: Path, count: int) -> None:
    path = tmp_path / "game.jsonl"
    game = Game(START)
    with LogWriter.create(path, START, variant=STANDARD, source="deal", deal=11,
                          clock=_ticks()) as writer:
        written = 0
        for _ in range(count):
            step = game.play(legal_moves(game.position)[0])
            written += len(writer.step(step))
            log = read_log(path)
            assert len(log.events) == written
            assert log.damage is None
            assert log.events[-1].event.seq == written
        assert replay(read_log(path)).consistent


def test_each_line_is_fsynced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import spider_vision.gamelog.writer as writer_module

    calls: list[int] = []
    real = writer_module.os.fsync
    monkeypatch.setattr(writer_module.os, "fsync", lambda fd: (calls.append(fd), real(fd)))
    with LogWriter.create(tmp_path / "g.jsonl", START, variant=STANDARD, source="deal") as writer:
        assert len(calls) == 1
        writer.note("one")
        writer.note("two")
        assert len(calls) == 3


# A 1-suit position where "ba" completes a run on a column with a face-down card under it.
RUN_SPN = "3|KsQsJsTs9s8s7s6s5s4s3s2s/1|As/4|Ks/4|Ks/4|Ks/4|Ks/4|Ks/4|Js/4|Js/5|Qs 20 ss 1"


@pytest.mark.parametrize(
    ("spn", "move", "kinds"),
    [
        (RUN_SPN, TableauMove(1, 0), ["move", "remove", "flip", "flip"]),
        (START.spn(), Deal(), ["deal"]),
        (START.spn(), legal_moves(START)[0], ["move", "flip"]),
    ],
)
def test_step_events_are_move_then_removals_then_flips(spn: str, move, kinds) -> None:
    position = Position.from_spn(spn)
    step = apply_move(position, move, STANDARD)
    events = events_from_step(step, 7, 2.5)
    assert [event.kind for event in events] == kinds
    assert [event.seq for event in events] == list(range(7, 7 + len(kinds)))
    assert all(event.t == 2.5 for event in events)
    first = events[0]
    assert isinstance(first, MoveEvent) and first.after == step.after.spn()
    removes = [e for e in events if isinstance(e, RemoveEvent)]
    flips = [e for e in events if isinstance(e, FlipEvent)]
    assert [(e.column, e.suit) for e in removes] == [(r.column, r.suit) for r in step.removals]
    assert [(e.column, e.card) for e in flips] == [(f.column, f.card) for f in step.flips]


def test_a_reveal_step_is_a_flip_event() -> None:
    position = START.observed()
    step = apply_move(position, Deal(), STANDARD)
    read = reveal(step.after, 3, parse_card("Ah"), STANDARD)
    events = events_from_step(read, 1, 0.0)
    assert events[0] == FlipEvent(1, 0.0, 3, parse_card("Ah"))


def test_illegal_forced_move_keeps_its_reason() -> None:
    position = Position.from_spn(RUN_SPN)
    step = apply_move(position, TableauMove(2, 9), STANDARD, force=True)
    event = events_from_step(step, 1, 0.0)[0]
    assert isinstance(event, MoveEvent)
    assert not event.legal and event.reason == step.reason and "Ks" in event.reason


@pytest.mark.parametrize(("cut", "damaged"), [(1, False), (2, True), (10, True), (40, True)])
def test_append_after_a_cut_line_starts_a_new_line(
    tmp_path: Path, cut: int, damaged: bool
) -> None:
    """Cutting only the newline leaves a whole event; cutting more leaves a damaged line."""
    path = tmp_path / "g.jsonl"
    game = random_game(4, SuitMode.ONE, seed=4, moves=10)
    path.write_text("\n".join(game.lines()) + "\n")
    whole = path.read_bytes()
    path.write_bytes(whole[: len(whole) - cut])
    lines_before = path.read_bytes().count(b"\n")
    with LogWriter.append(path, clock=_ticks()) as writer:
        event = writer.note("resumed after a crash")
    text = path.read_bytes()
    assert text.count(b"\n") == lines_before + 2
    last = json.loads(text.splitlines()[-1])
    assert last["text"] == "resumed after a crash"
    log = read_log(path)
    if damaged:
        assert log.damage is not None and log.damage.line == lines_before + 1
        assert not log.damage.last
        assert event.seq == log.events[-1].event.seq + 1
    else:
        assert log.damage is None
        assert log.events[-1].event == event
        assert len(log.events) == len(game.events) + 1


def test_append_to_a_whole_log_continues_numbering(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    game = random_game(4, SuitMode.ONE, seed=4, moves=10)
    path.write_text("\n".join(game.lines()) + "\n")
    with LogWriter.append(path) as writer:
        writer.note("more")
    log = read_log(path)
    assert log.damage is None
    assert [e.event.seq for e in log.events] == list(range(1, len(game.events) + 2))
    assert isinstance(log.events[-1].event, NoteEvent)
    assert log.events[-1].event.t >= game.events[-1].t


def test_header_of_a_new_log(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    LogWriter.create(path, START.observed(), variant=Variant(manual_removal=True),
                     source="camera").close()
    header = json.loads(path.read_text().splitlines()[0])
    assert header["source"] == "camera" and header["deal"] is None
    assert header["variant"] == {"deal_with_empty_columns": False, "manual_removal": True}
    assert header["started"].endswith("+00:00")
