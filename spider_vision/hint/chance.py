"""The chance to win, learnt from whole games played with hints.

The share of sampled worlds won is not a chance: each world's search knows
its hidden cards, so in four suits "every world won" still loses a third of
games, while in one suit worlds whose search ran out of time are mostly wins
(``bench/play.py --calibration``). A logistic model per suit mode maps what a
hint knows (its worlds' outcomes and what a player sees of the game) to the
share of such hints that came in won games. ``bench/win_chance.py`` fits the
weights on games played by ``bench/play.py --record`` and measures the
model on deals it was not fitted on.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from spider_vision.engine import Position, SuitMode

__all__ = ["FEATURE_NAMES", "WIN_CHANCE_WEIGHTS", "EstimateEvidence", "win_chance"]

FEATURE_NAMES = (
    "bias",
    "share of worlds won",
    "share won or undecided",
    "face down / 44",
    "deals left / 5",
    "runs removed / 8",
)

WIN_CHANCE_WEIGHTS: dict[SuitMode, tuple[float, ...]] = {
    SuitMode.ONE: (1.255, 0.536, 3.838, -8.057, 5.608, 2.050),
    SuitMode.TWO: (-3.181, 1.499, 4.992, -6.567, 4.363, 5.203),
    SuitMode.FOUR: (-2.061, 2.929, 1.631, -9.272, 5.765, 2.448),
}
"""Logistic weights per suit mode, in the order of ``FEATURE_NAMES``: ``bench/win_chance.py --fit`` on
deals 1..60 of each mode played by ``bench/play.py --nodes-per-move 1000000 --record``, two and four
suits by the engine of 7 December (``bench/data/hint-games-2026-12-07.jsonl``), one suit by that of
4 December (``bench/data/hint-games-1-60.jsonl``): on 7 December's one-suit games those weights
scored better than weights fitted on them, held out (log loss 0.065 against 0.079)."""


@dataclass(frozen=True)
class EstimateEvidence:
    """What one hint knows about its chances: its worlds' outcomes and the game as a player sees it."""

    mode: SuitMode
    samples: int
    wins: int
    undecided: int
    face_down: int
    deals_left: int
    removed: int

    @classmethod
    def of(cls, observed: Position, samples: int, wins: int, undecided: int) -> EstimateEvidence:
        """The evidence of a hint on ``observed`` whose ``samples`` worlds gave ``wins`` and ``undecided``."""
        return cls(
            observed.mode,
            samples,
            wins,
            undecided,
            sum(len(column.down) for column in observed.columns),
            len(observed.stock) // 10,
            len(observed.removed),
        )

    @classmethod
    def from_row(cls, mode: SuitMode, row: tuple[int, ...] | list[int]) -> EstimateEvidence:
        """The evidence that ``as_row`` wrote, for a game in ``mode``."""
        samples, wins, undecided, face_down, deals_left, removed = row
        return cls(mode, samples, wins, undecided, face_down, deals_left, removed)

    def as_row(self) -> tuple[int, ...]:
        """The counts without the mode, in field order: one hint of a game record (``bench/play.py --record``)."""
        return (self.samples, self.wins, self.undecided, self.face_down, self.deals_left, self.removed)

    def features(self) -> tuple[float, ...]:
        """The model's inputs, each scaled to about 0..1 (see ``FEATURE_NAMES``)."""
        low = self.wins / self.samples if self.samples else 0.0
        high = (self.wins + self.undecided) / self.samples if self.samples else 1.0
        return (1.0, low, high, self.face_down / 44, self.deals_left / 5, self.removed / 8)


def win_chance(evidence: EstimateEvidence, weights: dict[SuitMode, tuple[float, ...]] | None = None) -> float | None:
    """The chance to win given ``evidence``, or ``None`` with no worlds searched or no model for the mode."""
    table = WIN_CHANCE_WEIGHTS if weights is None else weights
    model = table.get(evidence.mode)
    if model is None or evidence.samples == 0:
        return None
    if evidence.wins + evidence.undecided == 0:
        # Every world proved lost: none of the 1490 such hints of 4 December's games (60 / 488 / 942 in
        # 1 / 2 / 4 suits), nor of the 1366 of 7 December's (51 / 360 / 955), came in a game then
        # won, and one suit loses too few games for the model
        # to learn it (it gave them up to 58%).
        return 0.0
    logit = sum(weight * value for weight, value in zip(model, evidence.features(), strict=True))
    return 1.0 / (1.0 + math.exp(-max(-40.0, min(40.0, logit))))
