"""Which moves turned the last known position into the table the camera now shows.

Hypothesis scoring: from the tracker's position (the cards the history
knows), every tableau move (any source, target and count, legal or not), the
deal and taking back the last move are carried out with the engine (``force``
follows a rule break physically) and each predicted table is scored against
the frames of the stable period: pile shapes, face-down counts and the
reader's evidence for the cards the history knows (``align_column``). When no
single move explains the frames, or the best one breaks the rules, sequences
of two are tried (a legal move missed in between may explain it). A move that
breaks the rules only because of a doubtful card (``doubts``: the other
identities a card may have, and what each costs against the evidence so far)
is also tried as the legal move it is with that card read again (and, where
both copies of the identity it needs are placed already, one of them read as
something else). The best
explanation wins; a different result scoring nearly as well makes it
ambiguous.
"""

from __future__ import annotations

import logging
import statistics
from dataclasses import dataclass, replace
from typing import Iterable, Mapping, Sequence

from spider_vision.engine import (
    Card,
    Column,
    Deal,
    Flip,
    IllegalMoveError,
    Move,
    Position,
    PositionError,
    Step,
    TableauMove,
    Variant,
    apply_move,
    is_legal,
)
from spider_vision.tracking.observation import Alignment, TableView, align_column, column_classes

__all__ = ["Doubt", "Doubts", "Hypothesis", "Inference", "Relabel", "Scorer", "infer", "involved_cards",
           "move_of", "touches_unread", "with_card", "with_doubt"]

logger = logging.getLogger(__name__)

MOVE_PRIOR = -0.5
"""Log prior of one move (a still table is the likeliest explanation of a still table)."""
ILLEGAL_PRIOR = -4.0
"""Extra log prior of a rule break: players mostly play by the rules."""
SEQUENCE_PRIOR = -3.0
"""Extra log prior of two moves between stable tables (a player usually pauses after each)."""
SEQUENCE_ILLEGAL_PRIOR = -4.0
"""Extra log prior of a rule break inside such a sequence: a player pauses over a rule break, and
a stray detection must not be explained by one."""
UNDO_PRIOR = -1.0
"""Log prior of taking back the last move, below a move: cards put back where they came from are
followed as the move they are where that move is legal; a card turned face down again needs the
take-back, and cards put back against the rules take it (a rule break costs more)."""
BREAK_EXPLAINED = 2.0
"""Nats by which two legal moves must beat a rule break (their priors included) to be taken instead,
whether or not every column is explained: a rule break is flagged unless a missed move clearly fits
better."""
AMBIGUOUS = 1.5
"""A runner-up with another outcome within this many nats (per frame) makes the choice ambiguous."""
TOLERATED = 1.0
"""Columns per view (median) that may show something unexplained: a stray detection is common."""
FIRST_OF_PAIRS = 12
"""Single moves extended to sequences of two when no single move explains the frames."""


@dataclass(frozen=True)
class Doubt:
    """An identity a face-up card may have instead, and its ``cost`` in nats (how much less the evidence
    so far and the legal moves favour it). When the game has placed every copy of that identity already,
    ``aside`` (column, slot, card) reads one of them as something else to make room; the cost includes
    what that reading costs."""

    card: Card
    cost: float
    aside: tuple[int, int, Card] | None = None


Doubts = Mapping[tuple[int, int], Sequence[Doubt]]
"""Per face-up card (column, slot among the face-up cards): the identities it may have instead."""


@dataclass(frozen=True)
class Relabel:
    """A face-up card read again before the moves: the ``slot``-th face-up card of ``column`` is ``card``
    (it was ``was``); ``cost`` is what the evidence so far holds against that. ``aside`` is the card
    read again first to make room (``Doubt.aside``)."""

    column: int
    slot: int
    card: Card
    was: Card
    cost: float
    aside: tuple[int, int, Card] | None = None


def move_of(step: Step) -> Move:
    """The move ``step`` carried out: the steps of a hypothesis and of the game followed are moves,
    never reads of a card (``Flip``), which the tracker keeps in the game's history only."""
    if isinstance(step.move, Flip):
        raise TypeError(f"a card read in column {step.move.column} is not a move")
    return step.move


