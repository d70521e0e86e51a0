"""Follow a physical game frame by frame: stable tables, moves between them, rule breaks, the log.

``Tracker.feed`` takes every frame. The stability gate lets only frames of a
table at rest through; those are read (``read_table``) and collected into a
stable period. From the first period the tracker takes the start position
(the fresh deal, when that table is one step into it); from each later one
it infers the moves since the last (``infer``), follows them with the engine
(illegal ones too, flagged with the rules' reason) and writes them to the
game log at once. Cards turned over or dealt are read
from the evidence of all frames of the period (fusion) when the period ends;
every card the game knows keeps gathering evidence while it shows, and a
correction is written when that evidence overturns an earlier read.
"""

from __future__ import annotations

import logging
import math
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterable

import numpy as np

from spider_vision.engine import (
    STANDARD,
    Card,
    Column,
    Deal,
    Flip,
    Game,
    IllegalMoveError,
    Move,
    NotationError,
    Position,
    PositionError,
    Step,
    SuitMode,
    TableauMove,
    Variant,
    apply_move,
    column_letter,
    is_legal,
    reveal,
)
from spider_vision.gamelog import (
    SOURCES,
    CorrectionEvent,
    Event,
    FlipEvent,
    LogWriter,
    MoveEvent,
    NoteEvent,
    RemoveEvent,
    read_log,
    replay,
)
from spider_vision.tracking.identities import CLASSES, LEGAL_PRIOR, SPREAD_DOUBT, CardBook
from spider_vision.tracking.inference import (Doubt, Hypothesis, Inference, Scorer, infer, involved_cards,
                                              move_of, touches_unread, with_doubt)
from spider_vision.tracking.observation import (
    ColumnGuide, ColumnView, TableView, allowed_classes, view_from_reading,
)
from spider_vision.tracking.sources import Frame
from spider_vision.tracking.stability import GateSettings, StabilityGate
from spider_vision.vision import Calibration, Models, TableReading, VisionError, read_table
from spider_vision.vision.rules import DEALT_DOWN

__all__ = ["STILLS", "Flag", "TrackUpdate", "Tracker", "TrackerSettings"]

logger = logging.getLogger(__name__)

GUIDE_PATIENCE = 8
"""Readings in a row that place the columns elsewhere before the tracker believes the camera moved."""
UNREADABLE = 3
"""Frames at rest in a row that cannot be read (too dark, no cards) before a ``camera`` flag."""
DEALT_SHARE = 0.25
"""Share of the first table's views that must show a column exactly as dealt for the fresh-deal test
(bench game 749005: far, tightly stacked face-down cards, whose edges were taken for face-up cards or
missed in most views; each column showed the dealt shape in a quarter to all of the eight views, but
two, which showed two face-down cards and two face-up ones, or other shapes)."""


@dataclass(frozen=True)
class Flag:
    """Something the player should look at: a rule break, a doubtful read, an ambiguous change."""

    kind: str  # "illegal-move" | "blocked-deal" | "doubtful-card" | "misread" | "ambiguous" | "camera"
    message: str
    column: int | None = None
    index: int | None = None
    frame: int | None = None


@dataclass(frozen=True)
class TrackUpdate:
    """What one frame did: its state, its reading (when read), the belief, events and flags."""

    frame: Frame
    state: str  # "moving", "settling", "stable"
    reading: TableReading | None
    position: Position | None
    events: tuple[Event, ...]
    flags: tuple[Flag, ...]


LOOK_AGAIN = 2.0
"""Nats by which a move must explain a period's later readings better than the unchanged table, for a
period first taken as unchanged to be followed as that move after all."""


@dataclass(frozen=True)
class TrackerSettings:
    """How many frames the tracker reads and how sure it must be."""

    start_views: int = 8
    """Readings of the first stable table before the start position is taken (a far view needs
    several to tell a fresh deal's one card per column from extra detections that come and go)."""
    resolve_views: int = 2
    """Readings of a stable table before the move that led to it is inferred."""
    evidence_views: int = 6
    """Readings per stable period in all (the rest of a long still period is not read)."""
    retry_every: int = 3
    """While the table is unexplained, read every this many stable frames."""
    retries: int = 3
    """Unexplained inferences in one period before the best explanation is taken anyway (flagged)."""
    correction_margin: float = 3.0
    """Score (nats) by which another identity must beat a card's for a correction."""
    doubtful_below: float = 1.0
    """A card read with a lead smaller than this over the next identity is flagged doubtful."""
    gate: GateSettings = field(default_factory=GateSettings)


STILLS = TrackerSettings(start_views=1, resolve_views=1, gate=GateSettings(hold=1, stills=True))
"""Settings for a folder of photos: each picture is a table at rest of its own."""


@dataclass
class _Period:
    """The frames of one stable table and the evidence they gave each card."""

    readings: list[tuple[int, TableReading]] = field(default_factory=list)
    resolved: bool = False
    attempts: int = 0
    stable_frames: int = 0
    gathered: int = 0  # readings already turned into evidence
    start: bool = False  # the period the start position was taken from
    still: bool = False  # resolved as a table unchanged: a later look may still find the move
    sums: dict[int, np.ndarray] = field(default_factory=dict)
    counts: dict[int, int] = field(default_factory=dict)
    exposed: set[int] = field(default_factory=set)  # cards seen as their pile's exposed card


