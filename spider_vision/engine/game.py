"""A game in progress: the current position with unlimited undo and redo, moves and score."""

from __future__ import annotations

from dataclasses import dataclass, field

from spider_vision.engine.cards import Card
from spider_vision.engine.moves import Move
from spider_vision.engine.position import Position
from spider_vision.engine.rules import STANDARD, Flip, Step, Variant, apply_move, legal_moves, reveal

__all__ = ["Game", "NothingToRedoError", "NothingToUndoError", "START_SCORE"]

START_SCORE = 500
RUN_BONUS = 100


class NothingToUndoError(ValueError):
    """Undo at the start of the game."""


class NothingToRedoError(ValueError):
    """Redo with nothing undone."""


@dataclass
class Game:
    """The position after a sequence of steps, with the steps kept for undo and redo.

    The move counter counts tableau moves, deals and manual removals (reading a
    card is no move); the classic score is 500, minus one per move, plus 100
    per removed run. Undo restores the exact earlier position and counter.
    """

    start: Position
    variant: Variant = STANDARD
    history: list[Step] = field(default_factory=list)
    undone: list[Step] = field(default_factory=list)

    @property
    def position(self) -> Position:
        """The current position."""
        return self.history[-1].after if self.history else self.start

    @property
    def moves_made(self) -> int:
        """Moves and deals made so far (undone ones not counted)."""
        return sum(1 for step in self.history if not isinstance(step.move, Flip))

    @property
    def score(self) -> int:
        """The classic score: 500, -1 per move, +100 per removed run."""
        runs = len(self.position.removed) - len(self.start.removed)
        return START_SCORE - self.moves_made + RUN_BONUS * runs

    @property
    def is_won(self) -> bool:
        """Eight runs removed."""
        return self.position.is_won

    @property
    def is_lost(self) -> bool:
        """No legal move, no win, and no face-up card left to read (a read may open moves)."""
        position = self.position
        if position.is_won or any(None in column.up for column in position.columns):
            return False
        return not self.legal_moves()

    def legal_moves(self) -> list[Move]:
        """The legal moves of the current position."""
        return legal_moves(self.position, self.variant)

    def play(self, move: Move, *, force: bool = False) -> Step:
        """Make a move (see ``apply_move``); a new move clears the redo list."""
        step = apply_move(self.position, move, self.variant, force=force)
        self._push(step)
        return step

    def read(self, column: int, card: Card) -> Step:
        """Record that an unread face-up card of ``column`` was read as ``card``."""
        step = reveal(self.position, column, card, self.variant)
        self._push(step)
        return step

    def undo(self) -> Step:
        """Take back the last step, restoring the position before it exactly."""
        if not self.history:
            raise NothingToUndoError("nothing to undo: this is the start of the game")
        step = self.history.pop()
        self.undone.append(step)
        return step

    def redo(self) -> Step:
        """Make the last undone step again."""
        if not self.undone:
            raise NothingToRedoError("nothing to redo")
        step = self.undone.pop()
        self.history.append(step)
        return step

    def _push(self, step: Step) -> None:
        self.history.append(step)
        self.undone.clear()