@dataclass(frozen=True)
class Hypothesis:
    """One explanation: the steps carried out (none: nothing changed), after taking back the last
    move where ``undo`` is that move, and how well it fits."""

    steps: tuple[Step, ...]
    after: Position
    score: float
    problems: float
    undo: Step | None = None
    relabel: Relabel | None = None

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(move_of(step) for step in self.steps)

    @property
    def changed(self) -> bool:
        return bool(self.steps) or self.undo is not None

    def describe(self) -> str:
        moves = " then ".join(str(move) for move in self.moves) or "no change"
        if self.undo is not None:
            return f"undo {self.undo.move}" + (f" then {moves}" if self.steps else "")
        if self.relabel is not None:
            return f"{moves} ({self.relabel.was} read as {self.relabel.card})"
        return moves


@dataclass(frozen=True)
class Inference:
    """The best explanation, the best one with a different outcome, and whether to trust it.

    ``explained``: the views show (nearly) every column as the best explanation leaves it.
    ``fits_where_it_moves``: at least the columns it changes do; a column it leaves as it was fits
    no better or worse whichever move was made (bench game 791002: a faint detection on an exposed
    9c in every rest, and another column's stray now and then, left 19 right moves of a four-suit
    game unexplained).
    """

    best: Hypothesis
    runner_up: Hypothesis | None
    explained: bool
    ambiguous: bool
    fits_where_it_moves: bool


@dataclass(frozen=True)
class _Fit:
    """How one predicted pile fits the views: mean score, the alignments, problems per view."""

    score: float
    alignments: tuple[Alignment, ...]
    problems: tuple[int, ...]


class Scorer:
    """Scores predicted positions against the views of one stable period (cached per column)."""

    def __init__(self, views: Sequence[TableView]) -> None:
        if not views:
            raise ValueError("no views to score against")
        self.views = tuple(views)
        self._cache: dict[tuple[int, int, tuple[int, ...]], _Fit] = {}
        # Moves leave most piles as they were (the same objects): those are looked up by identity.
        self._piles: dict[tuple[int, int], tuple[Column, _Fit]] = {}

    def column(self, index: int, down: int, classes: tuple[int, ...]) -> _Fit:
        key = (index, down, classes)
        fit = self._cache.get(key)
        if fit is None:
            alignments = tuple(align_column(down, classes, view.columns[index]) for view in self.views)
            fit = _Fit(sum(a.score for a in alignments) / len(alignments), alignments,
                       tuple(a.problems for a in alignments))
            self._cache[key] = fit
        return fit

    def pile(self, index: int, pile: Column) -> _Fit:
        known = self._piles.get((index, id(pile)))
        if known is not None and known[0] is pile:
            return known[1]
        fit = self.column(index, len(pile.down), column_classes(pile.up))
        self._piles[(index, id(pile))] = (pile, fit)
        return fit

    def alignments(self, position: Position) -> list[tuple[Alignment, ...]]:
        """Per column, its alignment with each view."""
        return [self.pile(k, pile).alignments for k, pile in enumerate(position.columns)]

    def score(self, position: Position) -> tuple[float, float]:
        """Mean log evidence per view, and the median number of columns a view shows unexplained."""
        fits = [self.pile(k, pile) for k, pile in enumerate(position.columns)]
        return sum(fit.score for fit in fits), _median_problems(fits)

    def unexplained(self, position: Position) -> set[int]:
        """Columns that most views show differently from ``position``."""
        return {k for k, pile in enumerate(position.columns)
                if 2 * sum(self.pile(k, pile).problems) > len(self.views)}


def _moves(position: Position, unseen: frozenset[int] = frozenset()) -> list[Move]:
    """Every move a hand can make: each tableau group of known cards to each other column, and the deal.

    The exposed card of a column in ``unseen`` is not read yet because the camera has not seen
    it (dealt past the picture's edge): it can be moved, to where the camera sees it. A card
    turned over by an earlier move of the same sequence cannot: the hand that turned it over
    did not move it in the same pause.
    """
    moves: list[Move] = []
    for source, pile in enumerate(position.columns):
        for count in range(1, len(pile.up) + 1):
            if pile.up[len(pile.up) - count] is None and (count > 1 or source not in unseen):
                break
            moves.extend(TableauMove(source, target, count) for target in range(10) if target != source)
    if position.stock:
        moves.append(Deal())
    return moves