@dataclass
class _Committed:
    """A move or deal followed, with what is needed to take it back."""

    step: Step
    ids: tuple[list[list[int]], int]
    game_length: int


class Tracker:
    """Turns frames of a physical game into a game log, a position and flags."""

    def __init__(self, models: Models, *, suits: int | None = None, variant: Variant = STANDARD,
                 log: LogWriter | None = None, log_path: str | Path | None = None,
                 source_name: str = "video", settings: TrackerSettings | None = None,
                 reader: Callable[[np.ndarray], TableReading] | None = None,
                 calibration: Calibration | None = None) -> None:
        """``calibration`` adapts the reader to the player's deck; ``reader`` replaces ``read_table``
        with these models altogether (a test's stand-in)."""
        self.models = models
        self.calibration = calibration
        self._reader = reader
        self.suits = suits
        self.variant = variant
        self.source = _header_source(source_name)
        self.settings = settings or (STILLS if self.source == "images" else TrackerSettings())
        self.log_path = Path(log_path) if log_path is not None else None
        self._writer: LogWriter | None = log
        self._gate = StabilityGate(self.settings.gate)
        self._t = 0.0
        self._frame = -1
        self.position: Position | None = None
        self.game: Game | None = None
        self.history: list[Event] = []
        self._book: CardBook | None = None
        self._moves: list[_Committed] = []
        self._period: _Period | None = None
        self._allowed: np.ndarray | None = None
        self._guide: ColumnGuide | None = None
        self._moved_guide: ColumnGuide | None = None
        self._moved_count = 0
        self._flagged: set[tuple[int, str]] = set()
        self._seq = 1
        self.frames_seen = 0
        self.frames_read = 0
        self.closed = False
        self._unread = 0
        if log is not None:
            self._resume(log)

    # --- the public interface ---------------------------------------------------------

    def feed(self, frame: Frame) -> TrackUpdate:
        """Process one frame; returns what it did."""
        self._check_open()
        self._t = float(frame.t)
        self._frame = frame.index
        self.frames_seen += 1
        state = self._gate.update(frame.image)
        events: list[Event] = []
        flags: list[Flag] = []
        reading = None
        if state != "stable":
            if self._period is not None:
                self._end_period(events, flags)
        else:
            if self._period is not None and self.settings.gate.stills:
                self._end_period(events, flags)  # every photo is a table at rest of its own
            if self._period is None:
                self._period = _Period()
            period = self._period
            period.stable_frames += 1
            if self._wants_reading(period):
                reading = self._read(frame.image, flags)
                if reading is not None:
                    period.readings.append((frame.index, reading))
                    self._after_reading(period, events, flags)
        return TrackUpdate(frame, state, reading, self.position, tuple(events), tuple(flags))

    def correct(self, column: int, index: int, card: Card) -> CorrectionEvent:
        """The player says the card at ``index`` of ``column`` (from the bottom) is ``card``."""
        self._check_open()
        if self.position is None or self._book is None:
            raise ValueError("no game yet: the table has not been seen at rest")
        if not 0 <= column < 10:
            raise ValueError(f"there is no column {column}")
        pile = self.position.columns[column]
        cards = pile.cards()
        if not 0 <= index < len(cards):
            raise ValueError(f"column {column_letter(column)} has {len(cards)} cards; there is no card {index}")
        self.position.mode.check_card(card)
        if cards[index] != card and self.position.known_cards()[card] >= self.position.mode.copies:
            raise ValueError(f"all {self.position.mode.copies} copies of {card} are already on the table")
        event = self._write_correction(column, index, card)
        slot = index - len(pile.down)
        if 0 <= slot < len(self._book.ids[column]):
            self._book.settle(self._book.id_at(column, slot), card)
        return event

    def undo_last(self) -> Event | None:
        """Take back the last move followed (an undo note in the log); ``None`` when there is none."""
        self._check_open()
        if not self._moves or self.position is None:
            return None
        return self._take_back()

    def close(self) -> None:
        """Finish the stable period in progress (its reads are written) and close the log."""
        if self.closed:
            return
        self.closed = True
        if self._period is not None:
            self._end_period([], [])
        if self._writer is not None:
            self._writer.close()

    def _check_open(self) -> None:
        if self.closed:
            raise ValueError("the tracker is closed")

    def __enter__(self) -> Tracker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- reading -------------------------------------------------------------------------

    def _wants_reading(self, period: _Period) -> bool:
        s = self.settings
        if self.position is None:
            return True
        if not period.resolved:
            return period.attempts == 0 or period.stable_frames % s.retry_every == 0
        return len(period.readings) < s.evidence_views

    def _read(self, image: np.ndarray, flags: list[Flag]) -> TableReading | None:
        """The reading of a frame at rest; a table that cannot be read for a while is flagged once."""
        try:
            if self._reader is not None:
                reading = self._reader(image)
            else:
                reading = read_table(image, self.models, suits=self.suits, calibration=self.calibration)
        except VisionError as error:
            logger.debug("frame %d not read: %s", self._frame, error)
            self._unread += 1
            if self._unread == UNREADABLE:
                flags.append(Flag("camera", f"the table cannot be read: {error}", frame=self._frame))
            return None
        self._unread = 0
        self.frames_read += 1
        return reading

    def _views(self, readings: list[tuple[int, TableReading]]) -> list[TableView]:
        allowed = self._allowed if self._allowed is not None else np.ones(52, bool)
        views = []
        for index, reading in readings:
            shift = self._learn_columns(reading)
            view = view_from_reading(reading, index, allowed, self._guide, shift)
            if view is not None:
                views.append(view)
        return views

    def _learn_columns(self, reading: TableReading) -> int | None:
        """Follow where the columns lie, and say by how much this reading's column names are shifted.

        The guide comes from the first reading that names the columns and follows readings that
        agree with it (a camera's slow drift). A reading whose names are ours shifted (a lone card
        the reader took for a loose King) gets them shifted back; one that names some columns
        where they were and more than one elsewhere, out of a regular run (a card's index seen
        between two piles, taken for a pile of its own), gets ``None``: its cards are placed by the
        guide. A different layout seen in ``GUIDE_PATIENCE`` readings in a row means the camera
        moved.
        """
        found = ColumnGuide.from_reading(reading)
        if found is None:
            return 0
        shift = self._guide.shift_of(found) if self._guide is not None else 0
        if (shift is not None and self._guide is not None and self._guide.strays(found, shift) > 1
                and not found.regular()):
            return None
        if shift == 0:
            self._guide = found
            self._moved_guide, self._moved_count = None, 0
            return 0
        if shift is not None:
            return shift
        if self._moved_guide is not None and self._moved_guide.agrees(found):
            self._moved_count += 1
            if self._moved_count >= GUIDE_PATIENCE:
                logger.info("frame %d: the columns moved in the picture; following them", self._frame)
                self._guide, self._moved_guide, self._moved_count = found, None, 0
        else:
            self._moved_guide, self._moved_count = found, 1
        return 0

    # --- periods -------------------------------------------------------------------------

    def _after_reading(self, period: _Period, events: list[Event], flags: list[Flag]) -> None:
        if self.position is None:
            if len(period.readings) >= self.settings.start_views:
                self._start(period, events, flags)
            return
        if not period.resolved:
            if len(period.readings) >= self.settings.resolve_views:
                self._resolve(period, events, flags, final=False)
            return
        if period.still and len(period.readings) == self.settings.evidence_views:
            self._look_again(period, events, flags)
        self._gather(period)

    def _look_again(self, period: _Period, events: list[Event], flags: list[Flag]) -> None:
        """A table taken as unchanged from its first readings, judged again from the later ones alone.

        The first frames of a rest may still miss a card just put down (a hand's shadow
        leaving it, a card settling); a move that the later readings clearly show, and
        explain, is followed after all, and the evidence gathered for the old table is
        gathered again for the new one.
        """
        assert self.position is not None
        period.still = False
        views = self._views(period.readings[self.settings.resolve_views:])
        if not views:
            return
        inference = self._infer(views)
        best = inference.best
        unchanged, problems = Scorer(views).score(self.position)
        # The later readings may be as noisy as the first (a card that comes and goes in a far
        # view): the move must explain them at least as well as the unchanged table, and clearly.
        if not best.changed or inference.ambiguous or best.problems > problems or best.score - unchanged < LOOK_AGAIN:
            return
        logger.info("frame %d: the table changed after all: %s", self._frame, best.describe())
        period.sums, period.counts, period.exposed, period.gathered = {}, {}, set(), 0
        self._commit(best, views, events, flags)

    def _end_period(self, events: list[Event], flags: list[Flag]) -> None:
        period, self._period = self._period, None
        assert period is not None
        if period.readings:
            if self.position is None:
                self._start(period, events, flags)
            elif not period.resolved:
                self._resolve(period, events, flags, final=True)
            elif period.gathered < len(period.readings):
                self._gather(period)
        if self.position is not None and self._book is not None:
            self._book.add_votes(period.sums, period.counts, period.exposed)
            if period.start:
                for column, pile in enumerate(self.position.columns):
                    for slot, card in enumerate(pile.up):
                        self._flag_if_doubtful(column, slot, card, flags)
            self._read_new_cards(events, flags)
            self._review_cards(events, flags)

    def _resolve(self, period: _Period, events: list[Event], flags: list[Flag], *, final: bool) -> None:
        assert self.position is not None
        views = self._views(period.readings[-self.settings.evidence_views:])
        if not views:
            return
        inference = self._infer(views)
        best = inference.best
        # A rule break is flagged from readings that all agree with it: where one shows a column
        # otherwise (a pile's cards grouped with its neighbour's in one frame), look again first.
        unsure = best.problems > 0 and any(not step.legal for step in best.steps)
        if not inference.explained or unsure:
            period.attempts += 1
            if period.attempts < self.settings.retries and not final:
                logger.debug("frame %d: table %s (best %s); waiting", self._frame,
                             "unexplained" if not inference.explained else "not clear", best.describe())
                return
            if best.changed and not inference.fits_where_it_moves:
                flags.append(Flag("misread", f"the table does not quite match the game; taking it as "
                                             f"{best.describe()} (check the cards)", frame=self._frame))
        period.resolved = True
        period.still = not best.changed and not final
        if best.changed:
            if inference.ambiguous and inference.runner_up is not None:
                flags.append(Flag("ambiguous", f"could not tell {best.describe()} from "
                                               f"{inference.runner_up.describe()}; took {best.describe()}",
                                  frame=self._frame))
            self._commit(best, views, events, flags)
        self._gather(period)

    def _infer(self, views: list[TableView]) -> Inference:
        """The views explained from the game so far (the last move may be taken back)."""
        assert self.position is not None
        last = self._moves[-1].step if self._moves else None
        return infer(self.position, views, self.variant, last, self._doubts())

    def _gather(self, period: _Period) -> None:
        """Turn the period's readings not yet used into evidence for the cards they show."""
        assert self.position is not None and self._book is not None
        fresh = period.readings[period.gathered:]
        period.gathered = len(period.readings)
        views = self._views(fresh)
        if not views:
            return
        for column, alignments in enumerate(Scorer(views).alignments(self.position)):
            ids = self._book.ids[column]
            for view, alignment in zip(views, alignments):
                up = view.columns[column].up
                for slot, observed in alignment.matches:
                    if slot < len(ids):
                        card_id = ids[slot]
                        period.sums[card_id] = period.sums.get(card_id, 0.0) + up[observed]
                        period.counts[card_id] = period.counts.get(card_id, 0) + 1
                        if slot == len(ids) - 1:
                            period.exposed.add(card_id)

    # --- moves ---------------------------------------------------------------------------

    def _commit(self, best: Hypothesis, views: list[TableView], events: list[Event], flags: list[Flag]) -> None:
        assert self.position is not None and self.game is not None and self._book is not None
        if best.undo is not None:
            events.append(self._take_back())
            if not best.steps:
                return
        if best.relabel is not None:
            relabel = best.relabel
            self._read_again(relabel.column, relabel.slot, relabel.card, best.moves[0], events, flags, relabel.aside)
        later: dict[tuple[int, int], np.ndarray] | None = None
        for number, step in enumerate(best.steps):
            move = move_of(step)
            unread = any(None in pile.up for pile in self.position.columns)
            read = unread and bool(number or _takes_or_covers_unread(self.position, move))
            if read:
                # A card turned over earlier in the sequence (or one not in sight yet that this
                # move takes or covers): read it where it lies at the end, then judge the move.
                if later is None:
                    later = _evidence_of(best.after, views)
                self._read_new_cards(events, flags, self._evidence_at_end(best.steps[number:], later), unseen=True)
            if number or read:  # cards read or corrected since the inference: judge this step afresh
                try:
                    step = apply_move(self.position, move, self.variant, force=True)
                except IllegalMoveError as error:
                    logger.warning("frame %d: %s cannot follow: %s", self._frame, move, error)
                    return
                if not step.legal and isinstance(step.move, TableauMove):
                    step = self._legalise(step, events, flags)
            self._follow(step, events, flags)

    def _evidence_at_end(self, steps: tuple[Step, ...],
                         evidence: dict[tuple[int, int], np.ndarray]) -> dict[tuple[int, int], np.ndarray]:
        """For each card not read yet (by its column and slot now), the evidence where it lies
        once ``steps`` are done (``evidence`` is by column and slot at the end)."""
        assert self.position is not None and self._book is not None
        book = CardBook([list(pile) for pile in self._book.ids], self._book.allowed, next_id=self._book.next_id)
        unread = {book.id_at(column, slot): (column, slot) for column, pile in enumerate(self.position.columns)
                  for slot, card in enumerate(pile.up) if card is None}
        for step in steps:
            book.follow(step)
        return {unread[card_id]: evidence[(column, slot)] for column, ids in enumerate(book.ids)
                for slot, card_id in enumerate(ids) if card_id in unread and (column, slot) in evidence}

    def _follow(self, step: Step, events: list[Event], flags: list[Flag]) -> None:
        """Carry out a step: the game, the card ids, the log and the flag of a rule break."""
        assert self.game is not None and self._book is not None
        self._moves.append(_Committed(step, self._book.snapshot(), len(self.game.history)))
        self.game.history.append(step)
        self.game.undone.clear()
        self._book.record_legal(step)
        self._book.follow(step)
        self.position = step.after
        events.append(self._emit(MoveEvent(self._seq, self._t, move_of(step), step.legal, step.after.spn(),
                                           step.reason)))
        for removed in step.removals:
            events.append(self._emit(RemoveEvent(self._seq, self._t, removed.column, removed.suit)))
        if not step.legal:
            if isinstance(step.move, Deal):
                empty = step.before.empty_columns()
                flags.append(Flag("blocked-deal", step.reason, empty[0] if empty else None, frame=self._frame))
            else:
                assert isinstance(step.move, TableauMove)
                source = step.before.columns[step.move.source]
                flags.append(Flag("illegal-move", step.reason, step.move.source,
                                  len(source) - step.move.count, frame=self._frame))
        logger.info("frame %d: %s%s", self._frame, step.move, "" if step.legal else f" ({step.reason})")

    def _doubts(self, cards: Iterable[tuple[int, int]] | None = None) -> dict[tuple[int, int], list[Doubt]]:
        """The face-up cards (all, or ``cards`` as (column, slot)) that may have been misread: each other
        identity whose score (evidence and constraints) falls short of the card's by less than the prior
        of a legal move, with the shortfall; of those, the likeliest few and any within ``SPREAD_DOUBT``.
        The reader's lead for the card's identity over its runner-up narrows that margin: a card read
        surely is seldom misread, one the reader was torn on may be any of its close readings (bench
        game 749000: a 4s read 2.9 nats ahead became the 5s, 3.4 nats short, that an illegal 4 put on
        it needed; game 748002: a 3h read 1.2 nats ahead was rightly the Ah, 3.0 nats short, of a move).
        An identity whose copies are all placed counts when one of them may be misread as well: the
        cheapest to read as something else is put aside (bench game 739002: a 3d read as a 2d moved onto
        a 4d, while a 2d further up was taken for the second 3d, 2 nats ahead; the move was followed with
        the card read as a 3s, and the 4d-3d moved on together was flagged as mixed suits)."""
        assert self.position is not None and self._book is not None
        position = self.position
        if cards is None:
            cards = [(column, slot) for column, pile in enumerate(position.columns) for slot in range(len(pile.up))]
        known = self._book.cards_by_id(position)
        placed = position.known_cards()
        copies = position.mode.copies
        doubts: dict[tuple[int, int], list[Doubt]] = {}
        for column, slot in cards:
            current = position.columns[column].up[slot]
            if current is None:
                continue
            card_id = self._book.id_at(column, slot)
            base = self._book.score(card_id, current, known)
            # A card the camera has never seen (dealt past the picture's edge, named by a guess when
            # a move covered it) gives no evidence for its name or any other: reading it as one given
            # identity is one chance in as many as it may have, where an explanation that leaves it
            # alone needs no reading (bench game 751003: a guessed As behind the edge read as a 2s for
            # free tied the true move from another column whose cards were past the edge as well).
            guess = 0.0 if self._book.seen(card_id) else math.log(
                max(len(self._book.candidates(card_id, position, None)), 1))
            limit = LEGAL_PRIOR - max(self._book.lead(card_id, current), 0.0)
            for card in self._book.candidates(card_id, position, current, floor=base - SPREAD_DOUBT, placed=True):
                cost = base - self._book.score(card_id, card, known) + guess
                if card == current or cost >= limit:
                    continue
                aside = None
                if placed[card] >= copies:
                    found = self._aside(card, (column, slot), known)
                    if found is None:
                        continue
                    aside, extra = found
                    cost += extra
                    if cost >= limit:
                        continue
                doubts.setdefault((column, slot), []).append(Doubt(card, cost, aside))
        return doubts

    def _aside(self, card: Card, keep: tuple[int, int], known: dict[int, Card | None]
               ) -> tuple[tuple[int, int, Card], float] | None:
        """The placed copy of ``card`` (not the one at ``keep``) cheapest to read as another identity with
        a copy to spare: that (column, slot, identity) and what it costs, or None."""
        assert self.position is not None and self._book is not None
        best: tuple[tuple[int, int, Card], float] | None = None
        for column, pile in enumerate(self.position.columns):
            for slot, held in enumerate(pile.up):
                if held != card or (column, slot) == keep:
                    continue
                card_id = self._book.id_at(column, slot)
                base = self._book.score(card_id, card, known)
                for other in self._book.candidates(card_id, self.position, card):
                    cost = max(base - self._book.score(card_id, other, known), 0.0)
                    if other != card and (best is None or cost < best[1]):
                        best = ((column, slot, other), cost)
        return best

    def _legalise(self, step: Step, events: list[Event], flags: list[Flag]) -> Step:
        """An illegal-looking later move of a sequence that one doubtful card explains: correct the card,
        keep the move legal (the first move's doubts are weighed by the inference).

        Of the doubts of the cards the move involves (``_doubts``), the cheapest
        identity that makes the move legal is taken.
        """
        assert self.position is not None
        move = step.move
        assert isinstance(move, TableauMove)
        position = self.position
        best: tuple[float, int, int, Doubt] | None = None
        for (column, slot), options in self._doubts(involved_cards(position, move)).items():
            for doubt in options:
                if best is not None and doubt.cost >= best[0]:
                    continue
                changed = with_doubt(position, column, slot, doubt)
                if changed is not None and is_legal(changed, move, self.variant):
                    best = (doubt.cost, column, slot, doubt)
        if best is None:
            return step
        _, column, slot, doubt = best
        self._read_again(column, slot, doubt.card, move, events, flags, doubt.aside)
        assert self.position is not None
        return apply_move(self.position, move, self.variant, force=True)

    def _read_again(self, column: int, slot: int, card: Card, move: Move, events: list[Event],
                    flags: list[Flag], aside: tuple[int, int, Card] | None = None) -> None:
        """The ``slot``-th face-up card of ``column`` is ``card``, as ``move`` shows: a correction and a flag
        (two of each when another copy of ``card`` is put ``aside`` first, read as another identity)."""
        assert self.position is not None
        if aside is not None:
            other_column, other_slot, other = aside
            pile = self.position.columns[other_column]
            was, index = pile.up[other_slot], len(pile.down) + other_slot
            events.append(self._write_correction(other_column, index, other))
            flags.append(Flag("misread", f"column {column_letter(other_column)}: {was} was a misread; {move} "
                                         f"shows that {was} lies in column {column_letter(column)}, so this one "
                                         f"is {other}", other_column, index, self._frame))
        pile = self.position.columns[column]
        index = len(pile.down) + slot
        was = pile.up[slot]
        events.append(self._write_correction(column, index, card))
        flags.append(Flag("misread", f"column {column_letter(column)}: {was} was a misread; {move} shows it "
                                     f"is {card}", column, index, self._frame))

    def _take_back(self) -> Event:
        assert self.game is not None and self._book is not None
        committed = self._moves.pop()
        step = committed.step
        self.position = step.before
        self._book.restore(committed.ids)
        del self.game.history[committed.game_length:]
        self.game.undone.clear()
        logger.info("frame %d: undo %s", self._frame, step.move)
        return self._emit(NoteEvent(self._seq, self._t, f"undo {step.move}", move_of(step), step.before.spn()))

    # --- the start ----------------------------------------------------------------------------

    def _start(self, period: _Period, events: list[Event], flags: list[Flag]) -> None:
        readings = period.readings
        if self.suits is None:
            modes = Counter(reading.suits for _, reading in readings if reading.suits)
            self.suits = modes.most_common(1)[0][0] if modes else 4
        mode = SuitMode(self.suits)
        self._allowed = allowed_classes(mode)
        views = self._views(readings)
        if not views:
            return
        shapes = Counter(tuple(len(column) for column in view.columns) for view in views)
        shape = shapes.most_common(1)[0][0]
        if all(count == 1 for count in shape) or _fresh_deal(views):
            # Each column's one card, from the views that show it alone (its echoes aside).
            shape = (1,) * 10
            downs = list(DEALT_DOWN)
            stock, removed = 50, ""
            alone = [[view.columns[c].up[shown[0]] for view in views
                      if len(shown := _cards_of(view.columns[c])) == 1] for c in range(10)]
            # A column never shown alone (an edge taken for a card in every view) has its last card read.
            last = [[view.columns[c].up[-1] for view in views if len(view.columns[c])] for c in range(10)]
            means = [[sum(pile) / len(pile) if pile else sum(bottom, np.zeros(52)) / max(len(bottom), 1)]
                     for pile, bottom in zip(alone, last)]
        else:
            chosen = [view for view in views if tuple(len(c) for c in view.columns) == shape]
            downs, stock, removed = _start_counts(readings, chosen, shape, mode)
            means = [[sum(view.columns[c].up[k] for view in chosen) / len(chosen) for k in range(shape[c])]
                     for c in range(10)]
        cards = _assign(means, mode)
        columns = tuple(Column((None,) * downs[c], tuple(cards[c])) for c in range(10))
        position = Position(columns, (None,) * stock, removed, mode)
        try:
            position.validate()
        except NotationError as error:
            logger.warning("frame %d: the first table does not make a position (%s); waiting", self._frame, error)
            return
        opening = _opening(position)
        start = opening[0] if opening is not None else position
        self.position = start
        self.game = Game(start, self.variant)
        self._book = CardBook.for_position(start, self._allowed)
        if self._writer is None and self.log_path is not None:
            self._writer = LogWriter.create(self.log_path, start, variant=self.variant, source=self.source,
                                            clock=lambda: self._t)
        logger.info("frame %d: start %s", self._frame, start.spn())
        if opening is not None:
            logger.info("frame %d: the first table is one step into a fresh deal", self._frame)
            self._follow(apply_move(start, opening[1], self.variant, force=True), events, flags)
        period.resolved = True
        period.start = True
        self._gather(period)

    def _resume(self, log: LogWriter) -> None:
        """Continue the game of an existing log: its replayed position is the belief."""
        result = replay(read_log(log.path))
        self.variant = result.header.variant
        self.suits = int(result.header.suits)
        self._allowed = allowed_classes(result.header.suits)
        self.position = result.position
        self.game = Game(result.position, self.variant)
        self._book = CardBook.for_position(self.position, self._allowed)
        self._seq = log.next_seq

    # --- cards ---------------------------------------------------------------------------------

    def _read_new_cards(self, events: list[Event], flags: list[Flag],
                        override: dict[tuple[int, int], np.ndarray] | None = None, *, unseen: bool = False) -> None:
        """Give every turned-over or dealt card (``??``) the identity its evidence favours.

        A card the camera has not seen yet (dealt past the picture's edge, say) stays
        ``??`` until it has been, rather than get a guess in the log; ``unseen`` names
        those too, with the best guess, when a move must be judged on them.
        ``override`` gives the evidence of cards by (column, slot) instead (a card turned
        over in the middle of a sequence of moves, read where it lies at its end).
        """
        assert self.position is not None and self.game is not None and self._book is not None
        waiting: set[tuple[int, int]] = set()
        for _ in range(200):
            target = next(((c, pile.up.index(None)) for c, pile in enumerate(self.position.columns)
                           if None in pile.up and (c, pile.up.index(None)) not in waiting), None)
            if target is None:
                return
            column, slot = target
            card_id = self._book.id_at(column, slot)
            if override is not None and (column, slot) in override:
                self._book.vote(card_id, override[(column, slot)])
            if not unseen and not self._book.seen(card_id):
                logger.debug("frame %d: the card in column %s is not in sight yet; it stays unread", self._frame,
                             column_letter(column))
                waiting.add(target)
                continue
            card, _ = self._book.best(card_id, self.position, None)
            if card is None:
                logger.warning("no identity left for the card in column %s", column_letter(column))
                return
            try:
                step = reveal(self.position, column, card, self.variant)
            except (IllegalMoveError, PositionError) as error:
                logger.warning("cannot read %s into column %s: %s", card, column_letter(column), error)
                return
            self.game.history.append(step)
            self._book.follow(step)
            self.position = step.after
            events.append(self._emit(FlipEvent(self._seq, self._t, column, card)))
            for removed in step.removals:
                events.append(self._emit(RemoveEvent(self._seq, self._t, removed.column, removed.suit)))
            if len(self.position.columns[column].up) > slot:
                self._flag_if_doubtful(column, slot, card, flags)

    def _review_cards(self, events: list[Event], flags: list[Flag]) -> None:
        """Correct a known card whose score (evidence and constraints) another identity now beats clearly."""
        assert self.position is not None and self._book is not None
        for column in range(10):
            for slot in range(len(self.position.columns[column].up)):
                pile = self.position.columns[column]
                card = pile.up[slot]
                if card is None:
                    continue
                card_id = self._book.id_at(column, slot)
                best, lead = self._book.best(card_id, self.position, card)
                if best is None or best == card or lead <= 0:
                    continue
                index = len(pile.down) + slot
                if lead >= self.settings.correction_margin:
                    events.append(self._write_correction(column, index, best))
                    flags.append(Flag("misread", f"column {column_letter(column)}: {card} was a misread; "
                                                 f"it is {best}", column, index, self._frame))
                elif (card_id, str(card)) not in self._flagged:
                    self._flagged.add((card_id, str(card)))
                    flags.append(Flag("doubtful-card", f"column {column_letter(column)}: the camera now reads "
                                                       f"{best} where the game has {card}", column, index,
                                      self._frame))

    def _flag_if_doubtful(self, column: int, slot: int, card: Card | None, flags: list[Flag]) -> None:
        assert self.position is not None and self._book is not None
        if card is None:
            return
        card_id = self._book.id_at(column, slot)
        if self._book.lead(card_id, card) < self.settings.doubtful_below:
            self._flagged.add((card_id, str(card)))
            index = len(self.position.columns[column].down) + slot
            flags.append(Flag("doubtful-card", f"column {column_letter(column)}: {card} was not read clearly",
                              column, index, self._frame))

    def _write_correction(self, column: int, index: int, card: Card) -> CorrectionEvent:
        assert self.position is not None and self.game is not None
        pile = self.position.columns[column]
        cards = pile.cards()
        was = cards[index]
        changed = cards[:index] + (card,) + cards[index + 1:]
        before = self.position
        after = before.with_columns({column: Column(changed[: len(pile.down)], changed[len(pile.down):])})
        self.position = after
        self.game.history.append(Step(before, Flip(column, card), after))
        logger.info("frame %d: correction %s[%d] %s -> %s", self._frame, column_letter(column), index, was, card)
        event = CorrectionEvent(self._seq, self._t, column, index, was, card, after.spn())
        self._emit(event)
        return event

    def _emit(self, event: Event) -> Event:
        event = replace(event, seq=self._seq, t=self._t)
        if self._writer is not None:
            self._writer.write(event)
        self._seq = event.seq + 1
        self.history.append(event)
        return event


