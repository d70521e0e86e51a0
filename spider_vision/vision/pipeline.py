"""Read one BGR picture of a Spider table into a ``TableReading``.

Stages: picture checks; detection of face-up cards (corner index plus card
frame, implausible peaks dropped); grouping into columns, repaired with the
cascade's step (cards missed inside a column added); the corner reader on
each card's corner crop; an exposed card whose top index is hidden found by
its face and read from its bottom index; weak unreadable peaks that are no
cards (pips, edges of backs) and peaks on a card's top-right index (decks
that print two) left out of the columns; warnings about the framing (cards
too small, columns off the picture); the pip count of each column's
uncovered last card multiplied into its read, and that card's bottom-right
index read as well; each column's sequence prior; the face-down counter on
the strip above each column's lowest face-up card, and where the counts
make no card total Spider allows, up to three peaks likely to be no card (a
card found twice, a pip, the edge of a face-down card) left out when that
makes one; the rules filter; in four suits, a warning where the cascade is
laid so tight that the next card hides cards' suit pips; the SPN. A
table that shows about one card a column and hardly any face-down card is
read again the other way up.
Partial views and layouts that are not Spider keep their cards and lose the
position, with a warning saying why.
"""

from __future__ import annotations

import logging
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from spider_vision.engine import Card
from spider_vision.vision.bottom_index import read_bottom_indices
from spider_vision.vision.calibration import Calibration, CalibrationError
from spider_vision.vision.card_total import drop_for_whole_total
from spider_vision.vision.cascade import drop_phantom_peaks, repair_columns
from spider_vision.vision.completed import drop_completed_runs, runs_in_sight
from spider_vision.vision.corners import drop_second_indices
from spider_vision.vision.detect import Detections, detect_cards, table_roll
from spider_vision.vision.errors import BadPictureError, NoCardsError, NotAnImageError
from spider_vision.vision.framing import framing_warnings, hidden_suit_warnings
from spider_vision.vision.geometry import STRIP_CROP, corner_crop, strip_crop
from spider_vision.vision.hidden import Reads, find_hidden_tops
from spider_vision.vision.layout import Layout, group_columns
from spider_vision.vision.models import Models
from spider_vision.vision.pips import weigh_ranks
from spider_vision.vision.position import build_spn
from spider_vision.vision.reading import CardReading, TableReading
from spider_vision.vision.rules import (apply_rules, choose_down_counts, column_prior, infer_suits,
                                        joint_probabilities, letter_beliefs)

__all__ = ["calibrate", "load_image", "read_corners", "read_table"]

logger = logging.getLogger(__name__)

DOWN_STEP = 0.08
"""Assumed step between face-down cards (of the card height) for their drawn outlines only."""
TOO_DARK = 60.0
"""The brightest parts of a picture (its 99th percentile of grey) must reach this: card faces are the
brightest things on a table, and a dark cloth may keep the mean far lower (a dark blue table under
good light has a mean of 30 and cards at 170)."""
TOO_BRIGHT = 235.0
"""The mean grey above which a picture is washed out."""
TOO_BLURRED = 12.0
PIP_SHARE = 0.36
"""The share of a corner index's height that its suit pip takes, at its foot (0.34-0.38 on the Kennard
decks, 0.25-0.5 on the procedural ones)."""
UPSIDE_DOWN_COLUMNS = 5
"""Columns a table must show before it is read again the other way up (``_may_be_upside_down``)."""


def load_image(path: str | Path) -> np.ndarray:
    """A picture file as BGR uint8, or ``NotAnImageError``."""
    path = Path(path)
    if not path.is_file():
        raise NotAnImageError(f"'{path}' does not exist or is not a file")
    data = np.fromfile(str(path), np.uint8)
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise NotAnImageError(f"'{path}' is not an image OpenCV can read")
    return image


