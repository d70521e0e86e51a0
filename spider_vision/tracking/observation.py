"""What one read frame says about the table, and how well a pile the game predicts fits it.

``TableView`` keeps, per column, the face-down count the counter gave and the
face-up cards in pile order, each as log-likelihood ratios over the 52
identities (the reader's probabilities against a uniform guess, floored so
that one confident misread costs a bounded amount). ``align_column`` matches
a predicted pile to an observed one allowing for cards the detector missed
and detections that are not cards: the score is the evidence for the
prediction, and the matches say which observation belongs to which card.
A detection that may be an echo rather than a card (of the neighbouring
pile's index, in decks that print it in every corner; or the court card
before it found twice, its picture taken for an index) is kept, and costs
little to leave unexplained; so does a faint one, by its detection score
(``phantom_chance``: a big pip or a picture framed as an index). A column
whose last card seen reaches past the picture's edge may hold more cards
beyond it: predicted cards past the last one seen cost little there.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from spider_vision.engine import SuitMode
from spider_vision.engine.cards import MaybeCard
from spider_vision.tracking.identities import CLASSES
from spider_vision.vision import CardReading, TableReading
from spider_vision.vision.framing import CUT_MARGIN, reaches_past_edge
from spider_vision.vision.reading import class_index

__all__ = [
    "Alignment",
    "card_class",
    "column_classes",
    "ColumnGuide",
    "ColumnView",
    "TableView",
    "align_column",
    "allowed_classes",
    "phantom_chance",
    "view_from_reading",
]

FLOOR = 0.01
"""Share of a uniform guess mixed into every read: a confident misread costs at most log(FLOOR)."""
MISS = math.log(0.15)
"""A covered face-up card the detector did not find."""
MISS_TOP = math.log(0.01)
"""The exposed card of a pile not found (it is whole, so the detector rarely misses it)."""
EXTRA_CHANCE = 0.02
"""A detection in a column that no card of the prediction explains (its chance, at least)."""
EXTRA = math.log(EXTRA_CHANCE)
CUT_MISS = math.log(0.9)
"""A predicted card past the last one seen of a column that runs off the picture: most likely past the edge."""
PHANTOM_SCORE = 0.36
"""Detection score at which a detection is as likely no card as a card: a phantom (the big pip of an
ace, a court's picture, a patch of pattern) taken for an index."""
PHANTOM_SLOPE = 20.0
"""How fast the chance of a phantom falls with the score (logistic). On 13,400 face-up detections of
idle frames of kept game videos: 64 of 142 under 0.40 were phantoms, 23 of 85 from 0.40 to 0.45, 16 of
141 from 0.45 to 0.50, 15 of 735 from 0.50 to 0.60, 10 of 12,300 above."""
ECHO_CHANCE = 0.5
"""A detection that may be an echo, left unexplained: as likely an echo as a card (the same card
lying there looks the same)."""
ECHO_EXTRA = math.log(ECHO_CHANCE)
DOWN = 0.6
"""Cost per face-down card between the predicted and the counted number (the counter is noisy)."""
BAND = 8
"""Alignments never drift more than this many cards between prediction and observation (but any
number of predicted cards may lie past the edge of a column that runs off the picture, any number of
detections past the prediction's last card may be extras, and a column's suspected echoes do not
count: a whole run of the next column's indices may lie there). Beyond it a column counts as all
missed and all extra. Neighbouring piles that overlap in a tilted picture can hide six indices of one:
with 3 (bench game 791000) a run put on such a column fitted worse than the same run put into an
empty column seen empty, and a blocked deal was explained away by a move invented before it."""
UNKNOWN_CLASS = -1


@dataclass(frozen=True)
class ColumnView:
    """One column as a frame shows it: face-down count and the face-up cards' evidence, bottom first;
    ``echoes``: the face-up detections (their places in ``up``) that may be echoes rather than cards;
    ``cut``: its last card seen reaches past the picture's edge (more may lie beyond); ``phantoms``:
    the chance that each detection is no card at all (by its detection score; none when empty)."""

    down: int
    up: np.ndarray  # (n, 52) log-likelihood ratios
    echoes: frozenset[int] = frozenset()
    cut: bool = False
    phantoms: tuple[float, ...] = ()

    def __len__(self) -> int:
        return len(self.up)

    @cached_property
    def costs(self) -> tuple[tuple[float, ...], tuple[float, ...], tuple[bool, ...]]:
        """Per detection: the cost of leaving it unexplained (the chance that it is an echo or no card,
        whichever is likelier), of taking it for a card, and whether leaving it is a problem (it is
        likelier a card). Worked out once: every prediction tried is aligned with the same view."""
        phantoms = self.phantoms or (0.0,) * len(self.up)
        extra = tuple(math.log(max(ECHO_CHANCE if j in self.echoes else EXTRA_CHANCE, chance))
                      for j, chance in enumerate(phantoms))
        real = tuple(math.log(max(1.0 - chance, EXTRA_CHANCE)) for chance in phantoms)
        lone = tuple(j not in self.echoes and chance < 0.5 for j, chance in enumerate(phantoms))
        return extra, real, lone


@dataclass(frozen=True)
class TableView:
    """The ten columns of one read frame."""

    frame: int
    columns: tuple[ColumnView, ...]

    @property
    def face_up(self) -> int:
        """Face-up cards seen in the columns."""
        return sum(len(column) for column in self.columns)


@dataclass(frozen=True)
class Alignment:
    """How a predicted pile fits an observed one: the score and which observations match which cards."""

    score: float
    matches: tuple[tuple[int, int], ...]  # (predicted face-up slot, observed card)
    extras: int
    top_missed: bool

    @property
    def problems(self) -> int:
        """1 when the observation shows something the prediction cannot explain, else 0."""
        return int(self.extras > 0 or self.top_missed)


def allowed_classes(mode: SuitMode) -> np.ndarray:
    """Mask (52,) of the identities the suit mode has."""
    allowed = np.zeros(52, bool)
    for card in mode.deck():
        allowed[class_index(card)] = True
    return allowed


def _ratios(probabilities: np.ndarray | None, allowed: np.ndarray) -> np.ndarray:
    count = int(allowed.sum())
    if probabilities is None:
        return np.where(allowed, 0.0, -20.0)
    p = np.where(allowed, np.asarray(probabilities, np.float64), 0.0)
    total = float(p.sum())
    p = p / total if total > 0 else allowed / count
    p = (1 - FLOOR) * p + FLOOR / count
    return np.where(allowed, np.log(np.maximum(p * count, 1e-12)), -20.0)


@dataclass(frozen=True)
class ColumnGuide:
    """Where the ten columns lie across the picture, learnt from a reading that named them.

    The reader names the columns only when it recognises all ten; an empty
    column at the edge of the tableau hides one, and then its piles come
    unnamed. Columns run along ``direction``; ``across[k]`` is column k's
    place across them (empty columns placed by the even spacing of the others).
    """

    direction: np.ndarray
    across: np.ndarray
    spacing: float

    @classmethod
    def from_reading(cls, reading: TableReading) -> ColumnGuide | None:
        named = [(card.column, card) for card in reading.cards if card.column is not None and 0 <= card.column < 10]
        if not named:
            return None
        downs = np.array([card.quad[3] - card.quad[0] for _, card in named], np.float64)
        direction = downs.mean(axis=0)
        norm = float(np.hypot(*direction))
        if norm < 1e-6:
            return None
        direction = direction / norm
        normal = np.array([-direction[1], direction[0]])
        places: dict[int, list[float]] = {}
        for column, card in named:
            places.setdefault(column, []).append(float(card.quad.mean(axis=0) @ normal))
        columns = sorted(places)
        if len(columns) < 5:
            return None
        means = np.array([np.median(places[k]) for k in columns])
        slope, offset = np.polyfit(np.array(columns, np.float64), means, 1)
        if abs(slope) < 1e-6:
            return None
        across = offset + slope * np.arange(10, dtype=np.float64)
        for k, value in zip(columns, means):
            across[k] = value
        return cls(direction, across, float(abs(slope)))

    def agrees(self, other: ColumnGuide, shift: int = 0) -> bool:
        """Whether ``other`` puts the columns where this one does (a camera that did not move); with
        ``shift``, its column k where this one puts column k + ``shift`` (names shifted). Most
        columns must agree: one long, bent pile may stray."""
        if abs(other.spacing - self.spacing) >= 0.2 * self.spacing:
            return False
        return bool(np.median(self._distances(other, shift)) < ELSEWHERE * self.spacing)

    def regular(self) -> bool:
        """Whether the columns lie on a smooth run across the picture, as ten columns seen in
        perspective do; a pile seen where there is none, or one missed, breaks the run."""
        steps = np.arange(10, dtype=np.float64)
        fit = np.polyval(np.polyfit(steps, self.across, 2), steps)
        return bool(np.max(np.abs(fit - self.across)) < REGULAR * self.spacing)

    def strays(self, other: ColumnGuide, shift: int = 0) -> int:
        """How many columns ``other`` puts elsewhere than this guide does, with names shifted as in
        ``agrees``."""
        return int(np.sum(self._distances(other, shift) >= ELSEWHERE * self.spacing))

    def _distances(self, other: ColumnGuide, shift: int) -> np.ndarray:
        """How far ``other`` puts each column from where this guide puts the column ``shift`` on."""
        mine = self.across[max(shift, 0): 10 + min(shift, 0)]
        theirs = other.across[max(-shift, 0): 10 - max(shift, 0)]
        return np.abs(mine - theirs)

    def shift_of(self, other: ColumnGuide) -> int | None:
        """How far ``other``'s column names are shifted from this guide's, or ``None`` when its
        columns lie elsewhere."""
        return next((shift for shift in SHIFTS if self.agrees(other, shift)), None)

    def column_of(self, point: np.ndarray) -> int | None:
        """The column a point of the picture lies in, or ``None`` when it lies between or beyond them."""
        normal = np.array([-self.direction[1], self.direction[0]])
        offsets = np.abs(self.across - float(point @ normal))
        k = int(offsets.argmin())
        return k if offsets[k] < 0.45 * self.spacing else None


def view_from_reading(reading: TableReading, frame: int, allowed: np.ndarray,
                      guide: ColumnGuide | None = None, shift: int | None = 0) -> TableView | None:
    """The columns of a reading; ``None`` when it shows no tableau columns.

    The reader's column names count, moved on by ``shift`` (the reader names
    columns by counting piles, and a lone card it takes for a loose King
    shifts them); piles it left unnamed, and every card when ``shift`` is
    ``None`` (names that hold for some columns only: a card's index seen
    again between two piles, taken for a pile of its own), are placed by
    ``guide``.
    """
    faces: list[list[CardReading]] = [[] for _ in range(10)]
    downs = [0] * 10
    placed = False
    corner_echoes = _corner_echoes(reading.cards)
    suspects: list[CardReading] = []
    by_place = guide is not None and (shift is None or not any(card.column is not None for card in reading.cards))
    for number, card in enumerate(reading.cards):
        if by_place and guide is not None:
            card = card.with_(column=guide.column_of(card.quad.mean(axis=0)))
        elif shift and card.column is not None:
            card = card.with_(column=card.column + shift)
        if number in corner_echoes:
            suspects.append(card)
        if card.column is None or not 0 <= card.column < 10:
            continue
        placed = True
        if card.face_up:
            faces[card.column].append(card)
        else:
            downs[card.column] += 1
    if not placed:
        return None
    columns = []
    order = _along(guide.direction) if by_place and guide is not None else _pile_index
    for letter in range(10):
        kept = _without_echoes(sorted(faces[letter], key=order), allowed)
        up = np.stack([_ratios(card.probabilities, allowed) for card in kept]) if kept else np.zeros((0, 52))
        echoes = frozenset(k for k, card in enumerate(kept) if any(card is other for other in suspects)
                           or k and _court_twin(card, kept[k - 1], allowed))
        cut = bool(kept) and _runs_off(kept[-1], reading.image_size)
        phantoms = tuple(phantom_chance(card.detection_score) for card in kept)
        columns.append(ColumnView(downs[letter], up, echoes, cut, phantoms))
    return TableView(frame, tuple(columns))


def phantom_chance(score: float) -> float:
    """The chance that a face-up detection of this score is no card (logistic in the score)."""
    return 1.0 / (1.0 + math.exp(PHANTOM_SLOPE * (score - PHANTOM_SCORE)))


def _pile_index(card: CardReading) -> float:
    return float(card.index)


def _along(direction: np.ndarray) -> Callable[[CardReading], float]:
    """Pile order by place: cards placed by the guide may come from several of the reader's piles,
    whose indices do not compare."""
    return lambda card: float(np.asarray(card.quad, np.float64)[0] @ direction)


def _runs_off(card: CardReading, size: tuple[int, int]) -> bool:
    """Whether the card reaches past the picture's edge (by as much as the framing warning notices)."""
    quad = np.asarray(card.quad, np.float64)
    return reaches_past_edge(quad, size, CUT_MARGIN * float(np.hypot(*(quad[3] - quad[0]))))


def _read_as(card: CardReading, allowed: np.ndarray) -> int | None:
    """The class the reader favours among the suit mode's identities, or None for a card not read."""
    if card.probabilities is None:
        return None
    return int(np.argmax(np.where(allowed, card.probabilities, -1.0)))


def _same_read(card: CardReading, other: CardReading, allowed: np.ndarray) -> bool:
    """Both read, and as the same identity of the suit mode (one card found twice, most likely: a pile
    rarely holds a card on its own twin)."""
    read = _read_as(card, allowed)
    return read is not None and read == _read_as(other, allowed)


def _court_twin(card: CardReading, other: CardReading, allowed: np.ndarray) -> bool:
    """Both read as the same court card: its picture may be taken for a second index. A number card
    read twice in a row is two cards: a 5 put on a 5 breaks the rules, and must not pass for one 5
    found twice (bench game 754000 took column f's second 5s for such an echo)."""
    read = _read_as(card, allowed)
    return read is not None and CLASSES[read].rank > 10 and read == _read_as(other, allowed)


ELSEWHERE = 0.3
"""Share of the spacing by which a column lies elsewhere than a guide puts it."""
REGULAR = 0.25
"""Share of the spacing by which a column may lie off the smooth run of the others in a regular layout."""
SHIFTS = (0, -1, 1, -2, 2)
"""Shifts of column names tried when a reading's columns do not lie where they did."""
ECHO = 0.55
"""A face-up card further than this (of a card's height) below the one before it, read as that card,
is its bottom index seen again."""
ECHO_FAR = 0.8
"""A face-up card further than this below the one before it cannot be cascaded on it, however read."""
ECHO_INSIDE = -0.05
"""How far (in card widths, along its top edge) left of a card's top-right corner the frame of its echo
starts at least. On 150 renders each of two decks that print both top indices (proc-39, proc-53;
960x540), 18 of the 19 detections near a card's top-right corner that read as it and match no card
started 0.07-0.25 widths left of that corner (the other 0.02 right of it), and 56 of the 73 that
were real cards of the next column started less than 0.05 widths left of it or right of it. Those
were suspects too before: in bench game 700004 a dealt 2h level with the 2h of the column beside
it was taken for that card's echo, so a covered 9h read as 3h was taken for the dealt card."""
ECHO_SHARE = 0.05
"""A detection at a neighbour's top-right corner that gives the neighbour's identity at least this
probability may be its index seen again: the frame there also takes in the next column's card, so
the echo is often read as something else."""


def _without_echoes(cards: list[CardReading], allowed: np.ndarray) -> list[CardReading]:
    """A column's face-up cards without an echo: decks that print the index in every corner show the
    exposed card's index again at its bottom, and the detector may take it for one more card. Only
    the last detection can be that echo (the bottom corners of covered cards are hidden; cards found
    further down after a long gap are cards the detector missed some before). The echo lies far
    below the card and reads as it; a card read otherwise that lies a little further down than a
    cascade's usual step is a real one (a camera close to the table makes the nearer steps look
    longer)."""
    if len(cards) < 2:
        return cards
    last, previous = cards[-1], cards[-2]
    down = previous.quad[3] - previous.quad[0]
    height = float(np.hypot(*down))
    if height >= 1.0:
        step = float((last.quad[0] - previous.quad[0]) @ down) / height ** 2
        if step > ECHO_FAR or (step > ECHO and _same_read(last, previous, allowed)):
            return cards[:-1]
    return cards


def _corner_echoes(cards: tuple[CardReading, ...]) -> set[int]:
    """Detections that may be a card's top-right index taken for another card (decks with indices in
    every corner): the frame the detector puts there starts at the real card's top-right corner and
    keeps some belief in its identity (``ECHO_SHARE``). Where columns touch, such echoes land
    anywhere down the next column's pile, not only at its end. The same card lying there looks just
    the same, so these are only suspects. An echo lies on the card it echoes, so its frame starts
    left of that card's top-right corner (``ECHO_INSIDE``); a card of the next column lies right of
    it. (A pile's lowest face-up card is never suspected: with narrow gaps a real neighbour lies
    where an echo would.)"""
    faces = [(k, card, card.probabilities) for k, card in enumerate(cards)
             if card.face_up and card.probabilities is not None and float(np.abs(card.quad).sum()) > 0]
    lowest: dict[int, tuple[int, int]] = {}
    for k, card, _ in faces:
        if card.column is not None and (card.column not in lowest or card.index < lowest[card.column][1]):
            lowest[card.column] = (k, card.index)
    firsts = {k for k, _ in lowest.values()}
    echoes: set[int] = set()
    for k, card, beliefs in faces:
        if card.column is None or k in firsts:
            continue
        for j, other, other_beliefs in faces:
            if j == k or j in echoes:
                continue
            right = other.quad[1] - other.quad[0]
            width = float(np.hypot(*right))
            offset = card.quad[0] - other.quad[1]
            if (float(np.hypot(*offset)) < 0.3 * width
                    and float(offset @ right) < ECHO_INSIDE * width * width
                    and float(beliefs[int(np.argmax(other_beliefs))]) >= ECHO_SHARE):
                echoes.add(k)
                break
    return echoes


def card_class(card: MaybeCard) -> int:
    """The class number of a known card, ``UNKNOWN_CLASS`` for ``??``."""
    return UNKNOWN_CLASS if card is None else class_index(card)


def align_column(down: int, classes: tuple[int, ...], view: ColumnView) -> Alignment:
    """Fit predicted face-up cards (class numbers, ``UNKNOWN_CLASS`` for unread) to one observed column."""
    n, m = len(classes), len(view.up)
    base = -DOWN * abs(down - view.down)
    if n == 0 and m == 0:
        return Alignment(base, (), 0, False)
    minus = -math.inf
    # score[i][j]: best score with i predicted and j observed cards used; move: 0 match, 1 miss, 2 extra
    score = [[minus] * (m + 1) for _ in range(n + 1)]
    move = [[-1] * (m + 1) for _ in range(n + 1)]
    score[0][0] = 0.0
    up = view.up
    echoes = view.echoes
    extra, real, lone = view.costs
    for i in range(n + 1):
        # Past the prediction's last card, any number of detections may be left over as extras.
        low, high = max(0, i - BAND), m if i == n else min(m, i + BAND + len(echoes))
        if view.cut and low > m:
            low = m  # past the picture's edge of a cut column, any number of predicted cards may lie
        for j in range(low, high + 1):
            if i == 0 and j == 0:
                continue
            best, how = minus, -1
            if i > 0 and j > 0 and score[i - 1][j - 1] > minus:
                cls = classes[i - 1]
                value = score[i - 1][j - 1] + real[j - 1] + (0.0 if cls < 0 else float(up[j - 1, cls]))
                if value > best:
                    best, how = value, 0
            if i > 0 and score[i - 1][j] > minus:
                value = score[i - 1][j] + (CUT_MISS if view.cut and j == m else MISS_TOP if i == n else MISS)
                if value > best:
                    best, how = value, 1
            if j > 0 and score[i][j - 1] > minus:
                value = score[i][j - 1] + extra[j - 1]
                if value > best:
                    best, how = value, 2
            score[i][j], move[i][j] = best, how
    if score[n][m] == minus:
        # Too far apart for the band: every prediction missed, every observation extra.
        total = base + MISS * max(n - 1, 0) + (MISS_TOP if n else 0.0) + sum(extra)
        return Alignment(total, (), sum(lone), n > 0)
    matches: list[tuple[int, int]] = []
    extras = 0
    top_missed = False
    i, j = n, m
    while i > 0 or j > 0:
        how = move[i][j]
        if how == 0:
            matches.append((i - 1, j - 1))
            i, j = i - 1, j - 1
        elif how == 1:
            if i == n and not (view.cut and j == m):
                top_missed = True
            i -= 1
        else:
            extras += lone[j - 1]
            j -= 1
    matches.reverse()
    return Alignment(base + score[n][m], tuple(matches), extras, top_missed)


def column_classes(up: tuple[MaybeCard, ...]) -> tuple[int, ...]:
    """Class numbers of a pile's face-up cards."""
    return tuple(card_class(card) for card in up)