def _moved_unread(steps: Sequence[Step]) -> list[tuple[int, int]]:
    """Where the cards not read yet (``??``) that ``steps`` move lie at their end (column, slot)."""
    moved: list[tuple[int, int]] = []
    for step in steps:
        move = step.move
        if not isinstance(move, TableauMove):
            continue
        group = step.before.columns[move.source].up[-move.count:]
        start = len(step.before.columns[move.source].up) - move.count
        base = len(step.before.columns[move.target].up)
        carried = [(move.target, base + slot - start) if column == move.source and slot >= start
                   else (column, slot) for column, slot in moved]
        fresh = [(move.target, base + k) for k, card in enumerate(group)
                 if card is None and (move.source, start + k) not in moved]
        moved = carried + fresh
    return moved


def _in_sight(scorer: Scorer, hypothesis: Hypothesis) -> bool:
    """Whether every card not read yet that the hypothesis moves lies where most views show a card: such
    a card (dealt past the picture's edge, or with its index hidden) is moved only to where the camera
    sees it. Taking it past the edge of another column, where nothing can be seen, would explain a card
    the reader merely missed as a move (and a move onto it could never be judged)."""
    for column, slot in _moved_unread(hypothesis.steps):
        pile = hypothesis.after.columns[column]
        if slot >= len(pile.up):
            continue
        alignments = scorer.pile(column, pile).alignments
        seen = sum(any(predicted == slot for predicted, _ in alignment.matches) for alignment in alignments)
        if 2 * seen < len(alignments):
            return False
    return True


def _step(position: Position, move: Move, variant: Variant) -> Step | None:
    try:
        return apply_move(position, move, variant, force=True)
    except IllegalMoveError:
        return None


def _breaks_rules(step: Step) -> bool:
    """Whether ``step`` is known to break the rules: a move onto or of a card not read yet (turned
    over earlier in the same sequence, or not in sight) is judged once that card is read, not here."""
    if step.legal:
        return False
    move = step.move
    if isinstance(move, TableauMove):
        return not touches_unread(step.before, move)
    return True


def _prior(steps: Sequence[Step], undone: bool = False) -> float:
    """Log prior of ``steps``, after taking the last move back where ``undone``."""
    breaks = sum(_breaks_rules(step) for step in steps)
    return (MOVE_PRIOR * len(steps) + ILLEGAL_PRIOR * breaks + (UNDO_PRIOR if undone else 0.0)
            + _sequence_prior(len(steps) + undone, breaks))


def _sequence_prior(actions: int, breaks: int) -> float:
    """The part of the prior of ``actions`` moves and take-backs in a row (``breaks`` of them rule
    breaks) that says a player pauses after each move. ``infer`` waives it for a sequence that
    explains the views where no single explanation does: then the pause was there and the tracker
    missed it (bench game 754000: a 5 put on a 5, which the first views of the rest took for a
    stray detection, and then a legal move)."""
    if actions < 2:
        return 0.0
    return SEQUENCE_PRIOR * (actions - 1) + SEQUENCE_ILLEGAL_PRIOR * breaks


def _hypothesis(scorer: Scorer, steps: tuple[Step, ...], after: Position, undo: Step | None = None,
                relabel: Relabel | None = None) -> Hypothesis:
    value, problems = scorer.score(after)
    prior = _prior(steps, undo is not None) - (relabel.cost if relabel is not None else 0.0)
    return Hypothesis(steps, after, value + prior, problems, undo, relabel)


def with_card(position: Position, column: int, slot: int, card: Card) -> Position:
    """``position`` with the ``slot``-th face-up card of ``column`` read as ``card``."""
    pile = position.columns[column]
    return position.with_columns({column: Column(pile.down, pile.up[:slot] + (card,) + pile.up[slot + 1:])})