def _header_source(name: str) -> str:
    if name in SOURCES:
        return name
    return "camera" if name.startswith("camera") else "video"


def _takes_or_covers_unread(position: Position, move: Move) -> bool:
    """Whether a move takes or covers a card not read yet (``??``): a deal covers every column's
    last card, and a card is revealed in the log only while it is its column's lowest unread one."""
    if isinstance(move, Deal):
        return any(pile.up and pile.up[-1] is None for pile in position.columns)
    return isinstance(move, TableauMove) and touches_unread(position, move)


def _evidence_of(position: Position, views: list[TableView]) -> dict[tuple[int, int], np.ndarray]:
    """Per face-up card of ``position`` (column, slot), the mean evidence of the observations aligned with it."""
    sums: dict[tuple[int, int], np.ndarray] = {}
    counts: Counter[tuple[int, int]] = Counter()
    for column, alignments in enumerate(Scorer(views).alignments(position)):
        for view, alignment in zip(views, alignments):
            up = view.columns[column].up
            for slot, observed in alignment.matches:
                sums[(column, slot)] = sums.get((column, slot), 0.0) + up[observed]
                counts[(column, slot)] += 1
    return {key: total / counts[key] for key, total in sums.items()}


def _assign(evidence: list[list[np.ndarray]], mode: SuitMode) -> list[list[Card]]:
    """Identities for the start's face-up cards: likeliest first, never more copies than the mode has."""
    allowed = allowed_classes(mode)
    used: Counter[int] = Counter()
    cards: list[list[Card | None]] = [[None] * len(pile) for pile in evidence]
    order = sorted(((c, k) for c, pile in enumerate(evidence) for k in range(len(pile))),
                   key=lambda ck: -float(np.max(np.where(allowed, evidence[ck[0]][ck[1]], -np.inf))))
    for c, k in order:
        ev = np.where(allowed, evidence[c][k], -np.inf)
        for cls in np.argsort(-ev, kind="stable"):
            if allowed[cls] and used[int(cls)] < mode.copies:
                used[int(cls)] += 1
                cards[c][k] = CLASSES[int(cls)]
                break
    return cards  # type: ignore[return-value]


