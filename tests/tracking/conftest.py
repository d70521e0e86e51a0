"""A stand-in camera for tracker tests: synthetic frames and a reader that knows what they show.

Each table state is drawn as a fixed background with a patch in the middle
whose grey level encodes the state; a hand is a bar reaching in from the
bottom edge. ``StandInReader`` decodes the state and returns the reading of
its position: each face-up card read with high confidence (or misread, where
a test says so) and the face-down cards counted.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pytest

from spider_vision.engine import Card, Position
from spider_vision.tracking import Frame
from spider_vision.vision import CardReading, TableReading
from spider_vision.vision.reading import class_index

WIDTH, HEIGHT = 320, 180
BASE, STEP = 30, 20


def _background() -> np.ndarray:
    rng = np.random.default_rng(7)
    noise = rng.integers(60, 120, (HEIGHT // 10, WIDTH // 10, 3), dtype=np.uint8)
    return np.kron(noise, np.ones((10, 10, 1), np.uint8))


BACKGROUND = _background()


def state_image(state: int, hand_at: float | None = None) -> np.ndarray:
    """The picture of table state ``state``; ``hand_at`` (0..1 across) draws a hand over it."""
    image = BACKGROUND.copy()
    image[HEIGHT * 2 // 5: HEIGHT * 3 // 5, WIDTH * 2 // 5: WIDTH * 3 // 5] = BASE + STEP * state
    if hand_at is not None:
        x = int(hand_at * (WIDTH - 40))
        image[HEIGHT // 3:, x: x + 40] = (90, 150, 220)
    return image


def state_of(image: np.ndarray) -> int:
    patch = image[HEIGHT * 2 // 5: HEIGHT * 3 // 5, WIDTH * 2 // 5: WIDTH * 3 // 5]
    return int(round((float(patch.mean()) - BASE) / STEP))


@dataclass
class StandInReader:
    """Reads the positions of the states; ``misreads[(state, column, index)]`` is read instead
    (with ``misread_share`` of the belief, the true card most of the rest, or with the shares of
    ``misread_belief`` when given, even for a card read as itself: a reader unsure between many, or
    sure with a little doubt); the face-up cards ``hidden``
    (state, column, index) are out of sight (past the picture's edge, say)."""

    positions: list[Position]
    misreads: dict[tuple[int, int, int], Card] = field(default_factory=dict)
    hidden: set[tuple[int, int, int]] = field(default_factory=set)
    sure: float = 0.97
    misread_share: float | None = None
    misread_belief: dict[Card, float] = field(default_factory=dict)

    def __call__(self, image: np.ndarray) -> TableReading:
        state = state_of(image)
        position = self.positions[state]
        allowed = [card for card in position.mode.deck()]
        classes = sorted({class_index(card) for card in allowed})
        cards = []
        quad = np.zeros((4, 2))
        for column, pile in enumerate(position.columns):
            for index in range(len(pile.down)):
                cards.append(CardReading(column, index, False, None, 0.9, quad, quad))
            for slot, card in enumerate(pile.up):
                index = len(pile.down) + slot
                if (state, column, index) in self.hidden:
                    continue
                seen = self.misreads.get((state, column, index), card)
                probabilities = np.zeros(52)
                probabilities[classes] = (1 - self.sure) / (len(classes) - 1)
                probabilities[class_index(seen)] = self.sure
                if seen != card and self.misread_share is not None:
                    probabilities[class_index(seen)] = self.misread_share
                    probabilities[class_index(card)] = self.sure - self.misread_share
                if (state, column, index) in self.misreads and self.misread_belief:
                    probabilities[classes] = (1 - sum(self.misread_belief.values())) / len(classes)
                    for other, share in self.misread_belief.items():
                        probabilities[class_index(other)] = share
                cards.append(CardReading(column, index, True, seen, self.sure, quad, quad,
                                         probabilities=probabilities))
        return TableReading(tuple(cards), None, (), int(position.mode), (WIDTH, HEIGHT))


def play_frames(states: list[int], *, rest: int = 8, hand: int = 4, fps: float = 8.0) -> list[Frame]:
    """Frames of a game: the first state at rest, then for each next one a hand moving over, then rest."""
    images = [state_image(states[0]) for _ in range(rest)]
    for previous, state in zip(states, states[1:]):
        images += [state_image(previous, hand_at=k / hand) for k in range(hand // 2)]
        images += [state_image(state, hand_at=k / hand) for k in range(hand // 2, hand)]
        images += [state_image(state) for _ in range(rest)]
    return [Frame(index, index / fps, image) for index, image in enumerate(images)]


@pytest.fixture
def stand_in():
    return StandInReader