def _check_picture(image: np.ndarray) -> np.ndarray:
    if not isinstance(image, np.ndarray) or image.ndim not in (2, 3) or image.dtype != np.uint8:
        raise NotAnImageError("the picture must be an 8-bit grey or BGR image")
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    elif image.shape[2] == 4:
        image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    height, width = image.shape[:2]
    if width < 200 or height < 120:
        raise BadPictureError(f"the picture is too small ({width}x{height}); at least 640x360 is needed to read cards")
    grey = cv2.cvtColor(cv2.resize(image, (160, 90), interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY)
    brightest = float(np.percentile(grey, 99))
    if brightest < TOO_DARK:
        raise BadPictureError(f"the picture is too dark to read (its brightest parts reach {brightest:.0f} of 255)")
    brightness = float(grey.mean())
    if brightness > TOO_BRIGHT:
        raise BadPictureError(f"the picture is too bright to read (mean brightness {brightness:.0f} of 255)")
    return image


def _sharpness(image: np.ndarray) -> float:
    grey = cv2.cvtColor(cv2.resize(image, (640, round(640 * image.shape[0] / image.shape[1])),
                                   interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY)
    return float(cv2.Laplacian(grey, cv2.CV_32F).var())


def _index_box(centre: np.ndarray, right: np.ndarray, down: np.ndarray,
               size: np.ndarray) -> tuple[float, float, float, float]:
    r = right / max(np.linalg.norm(right), 1e-9) * size[0] / 2
    d = down / max(np.linalg.norm(down), 1e-9) * size[1] / 2
    corners = np.array([centre - r - d, centre + r - d, centre + r + d, centre - r + d])
    x0, y0 = corners.min(axis=0)
    x1, y1 = corners.max(axis=0)
    return float(x0), float(y0), float(x1 - x0), float(y1 - y0)


def _visible_part(quad: np.ndarray, cover_from: float | None) -> np.ndarray:
    """The card's quad cut where the next card of its column starts (fraction of the height)."""
    if cover_from is None:
        return quad
    t = float(np.clip(cover_from, 0.02, 1.0))
    o, r, d = quad[0], quad[1] - quad[0], quad[3] - quad[0]
    return np.array([o, o + r, o + r + t * d, o + t * d])


def read_corners(image: np.ndarray, models: Models, detections: Detections) -> Reads:
    """The reader on each detection's corner crop: rank (n, 13) and suit (n, 4) probabilities, embeddings."""
    crops = np.stack([corner_crop(image, o, r, d)
                      for o, r, d in zip(detections.origins, detections.rights, detections.downs)])
    return models.read(crops)


def read_table(image: np.ndarray, models: Models, *, suits: int | None = None,
               calibration: Calibration | None = None,
               known: dict[tuple[int, int], Card] | None = None) -> TableReading:
    """Every card in a BGR picture, and the SPN when the picture shows a whole, consistent Spider table."""
    started = time.perf_counter()
    image = _check_picture(image)
    detections = detect_cards(models, image)
    if not len(detections):
        if _sharpness(image) < TOO_BLURRED:
            raise BadPictureError("the picture is too blurred to read cards from")
        raise NoCardsError("no cards found in the picture")
    reading = _read_detections(image, models, detections, suits, calibration, known)
    if _may_be_upside_down(reading):
        turned = detect_cards(models, image, roll=table_roll(detections) + 180.0)
        if len(turned):
            other = _read_detections(image, models, turned, suits, calibration, known)
            if _face_down(other) >= _face_down(reading) + len(_columns(other)):
                reading = other
    return replace(reading, milliseconds=(time.perf_counter() - started) * 1000)


def _columns(reading: TableReading) -> set[int]:
    return {card.column for card in reading.cards if card.column is not None}


def _face_down(reading: TableReading) -> int:
    return sum(not card.face_up for card in reading.cards)


def _may_be_upside_down(reading: TableReading) -> bool:
    """Whether the cards read may be the far corners of a table seen upside down.

    Each column's uncovered card shows its index at both ends, the far one
    upside down, and the detector finds either. Where no column shows more
    than one card (the start of a game), the far indices can outnumber the
    top ones and set the table's down direction the wrong way round; the
    columns then read the cards' far ends, with the cloth where the
    face-down cards should be. So a table that shows about one card per
    column and fewer face-down cards than columns is read again the other
    way up, and the reading that sees more face-down cards (one a column
    more at least) is kept.
    """
    columns = len(_columns(reading))
    face_up = sum(card.face_up and card.column is not None for card in reading.cards)
    return columns >= UPSIDE_DOWN_COLUMNS and face_up <= 1.5 * columns and _face_down(reading) < columns


def _read_detections(image: np.ndarray, models: Models, detections: Detections, suits: int | None,
                     calibration: Calibration | None,
                     known: dict[tuple[int, int], Card] | None) -> TableReading:
    """The stages after detection: columns, reads, face-down counts, rules and the SPN."""
    height, width = image.shape[:2]
    detections, layout = repair_columns(detections, group_columns(detections))
    found = len(detections)  # those after are exposed cards found by their bottom index, read there
    detections, layout, (rank, suit, embeddings) = find_hidden_tops(
        image, models, detections, layout, read_corners(image, models, detections))
    beliefs = joint_probabilities(rank, suit)
    layout = drop_phantom_peaks(layout, detections, beliefs)
    layout = drop_second_indices(layout, detections, beliefs)
    count = _StripCounts(image, models, detections)
    layout = drop_completed_runs(layout, detections, beliefs, lambda i: float(count([i])[0, 0]))
    rank = weigh_ranks(rank, image, detections, [column[-1] for column in layout.columns])
    rank, suit = read_bottom_indices(image, models, detections,
                                     [column[-1] for column in layout.columns if column[-1] < found], rank, suit)
    read = joint_probabilities(rank, suit)
    if calibration is not None:
        read = calibration.adjust(read, embeddings)
    probabilities = column_prior(read, [list(column) for column in layout.columns])
    whole = drop_for_whole_total(layout, detections.scores, probabilities, count)
    if whole is not layout:
        layout = whole
        probabilities = column_prior(read, [list(column) for column in layout.columns])
    warnings = framing_warnings(detections, layout, (width, height))
    cards, down_counts = _cards(detections, layout, probabilities, embeddings, count)
    mode = suits or infer_suits(probabilities)
    if suits is None:
        warnings.append(f"suit mode {mode} inferred from the suits seen; pass --suits to fix it")
    cards, rule_warnings = apply_rules(cards, mode, known)
    warnings.extend(rule_warnings)
    warnings.extend(hidden_suit_warnings(cards, mode))
    position = None
    if not layout.full and layout.places == 9:
        warnings.append(f"the {len(layout.columns)} pile(s) found take nine columns' places in a row: column a "
                        "or j is empty or out of the picture, and one picture cannot tell which; position "
                        "withheld")
    elif not layout.full:
        warnings.append(f"the {len(layout.columns)} pile(s) found do not form the ten columns of a Spider "
                        "tableau (partial view or another layout); position withheld")
    else:
        columns: list[tuple[int, list[Card | None]]] = [(0, []) for _ in range(10)]
        for letter in range(10):
            pile = sorted((c for c in cards if c.column == letter and c.face_up), key=lambda c: c.index)
            columns[letter] = (down_counts.get(letter, 0), [c.card for c in pile])
        loose = [c.card for c in cards if c.column is None and c.face_up and c.card is not None]
        position, spn_warnings = build_spn(columns, mode, loose)
        warnings.extend(spn_warnings)
    order = sorted(range(len(cards)), key=lambda k: (cards[k].column is None, cards[k].column or 0, cards[k].index))
    return TableReading(tuple(cards[k] for k in order), position, tuple(warnings), mode, (width, height))


class _StripCounts:
    """The face-down counter's beliefs for the strip above each detection asked for, each worked out once
    (several stages ask about the same columns)."""

    def __init__(self, image: np.ndarray, models: Models, detections: Detections) -> None:
        self._image, self._models, self._detections = image, models, detections
        self._known: dict[int, np.ndarray] = {}

    def __call__(self, indices: list[int]) -> np.ndarray:
        """Beliefs (len(indices), 7) of 0..6 face-down cards above each detection."""
        new = [i for i in dict.fromkeys(indices) if i not in self._known]
        d = self._detections
        strips = np.zeros((0, STRIP_CROP[1], STRIP_CROP[0], 3), np.uint8)
        if new:
            strips = np.stack([strip_crop(self._image, d.origins[i], d.rights[i], d.downs[i]) for i in new])
        beliefs = self._models.count(strips)
        self._known.update(zip(new, beliefs))
        return np.array([self._known[i] for i in indices]).reshape(len(indices), beliefs.shape[1])


def _cards(detections: Detections, layout: Layout, probabilities: np.ndarray, embeddings: np.ndarray,
           count: _StripCounts) -> tuple[list[CardReading], dict[int, int]]:
    """Card readings of every detection and the face-down cards under each column."""
    quads = detections.quads()
    cards: list[CardReading] = []
    down_counts: dict[int, int] = {}
    counts = count([column[0] for column in layout.columns])
    height = layout.card_size[1] or 1.0
    placed = set()
    points = detections.origins @ layout.rotation.T
    chosen = [int(p.argmax()) for p in counts]
    if layout.full:
        allowed, _ = choose_down_counts(letter_beliefs(layout.letters, counts),
                                        sum(len(column) for column in layout.columns),
                                        runs_in_sight(layout.loose, probabilities))
        chosen = [allowed[letter] if letter is not None else chosen[k] for k, letter in enumerate(layout.letters)]
    for k, (column, letter) in enumerate(zip(layout.columns, layout.letters)):
        down = chosen[k]
        down_confidence = float(counts[k][down])
        key = letter if letter is not None else -1 - k
        down_counts[key] = down
        first = column[0]
        o, r, d = detections.origins[first], detections.rights[first], detections.downs[first]
        for j in range(down):
            origin = o - (down - j) * DOWN_STEP * d
            quad = np.array([origin, origin + r, origin + r + d, origin + d])
            polygon = np.array([origin, origin + r, origin + r + DOWN_STEP * d, origin + DOWN_STEP * d])
            cards.append(CardReading(letter, j, False, None, down_confidence, quad, polygon))
        for position, i in enumerate(column):
            following = column[position + 1] if position + 1 < len(column) else None
            cover = None if following is None else (points[following, 1] - points[i, 1]) / height
            cards.append(_face_up(detections, i, letter, down + position, quads[i], cover,
                                  probabilities[i], embeddings[i], height))
            placed.add(i)
    for i in range(len(detections)):
        if i not in placed:
            cards.append(_face_up(detections, i, None, 0, quads[i], None, probabilities[i], embeddings[i]))
    return cards, down_counts


def _face_up(detections: Detections, i: int, letter: int | None, index: int, quad: np.ndarray,
             cover: float | None, probabilities: np.ndarray, embedding: np.ndarray,
             height: float = 1.0) -> CardReading:
    box = _index_box(detections.centres[i], detections.rights[i], detections.downs[i], detections.index_sizes[i])
    shown = 1.0 if cover is None else _suit_shown(detections, i, cover * height)
    return CardReading(letter, index, True, None, float(probabilities.max()), quad, _visible_part(quad, cover),
                       box, probabilities, embedding, float(detections.scores[i]), shown)


def _suit_shown(detections: Detections, i: int, step: float) -> float:
    """The share of detection ``i``'s suit pip (the foot of its corner index) above the next card's top
    edge, ``step`` pixels down the column from its own."""
    down = detections.downs[i] / max(float(np.linalg.norm(detections.downs[i])), 1e-9)
    index_height = float(detections.index_sizes[i][1])
    bottom = float((detections.centres[i] - detections.origins[i]) @ down) + index_height / 2
    pip = max(PIP_SHARE * index_height, 1e-9)
    return float(np.clip((step - (bottom - pip)) / pip, 0.0, 1.0))


def calibrate(image: np.ndarray, models: Models, cards: list[Card]) -> Calibration:
    """Prototypes of a player's deck from a photo of known face-up cards.

    ``cards`` name the face-up cards in the photo left to right by column (in
    the layout's own frame), each column top to bottom; for example A to K of
    one suit laid side by side, or a dealt table's face-up cards column a to j.
    Cards found away from the columns (a removed run, the stock's top card)
    come last; naming only the columns' cards leaves them out.
    """
    image = _check_picture(image)
    found = detect_cards(models, image)
    # The same cards as ``read_table`` finds (missed ones inside columns added), so that names line up.
    detections, layout = repair_columns(found, group_columns(found))
    order = [i for column in layout.columns for i in column]
    if len(cards) != len(order):
        order += list(layout.loose)
    if len(order) != len(cards):
        loose = f" ({len(layout.loose)} of them away from the columns)" if layout.loose else ""
        raise CalibrationError(f"{len(cards)} cards named but {len(order)} face-up cards found in the photo{loose}")
    _, _, embeddings = read_corners(image, models, detections.subset(np.array(order, dtype=int)))
    return Calibration.from_examples(embeddings, cards)
