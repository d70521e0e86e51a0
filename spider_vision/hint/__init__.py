"""Hints for a player who cannot see face-down cards: determinised search with tactical fallback."""

from __future__ import annotations

from spider_vision.hint.advisor import Hint, HintLimits, HintLimitsError, HintSession, hint
from spider_vision.hint.knowledge import Knowledge, determinise
from spider_vision.hint.tactics import explain, tactical_score
from spider_vision.hint.worlds import game_progress

__all__ = [
    "Hint",
    "HintLimits",
    "HintLimitsError",
    "HintSession",
    "Knowledge",
    "determinise",
    "explain",
    "game_progress",
    "hint",
    "tactical_score",
]
