"""Seeded, reproducible game logs made by random play: the bundled sample and test material.

``random_game`` plays random moves from a numbered deal (with undo, redo and
forced rule breaks when asked) and returns the log it would write;
``observed=True`` logs it as a camera would see it (face-down and stock cards
unknown, every card read by a flip event once it shows). ``sample_game`` is
the bundled ``sample_images/sample_game.jsonl``; regenerate it with::

    python3 -m spider_vision.gamelog.sample sample_images/sample_game.jsonl
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path

from spider_vision.engine import (
    STANDARD,
    BlockedDealError,
    Deal,
    EmptySourceError,
    EmptyStockError,
    FaceDownCardsError,
    Game,
    IllegalMoveError,
    MixedSuitGroupError,
    Move,
    Position,
    Removal,
    SameColumnError,
    Step,
    SuitMode,
    TableauMove,
    Variant,
    apply_move,
    check_move,
    deal_position,
    reveal,
)
from spider_vision.engine.rules import Flip
from spider_vision.gamelog.events import Event, FlipEvent, Header, NoteEvent, encode_line
from spider_vision.gamelog.writer import events_from_step

__all__ = ["PlayedGame", "random_game", "sample_game", "write_game"]

SAMPLE_STARTED = "2026-01-01T00:00:00+00:00"
# Refusals that even a player at the table cannot get round.
_PHYSICAL = (SameColumnError, EmptySourceError, FaceDownCardsError, EmptyStockError)


@dataclass(frozen=True)
class PlayedGame:
    """A header and its events, ready to be written as a log."""

    header: Header
    events: tuple[Event, ...]

    def lines(self) -> list[str]:
        """The log's lines, header first."""
        return [encode_line(self.header)] + [encode_line(event) for event in self.events]


@dataclass
class _Recorder:
    """Plays a game and records its events, as the table (full) and as a camera (observed)."""

    game: Game
    observed: bool
    events: list[Event] = field(default_factory=list)
    seen: Position | None = None
    seen_history: list[Position] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.observed:
            self.seen = self.game.start.observed()

    @property
    def seq(self) -> int:
        return len(self.events) + 1

    def _t(self) -> float:
        return round(0.5 * len(self.events), 3)

    def play(self, move: Move, *, force: bool = False) -> Step:
        step = self.game.play(move, force=force)
        self._record(step)
        return step

    def undo(self) -> None:
        step = self.game.undo()
        after = self.game.position
        if self.seen is not None:
            self.seen = self.seen_history.pop()
            after = self.seen
        move = step.move
        assert not isinstance(move, Flip)
        self._add([NoteEvent(self.seq, self._t(), f"undo {move}", move, after.spn())])

    def redo(self) -> None:
        step = self.game.redo()
        self._record(step)

    def _add(self, events: list[Event]) -> None:
        """Append events numbered on from the last one, leaving out unread flips."""
        for event in events:
            if isinstance(event, FlipEvent) and event.card is None and self.seen is not None:
                continue
            self.events.append(replace(event, seq=self.seq, t=self._t()))

    def _record(self, step: Step) -> None:
        if self.seen is None:
            self._add(events_from_step(step, self.seq, self._t()))
            return
        before = self.seen
        move = step.move
        assert not isinstance(move, Flip)
        seen_step = apply_move(before, move, self.game.variant, force=not step.legal)
        self.seen_history.append(before)
        self.seen = seen_step.after
        self._add(events_from_step(seen_step, self.seq, self._t()))
        self._read_all(step)
        if self.seen != self.game.position.observed():
            raise AssertionError("the observed game drifted from the table")

    def _read_all(self, step: Step) -> None:
        """Read every ``??`` card the step showed, as a camera would, column by column.

        A deal shows the stock card dealt onto each column first; a card turned
        over (by the move, or under a run the dealt card completed) comes next.
        """
        assert self.seen is not None
        for column in range(10):
            queue = [step.before.stock[column]] if isinstance(step.move, Deal) else []
            queue.extend(flip.card for flip in step.flips if flip.column == column)
            while None in self.seen.columns[column].up:
                card = queue.pop(0)
                assert card is not None
                read = reveal(self.seen, column, card, self.game.variant)
                self._add(events_from_step(read, self.seq, self._t()))
                self.seen = read.after


# --- choosing moves ----------------------------------------------------------------


def _weight(position: Position, move: Move) -> float:
    """How much random play likes a move: turning cards over and emptying columns first."""
    if isinstance(move, Deal):
        return 0.3
    if isinstance(move, Removal):
        return 10.0
    source = position.columns[move.source]
    target = position.columns[move.target]
    weight = 1.0
    if move.count == len(source.up):
        weight += 4.0 if source.down else 6.0
        if target.is_empty and not source.down:
            return 0.05
    top, base = target.top, source.up[-move.count]
    if top is not None and base is not None and top.suit == base.suit:
        weight += 2.0
    return weight