def with_doubt(position: Position, column: int, slot: int, doubt: Doubt) -> Position | None:
    """``position`` with the card at (``column``, ``slot``) read as ``doubt`` says (the card put aside first),
    or None where that reading would put more copies of a card on the table than the game has."""
    try:
        if doubt.aside is not None:
            position = with_card(position, *doubt.aside)
        return with_card(position, column, slot, doubt.card)
    except PositionError:
        return None


def involved_cards(position: Position, move: TableauMove) -> list[tuple[int, int]]:
    """The face-up cards (column, slot) whose identities decide whether ``move`` is legal."""
    source = len(position.columns[move.source].up)
    cards = [(move.source, source - k) for k in range(1, move.count + 1)]
    target = len(position.columns[move.target].up)
    if target:
        cards.append((move.target, target - 1))
    return cards


def touches_unread(position: Position, move: TableauMove) -> bool:
    """Whether one of the cards that decide ``move`` (``involved_cards``) is not read yet (``??``)."""
    return any(position.columns[column].up[slot] is None for column, slot in involved_cards(position, move))


def _repairs(scorer: Scorer, position: Position, step: Step, doubts: Doubts, variant: Variant) -> list[Hypothesis]:
    """The illegal tableau move ``step`` as a legal one, each way that reading one doubtful card again
    allows (with the copy it puts aside, if any)."""
    move = step.move
    assert isinstance(move, TableauMove)
    found = []
    for column, slot in involved_cards(position, move):
        was = position.columns[column].up[slot]
        if was is None:
            continue
        for doubt in doubts.get((column, slot), ()):
            changed = with_doubt(position, column, slot, doubt)
            if changed is None or not is_legal(changed, move, variant):
                continue
            repaired = _step(changed, move, variant)
            if repaired is not None:
                relabel = Relabel(column, slot, doubt.card, was, max(doubt.cost, 0.0), doubt.aside)
                found.append(_hypothesis(scorer, (repaired,), repaired.after, relabel=relabel))
    return found


def _every_view_fits_where_it_moves(scorer: Scorer, pair: Hypothesis) -> bool:
    """Whether every view shows the columns that a sequence's moves (and the move it takes back)
    touch as the sequence leaves them. Only then is its missed pause believed (``infer``): bench game
    757005 had a lone 2c, faint, missed in most views of a rest, and "2s from b onto g, then the 2c
    from i onto b" fitted better than the one move made, though some views showed b and g otherwise;
    later moves onto b were then flagged against a 2c that was never there."""
    moves = [step.move for step in pair.steps] + ([pair.undo.move] if pair.undo is not None else [])
    touched: set[int] = set()
    for move in moves:
        touched |= {move.source, move.target} if isinstance(move, TableauMove) else set(range(10))
    return not any(sum(scorer.pile(k, pair.after.columns[k]).problems) for k in touched)


