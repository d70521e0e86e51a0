"""Replay mode's data: a game log replayed by the engine, stepped through one event at a time (no Qt)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from spider_vision.engine import Position
from spider_vision.gamelog import MoveEvent, NoteEvent, Replay, ReplayedEvent, describe, read_log, replay

__all__ = ["ReplayModel", "move_list_text"]

START_SCORE = 500
RUN_BONUS = 100


@dataclass
class ReplayModel:
    """``step`` 0 is the start; step k shows the position after the k-th event."""

    path: Path
    result: Replay
    step: int = 0

    @classmethod
    def load(cls, path: str | Path) -> ReplayModel:
        """Read and replay a log (``LogFormatError`` or ``OSError`` when it cannot be read)."""
        return cls(Path(path), replay(read_log(path)))

    @property
    def length(self) -> int:
        return len(self.result.entries)

    def go(self, step: int) -> int:
        self.step = max(0, min(self.length, step))
        return self.step

    @property
    def entry(self) -> ReplayedEvent | None:
        return self.result.entries[self.step - 1] if self.step else None

    @property
    def position(self) -> Position:
        return self.entry.position if self.entry is not None else self.result.header.start

    @property
    def moves(self) -> int:
        """Moves and deals made up to this step, undone ones taken off."""
        count = 0
        for entry in self.result.entries[: self.step]:
            if isinstance(entry.event, MoveEvent):
                count += 1
            elif isinstance(entry.event, NoteEvent) and entry.event.undo is not None:
                count -= 1
        return count

    @property
    def score(self) -> int:
        runs = len(self.position.removed) - len(self.result.header.start.removed)
        return START_SCORE - self.moves + RUN_BONUS * runs

    def lines(self) -> list[str]:
        """Each event in a few words, numbered as the log numbers them."""
        return [f"{entry.event.seq:>3}  {describe(entry.event)}" for entry in self.result.entries]


def move_list_text(entries: list[ReplayedEvent] | tuple[ReplayedEvent, ...], title: str) -> str:
    """The moves of a game as plain text: one per line, numbered, rule breaks marked with their reason."""
    lines = [title, ""]
    number = 0
    for entry in entries:
        event = entry.event
        if isinstance(event, MoveEvent):
            number += 1
            mark = "" if event.legal else f"   (illegal: {event.reason})"
            lines.append(f"{number:>3}. {event.move}{mark}")
        elif isinstance(event, NoteEvent) and event.undo is not None:
            lines.append(f"     undo {event.undo}")
    return "\n".join(lines) + "\n"