def _pick_legal(rng: random.Random, game: Game, last: Move | None) -> Move | None:
    moves = game.legal_moves()
    if isinstance(last, TableauMove):
        back = TableauMove(last.target, last.source, last.count)
        moves = [move for move in moves if move != back] or moves
    if not moves:
        return None
    weights = [_weight(game.position, move) for move in moves]
    return rng.choices(moves, weights)[0]


def _illegal_moves(position: Position, variant: Variant) -> list[tuple[Move, IllegalMoveError]]:
    """Moves the rules refuse but a player can still make by hand."""
    found: list[tuple[Move, IllegalMoveError]] = []
    candidates: list[Move] = [Deal()]
    for source, column in enumerate(position.columns):
        for count in range(1, len(column.up) + 1):
            candidates.extend(TableauMove(source, target, count) for target in range(10))
    for move in candidates:
        try:
            check_move(position, move, variant)
        except IllegalMoveError as error:
            if not isinstance(error, _PHYSICAL):
                found.append((move, error))
    return found


# --- games -----------------------------------------------------------------------------


def random_game(
    deal: int,
    mode: SuitMode,
    *,
    seed: int,
    moves: int = 60,
    variant: Variant = STANDARD,
    undo_rate: float = 0.0,
    illegal_rate: float = 0.0,
    observed: bool = False,
) -> PlayedGame:
    """Random play from deal ``deal``: up to ``moves`` actions, reproducible from ``seed``.

    ``undo_rate`` is the chance of an undo (and, after one, of a redo);
    ``illegal_rate`` the chance of a forced rule break instead of a legal move.
    """
    rng = random.Random(seed)
    start = deal_position(deal, mode)
    recorder = _Recorder(Game(start, variant), observed)
    last: Move | None = None
    for _ in range(moves):
        game = recorder.game
        roll = rng.random()
        if roll < undo_rate and game.history:
            recorder.undo()
            if rng.random() < 0.5:
                recorder.redo()
            last = None
            continue
        if roll < undo_rate + illegal_rate:
            illegal = _illegal_moves(game.position, variant)
            if illegal:
                recorder.play(rng.choice(illegal)[0], force=True)
                continue
        move = _pick_legal(rng, game, last)
        if move is None:
            break
        recorder.play(move)
        last = move
    source = "camera" if observed else "deal"
    header = Header(
        start.observed() if observed else start, variant, deal, source, SAMPLE_STARTED
    )
    return PlayedGame(header, tuple(recorder.events))


def sample_game(seed: int = 7) -> PlayedGame:
    """The bundled sample: deal 1 in two suits, with one mixed-suit group move and one
    blocked deal carried out by hand, and one move taken back."""
    rng = random.Random(seed)
    start = deal_position(1, SuitMode.TWO)
    recorder = _Recorder(Game(start, STANDARD), observed=False)
    mixed = blocked = undone = False
    done_at: int | None = None
    last: Move | None = None
    for _ in range(400):
        game = recorder.game
        illegal = _illegal_moves(game.position, STANDARD)
        if not mixed and game.moves_made >= 5:
            group = [
                m for m, e in illegal
                if isinstance(e, MixedSuitGroupError) and _fits(game.position, m)
            ]
            if group:
                recorder.play(group[0], force=True)
                mixed = True
                continue
        if not blocked and any(isinstance(e, BlockedDealError) for _, e in illegal):
            recorder.play(Deal(), force=True)
            blocked = True
            continue
        move = _pick_legal(rng, game, last)
        if move is None:
            break
        recorder.play(move)
        last = move
        if not undone and game.moves_made == 12:
            recorder.undo()
            undone = True
            last = None
        if mixed and blocked:
            done_at = game.moves_made if done_at is None else done_at
            if game.moves_made >= max(40, done_at + 8):
                break
    if not (mixed and blocked and undone):
        raise RuntimeError(f"seed {seed} gave no mixed-suit move or no blocked deal; try another")
    header = Header(start, STANDARD, 1, "deal", SAMPLE_STARTED)
    return PlayedGame(header, tuple(recorder.events))


def _fits(position: Position, move: Move) -> bool:
    """Whether a tableau move's lowest card goes on the target by rank (suits aside)."""
    assert isinstance(move, TableauMove)
    top = position.columns[move.target].top
    base = position.columns[move.source].up[-move.count]
    return top is not None and base is not None and top.rank == base.rank + 1


def write_game(game: PlayedGame, path: str | Path) -> None:
    """Write a played game as a log file."""
    Path(path).write_text("\n".join(game.lines()) + "\n", encoding="utf-8")


def main(argv: list[str]) -> int:
    """Write the sample game to the path given."""
    if len(argv) != 1:
        print("usage: python3 -m spider_vision.gamelog.sample PATH", file=sys.stderr)
        return 2
    write_game(sample_game(), argv[0])
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
