"""Replaying a game log through the engine, and naming the first event that does not match.

Pure: takes a ``GameLog`` already read, returns a ``Replay``. The log follows
the physical table, so a move logged as illegal is carried out with
``force=True``; its reason must be the one the rules give. Flip events either
confirm an automatic flip or give a ``??`` card its identity; remove events
confirm automatic removals (or carry them out when removal is manual);
corrections replace one card; an undo note steps back over the last move.
Every ``after`` is compared as canonical SPN.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from spider_vision.engine import (
    SUIT_NAMES,
    Column,
    EmptySourceError,
    EmptyStockError,
    FaceDownCardsError,
    SameColumnError,
    IllegalMoveError,
    Move,
    NotationError,
    Position,
    Removal,
    Step,
    Variant,
    apply_move,
    card_text,
    check_move,
    column_letter,
    deal_position,
    reveal,
)
from spider_vision.engine.cards import MaybeCard
from spider_vision.engine.rules import Removed
from spider_vision.gamelog.events import (
    CorrectionEvent,
    Event,
    FlipEvent,
    Header,
    MoveEvent,
    NoteEvent,
    RemoveEvent,
)
from spider_vision.gamelog.reader import GameLog, LogDamage, LoggedEvent

__all__ = ["Mismatch", "Replay", "ReplayedEvent", "describe", "replay", "replay_events", "spn_difference"]

# Moves that cannot be made even by hand (apply_move refuses them with force too).
_PHYSICAL = (SameColumnError, EmptySourceError, FaceDownCardsError, EmptyStockError)


@dataclass(frozen=True)
class ReplayedEvent:
    """One event replayed: the position after it and its flag (a broken rule), if any."""

    line: int
    event: Event
    position: Position
    flag: str = ""


@dataclass(frozen=True)
class Mismatch:
    """The first event that does not follow from the ones before it."""

    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


@dataclass(frozen=True)
class Replay:
    """The outcome of a replay: events replayed up to the first mismatch."""

    header: Header
    entries: tuple[ReplayedEvent, ...]
    mismatch: Mismatch | None = None
    damage: LogDamage | None = None

    @property
    def consistent(self) -> bool:
        """No event contradicts the engine (a damaged last line does not count)."""
        return self.mismatch is None

    @property
    def position(self) -> Position:
        """The position after the last event replayed."""
        return self.entries[-1].position if self.entries else self.header.start

    @property
    def flags(self) -> list[ReplayedEvent]:
        """The events that broke a rule."""
        return [entry for entry in self.entries if entry.flag]


class _Inconsistent(Exception):
    """Raised inside the replay at the first event that does not match."""


@dataclass
class _State:
    position: Position
    variant: Variant
    history: list[tuple[Move, Position]] = field(default_factory=list)
    pending_flips: dict[int, MaybeCard] = field(default_factory=dict)
    pending_removals: list[Removed] = field(default_factory=list)

    def settle(self, step: Step) -> None:
        self.position = step.after
        self.pending_removals.extend(step.removals)
        self.pending_flips.update((flip.column, flip.card) for flip in step.flips)


def replay(log: GameLog) -> Replay:
    """Replay every event of ``log`` from its start; stop at the first that does not match."""
    header = log.header
    entries: list[ReplayedEvent] = []
    if header.source == "deal" and header.deal is not None:
        try:
            expected = deal_position(header.deal, header.suits)
        except NotationError as error:
            return Replay(header, (), Mismatch(1, str(error)), log.damage)
        if expected.spn() != header.start.spn():
            return Replay(
                header, (), Mismatch(1, f"start is not deal {header.deal}: "
                                     + spn_difference(header.start.spn(), expected.spn())),
                log.damage,
            )
    state = _State(header.start, header.variant)
    for logged in log.events:
        try:
            flag = _apply(state, logged.event)
        except _Inconsistent as error:
            return Replay(header, tuple(entries), Mismatch(logged.line, str(error)), log.damage)
        entries.append(ReplayedEvent(logged.line, logged.event, state.position, flag))
    if log.damage is not None and not log.damage.last:
        return Replay(
            header, tuple(entries), Mismatch(log.damage.line, log.damage.message), log.damage
        )
    return Replay(header, tuple(entries), None, log.damage)


def replay_events(header: Header, events: list[Event]) -> Replay:
    """Replay events that are not from a file (their lines numbered from 2)."""
    logged = tuple(LoggedEvent(line, event) for line, event in enumerate(events, start=2))
    return replay(GameLog(header, logged))


# --- one event ---------------------------------------------------------------------


def _apply(state: _State, event: Event) -> str:
    if isinstance(event, MoveEvent):
        return _apply_move(state, event)
    if isinstance(event, FlipEvent):
        _apply_flip(state, event)
    elif isinstance(event, RemoveEvent):
        _apply_remove(state, event)
    elif isinstance(event, CorrectionEvent):
        _apply_correction(state, event)
    elif event.undo is not None:
        _apply_undo(state, event)
    return ""


def _apply_move(state: _State, event: MoveEvent) -> str:
    move, before = event.move, state.position
    try:
        check_move(before, move, state.variant)
        reason = ""
    except _PHYSICAL as error:
        raise _Inconsistent(f"{move} cannot be made even by hand: {error}") from None
    except IllegalMoveError as error:
        reason = str(error)
    if event.legal and reason:
        raise _Inconsistent(f"{move} is logged as legal but the rules refuse it: {reason}")
    if not event.legal and not reason:
        raise _Inconsistent(f"{move} is logged as illegal ({event.reason}) but it is legal")
    if reason and event.reason != reason:
        raise _Inconsistent(
            f"{move} is illegal but the log gives the reason '{event.reason}'; "
            f"the rules say '{reason}'"
        )
    try:
        step = apply_move(before, move, state.variant, force=bool(reason))
    except IllegalMoveError as error:
        raise _Inconsistent(f"{move} cannot be made even by hand: {error}") from None
    state.pending_flips.clear()
    state.pending_removals.clear()
    state.settle(step)
    state.history.append((move, before))
    _check_after(state, event.after, str(move))
    return f"{move}: {reason}" if reason else ""


def _apply_flip(state: _State, event: FlipEvent) -> None:
    column, card = event.column, event.card
    letter = column_letter(column)
    if column in state.pending_flips:
        turned = state.pending_flips.pop(column)
        if turned is not None:
            if card is not None and card != turned:
                raise _Inconsistent(
                    f"the card turned over in column {letter} is {turned}, the log says {card}"
                )
            return
        if card is None:
            return
    elif card is None:
        if None in state.position.columns[column].up:
            return
        raise _Inconsistent(f"no card was turned over in column {letter}")
    try:
        step = reveal(state.position, column, card, state.variant)
    except IllegalMoveError:
        raise _Inconsistent(
            f"column {letter} has no card turned over and not yet read; the log reads {card}"
        ) from None
    except NotationError as error:
        raise _Inconsistent(f"reading {card} in column {letter}: {error}") from None
    try:
        step.after.validate()
    except NotationError as error:
        raise _Inconsistent(f"reading {card} in column {letter}: {error}") from None
    state.settle(step)


def _apply_remove(state: _State, event: RemoveEvent) -> None:
    letter = column_letter(event.column)
    for index, removed in enumerate(state.pending_removals):
        if removed.column == event.column:
            if removed.suit != event.suit:
                raise _Inconsistent(
                    f"the run removed from column {letter} is {SUIT_NAMES[removed.suit]}, "
                    f"the log says {SUIT_NAMES[event.suit]}"
                )
            del state.pending_removals[index]
            return
    if not state.variant.manual_removal:
        raise _Inconsistent(f"no completed run was removed from column {letter}")
    before = state.position
    try:
        step = apply_move(before, Removal(event.column), state.variant)
    except IllegalMoveError as error:
        raise _Inconsistent(f"cannot remove a run from column {letter}: {error}") from None
    if step.removals[0].suit != event.suit:
        raise _Inconsistent(
            f"the run in column {letter} is {SUIT_NAMES[step.removals[0].suit]}, "
            f"the log says {SUIT_NAMES[event.suit]}"
        )
    state.settle(replace(step, removals=step.removals[1:]))
    state.history.append((Removal(event.column), before))


def _apply_correction(state: _State, event: CorrectionEvent) -> None:
    letter = column_letter(event.column)
    pile = state.position.columns[event.column]
    cards = pile.cards()
    if event.index >= len(cards):
        raise _Inconsistent(
            f"column {letter} has {len(cards)} cards; there is no card at index {event.index}"
        )
    if cards[event.index] != event.was:
        raise _Inconsistent(
            f"card {event.index} of column {letter} is {card_text(cards[event.index])}, "
            f"the correction says it was {card_text(event.was)}"
        )
    changed = cards[: event.index] + (event.now,) + cards[event.index + 1 :]
    column = Column(changed[: len(pile.down)], changed[len(pile.down) :])
    state.position = state.position.with_columns({event.column: column})
    _check_after(state, event.after, "the correction")


def _apply_undo(state: _State, event: NoteEvent) -> None:
    assert event.undo is not None and event.after is not None
    if not state.history:
        raise _Inconsistent(f"undo {event.undo}, but no move has been made")
    move, before = state.history[-1]
    if str(move) != str(event.undo):
        raise _Inconsistent(f"undo {event.undo}, but the last move was {move}")
    state.history.pop()
    state.position = before
    state.pending_flips.clear()
    state.pending_removals.clear()
    _check_after(state, event.after, f"undo {move}")


def _check_after(state: _State, logged: str, what: str) -> None:
    try:
        canonical = Position.from_spn(logged, validate=False).spn()
    except NotationError as error:
        raise _Inconsistent(f"'after' of {what} is not a position: {error}") from None
    actual = state.position.spn()
    if canonical != actual:
        raise _Inconsistent(f"after {what}: {spn_difference(canonical, actual)}")


def spn_difference(logged: str, actual: str) -> str:
    """Say where two SPN texts first differ: which column or field, and both values."""
    logged_fields, actual_fields = logged.split(" "), actual.split(" ")
    names = ("tableau", "stock", "removed", "suits")
    for name, mine, theirs in zip(names, logged_fields, actual_fields):
        if mine == theirs:
            continue
        if name == "tableau":
            for index, (a, b) in enumerate(zip(mine.split("/"), theirs.split("/"))):
                if a != b:
                    return f"column {column_letter(index)} is {a} in the log but {b} on replay"
        return f"{name} is {mine} in the log but {theirs} on replay"
    return f"the log has {logged}, replay gives {actual}"


# --- text ----------------------------------------------------------------------------


def describe(event: Event) -> str:
    """The event in a few words, for printing: ``move ed3``, ``flip e 7h``, ``undo ed3``."""
    if isinstance(event, MoveEvent):
        text = "deal" if event.kind == "deal" else f"move {event.move}"
        return text if event.legal else f"{text} (illegal: {event.reason})"
    if isinstance(event, FlipEvent):
        return f"flip {column_letter(event.column)} {card_text(event.card)}"
    if isinstance(event, RemoveEvent):
        return f"remove {column_letter(event.column)} ({SUIT_NAMES[event.suit]})"
    if isinstance(event, CorrectionEvent):
        return (
            f"correction {column_letter(event.column)}[{event.index}] "
            f"{card_text(event.was)} -> {card_text(event.now)}"
        )
    if event.undo is not None:
        return f"undo {event.undo}"
    return f"note: {event.text}"