def infer(position: Position, views: Sequence[TableView], variant: Variant,
          last: Step | None = None, doubts: Doubts | None = None) -> Inference:
    """Explain the views from ``position``; ``last`` is the move that may be taken back, ``doubts`` the
    cards that may have been misread."""
    scorer = Scorer(views)
    candidates = [_hypothesis(scorer, (), position)]
    singles: list[Hypothesis] = []
    unseen = frozenset(k for k, pile in enumerate(position.columns) if pile.up and pile.up[-1] is None)
    for move in _moves(position, unseen):
        step = _step(position, move, variant)
        if step is None:
            continue
        singles.append(_hypothesis(scorer, (step,), step.after))
        if doubts and not step.legal and isinstance(move, TableauMove):
            singles += _repairs(scorer, position, step, doubts, variant)
    singles = [h for h in singles if _in_sight(scorer, h)]
    if any(h.relabel is None and not h.problems and any(map(_breaks_rules, h.steps)) for h in singles):
        # A rule break that explains every column is not excused by reading a card again in a way
        # that leaves one unexplained in most views (a relabelled move of fewer cards, the target
        # showing more). One view that misses the card where it went does not count (bench game
        # 790000: a 2s turned over, read as a 3s, and put on a 3s at once).
        singles = [h for h in singles if h.relabel is None or h.problems < 1]
    candidates += singles
    if last is not None:
        candidates.append(_hypothesis(scorer, (), last.before, undo=last))
    candidates.sort(key=lambda h: -h.score)
    # Two moves are tried when one leaves the views unexplained, and before a rule break is taken:
    # a legal move missed in between (its frames all moving) can make the break disappear.
    unexplained = candidates[0].problems >= 1
    breaks = any(_breaks_rules(step) for step in candidates[0].steps)
    if unexplained or breaks:
        singles.sort(key=lambda h: -h.score)
        pairs = []
        # Taking the last move back may come first too: that move was never made (the first views
        # of its rest misread the table) and the next one was (bench game 748000: a 3 put back
        # onto a 7 would have been a false rule break).
        undos = [h for h in candidates if h.undo is not None]
        for first in singles[:FIRST_OF_PAIRS] + undos:
            # A second move helps only where the first leaves the views unexplained.
            open_columns = scorer.unexplained(first.after)
            if not open_columns:
                continue
            for move in _moves(first.after, unseen):
                if isinstance(move, TableauMove) and not {move.source, move.target} & open_columns:
                    continue
                step = _step(first.after, move, variant)
                if step is not None:
                    pair = _hypothesis(scorer, first.steps + (step,), step.after, first.undo, first.relabel)
                    # Explaining a rule break away takes a clearly better fit, even where another
                    # column is unexplained as well.
                    if not unexplained or (breaks and not any(_breaks_rules(s) for s in pair.steps)):
                        pair = replace(pair, score=pair.score - BREAK_EXPLAINED)
                    elif (candidates[0].problems > TOLERATED and pair.problems <= TOLERATED
                          and _every_view_fits_where_it_moves(scorer, pair)):
                        # No single explanation fits the views and the pair does: the pause between
                        # its moves was missed, not skipped.
                        waived = _sequence_prior(len(pair.steps) + (pair.undo is not None),
                                                 sum(map(_breaks_rules, pair.steps)))
                        pair = replace(pair, score=pair.score - waived)
                    if _in_sight(scorer, pair):
                        pairs.append(pair)
        candidates = sorted(candidates + pairs, key=lambda h: -h.score)
    best = candidates[0]
    spn = best.after.spn()
    runner_up = next((h for h in candidates[1:] if h.after.spn() != spn and h.moves != best.moves), None)
    ambiguous = runner_up is not None and best.score - runner_up.score < AMBIGUOUS and best.changed
    logger.debug("best %s (%.2f, problems %.1f); runner-up %s (%.2f)", best.describe(), best.score,
                 best.problems, runner_up.describe() if runner_up else "-", runner_up.score if runner_up else 0.0)
    if best.problems and logger.isEnabledFor(logging.DEBUG):
        for k, alignments in enumerate(scorer.alignments(best.after)):
            bad = [(a.extras, a.top_missed) for a in alignments if a.problems]
            if bad:
                logger.debug("  column %s: %s; predicted %s, seen %s", "abcdefghij"[k], bad,
                             best.after.columns[k].text(), [len(v.columns[k]) for v in scorer.views])
    explained = best.problems <= TOLERATED
    return Inference(best, runner_up, explained, ambiguous,
                     explained or _problems_where_it_moves(scorer, position, best) <= TOLERATED)


def _problems_where_it_moves(scorer: Scorer, position: Position, hypothesis: Hypothesis) -> float:
    """``Scorer.score``'s problems, among the columns that ``hypothesis`` changes from ``position`` only."""
    return _median_problems(scorer.pile(k, pile) for k, pile in enumerate(hypothesis.after.columns)
                            if pile != position.columns[k])


def _median_problems(fits: Iterable[_Fit]) -> float:
    """The median number of these columns per view that show something unexplained (0 for none)."""
    per_view = [sum(column) for column in zip(*(fit.problems for fit in fits))]
    return float(statistics.median(per_view)) if per_view else 0.0