def _cards_of(column: ColumnView) -> list[int]:
    """The face-up detections of a column that are not suspected echoes."""
    return [k for k in range(len(column)) if k not in column.echoes]


def _fresh_deal(views: list[TableView]) -> bool:
    """Whether the first table is a fresh deal although no one shape of it prevails: a far view, where
    extra detections come and go (a card's index found twice, the edge of a face-down card taken for a
    face-up one, which costs the count of face-down cards as well)."""
    return _one_card_each(views) or _dealt_shapes_shown(views)


def _one_card_each(views: list[TableView]) -> bool:
    """Each column shows one face-up card, suspected echoes aside, more often than any other number
    (ties to the fewer: an extra detection is commoner than a whole card missed), and the face-down
    cards counted where it does (an extra detection upsets the count too) are the deal's in all but two
    columns."""
    downs = []
    for column in range(10):
        shown = [len(_cards_of(view.columns[column])) for view in views]
        counts = Counter(shown)
        if min(counts, key=lambda count: (-counts[count], count)) != 1:
            return False
        downs.append(float(np.median([view.columns[column].down for view, cards in zip(views, shown)
                                      if cards == 1])))
    return sum(down == dealt for down, dealt in zip(downs, DEALT_DOWN)) >= 8


def _dealt_shapes_shown(views: list[TableView]) -> bool:
    """Each column shows exactly the dealt shape (its face-down cards and one face-up card) in at least
    ``DEALT_SHARE`` of the views, but for at most two that show no one shape in most views, or one
    with fewer cards than dealt (face-down edges missed) that no single move leaves. Cards that moved
    show elsewhere as more cards than dealt: a table one step or more into the game does not pass,
    and neither does one whose shape is odd but the same in most views."""
    unsettled = 0
    for column, dealt in enumerate(DEALT_DOWN):
        shapes = Counter((view.columns[column].down, len(_cards_of(view.columns[column]))) for view in views)
        if shapes[(dealt, 1)] >= DEALT_SHARE * len(views):
            continue
        shape, count = shapes.most_common(1)[0]
        if count * 2 > len(views) and (sum(shape) > dealt or shape == (dealt - 1, 1)):
            return False
        unsettled += 1
    return unsettled <= 2


