"""Test set-up shared by every test: Qt renders offscreen; positions with their hidden cards shuffled."""

from __future__ import annotations

import os
import random
from collections.abc import Callable

import pytest

from spider_vision.engine import Column, Position

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def _reshuffled(position: Position, seed: int) -> Position:
    """The same position as a player sees it, with its face-down and stock cards shuffled."""
    hidden = [card for column in position.columns for card in column.down] + list(position.stock)
    random.Random(seed).shuffle(hidden)
    columns = []
    for column in position.columns:
        down, hidden = tuple(hidden[: len(column.down)]), hidden[len(column.down) :]
        columns.append(Column(down, column.up))
    return Position(tuple(columns), tuple(hidden), position.removed, position.mode)


@pytest.fixture
def reshuffled() -> Callable[[Position, int], Position]:
    """``reshuffled(position, seed)``: ``position`` with its hidden cards shuffled by ``seed``."""
    return _reshuffled