def _opening(position: Position) -> tuple[Position, Move] | None:
    """The fresh deal and the one move or stock deal that lead to ``position``, when it is one step into
    a game: a tracker that first sees the table after the player's first move (the camera was still
    being set up) still logs the game from its deal. Only the counts tell: after a move, one column has
    one face-down card fewer than dealt and one card face up (turned over), another the dealt face-down
    cards and two face up, every other column as dealt; after a deal from the stock, every column has
    the dealt face-down cards and two face up, with 40 cards left in the stock."""
    if position.removed:
        return None
    downs = [len(column.down) for column in position.columns]
    ups = [len(column.up) for column in position.columns]
    if downs == list(DEALT_DOWN) and ups == [2] * 10 and len(position.stock) == 40:
        columns = tuple(Column(column.down, column.up[:1]) for column in position.columns)
        return replace(position, columns=columns, stock=(None,) * 50), Deal()
    if len(position.stock) != 50:
        return None
    shown = list(zip(downs, ups, DEALT_DOWN))
    sources = [c for c, (down, up, dealt) in enumerate(shown) if down == dealt - 1 and up == 1]
    targets = [c for c, (down, up, dealt) in enumerate(shown) if down == dealt and up == 2]
    if len(sources) != 1 or len(targets) != 1 or sum(down == dealt and up == 1 for down, up, dealt in shown) != 8:
        return None
    source, target = sources[0], targets[0]
    piles = list(position.columns)
    piles[source] = Column((None,) * DEALT_DOWN[source], piles[target].up[1:])
    piles[target] = Column(piles[target].down, piles[target].up[:1])
    return replace(position, columns=tuple(piles)), TableauMove(source, target)


def _start_counts(readings: list[tuple[int, TableReading]], views: list[TableView], shape: tuple[int, ...],
                  mode: SuitMode) -> tuple[list[int], int, str]:
    """Face-down counts, stock size and removed suits of a start that is not a fresh deal."""
    spns = Counter(reading.position for _, reading in readings if reading.position)
    for spn, _ in spns.most_common():
        try:
            position = Position.from_spn(spn, validate=False)
        except NotationError:
            continue
        if tuple(len(column.up) for column in position.columns) == shape:
            return [len(column.down) for column in position.columns], len(position.stock), position.removed
    downs = [int(np.median([view.columns[c].down for view in views])) for c in range(10)]
    total = sum(downs) + sum(shape)
    for runs in range(9):
        stock = 104 - total - 13 * runs
        if 0 <= stock <= 50 and stock % 10 == 0:
            return downs, stock, mode.suits[0] * runs
    return downs, 0, ""
