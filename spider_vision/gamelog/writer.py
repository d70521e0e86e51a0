"""Writing a game log as the game goes: every event reaches the disk before the next one.

Each line is written, flushed and fsynced on its own, so a crash loses at
most the line being written. Appending to a log whose last line was cut off
starts a new line first, so the cut line stays a damaged line of its own.
"""

from __future__ import annotations

import logging
import os
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import BinaryIO, Callable

from spider_vision.engine import Move, Position, Step, Variant
from spider_vision.engine.cards import MaybeCard
from spider_vision.engine.rules import Flip
from spider_vision.gamelog.events import (
    CorrectionEvent,
    Event,
    FlipEvent,
    Header,
    MoveEvent,
    NoteEvent,
    RemoveEvent,
    encode_line,
)

__all__ = ["LogWriter", "events_from_step", "now_iso"]

logger = logging.getLogger(__name__)


def now_iso() -> str:
    """The current UTC time in ISO 8601, to the second, as the header's ``started``."""
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def events_from_step(step: Step, seq: int, t: float) -> list[Event]:
    """The events of one engine step, numbered from ``seq``.

    A move or deal first (a card read, when the step is a reveal), then the
    removed runs, then the automatic flips, in the order the step lists them.
    """
    events: list[Event] = []
    if isinstance(step.move, Flip):
        events.append(FlipEvent(seq, t, step.move.column, step.move.card))
    else:
        events.append(MoveEvent(seq, t, step.move, step.legal, step.after.spn(), step.reason))
    for removed in step.removals:
        events.append(RemoveEvent(seq + len(events), t, removed.column, removed.suit))
    for flip in step.flips:
        events.append(FlipEvent(seq + len(events), t, flip.column, flip.card))
    return events


class LogWriter:
    """Appends events to a game log file, numbering them and timing them from the start.

    ``clock`` returns seconds since the start of the game; by default it is
    the time since the writer was made (plus the last ``t`` of a log that is
    being continued).
    """

    def __init__(
        self, file: BinaryIO, path: Path, next_seq: int, clock: Callable[[], float]
    ) -> None:
        self._file = file
        self.path = path
        self.next_seq = next_seq
        self._clock = clock

    # --- opening -----------------------------------------------------------------

    @classmethod
    def create(
        cls,
        path: str | os.PathLike[str],
        start: Position,
        *,
        variant: Variant,
        source: str,
        deal: int | None = None,
        started: str | None = None,
        clock: Callable[[], float] | None = None,
    ) -> LogWriter:
        """Start a new log at ``path`` (replacing any file there) and write its header."""
        header = Header(start, variant, deal, source, started or now_iso())
        file = open(path, "wb")
        writer = cls(file, Path(path), 1, clock or _since(time.monotonic()))
        writer._write_line(encode_line(header))
        return writer

    @classmethod
    def append(
        cls, path: str | os.PathLike[str], *, clock: Callable[[], float] | None = None
    ) -> LogWriter:
        """Continue an existing log: numbering goes on after its last readable event."""
        from spider_vision.gamelog.reader import read_log

        log = read_log(path)
        last_seq = log.events[-1].event.seq if log.events else 0
        last_t = log.events[-1].event.t if log.events else 0.0
        file = open(path, "ab")
        if file.tell() > 0 and not _ends_with_newline(Path(path)):
            logger.warning("%s: last line was cut off; starting a new line", path)
            file.write(b"\n")
        return cls(file, Path(path), last_seq + 1, clock or _since(time.monotonic() - last_t))

    # --- writing -----------------------------------------------------------------

    def write(self, event: Event) -> Event:
        """Write one event as it is; it is on disk when this returns."""
        self._write_line(encode_line(event))
        self.next_seq = max(self.next_seq, event.seq + 1)
        return event

    def step(self, step: Step) -> list[Event]:
        """Write the events of an engine step (see ``events_from_step``)."""
        events = events_from_step(step, self.next_seq, self._clock())
        for event in events:
            self.write(event)
        return events

    def note(self, text: str) -> Event:
        """Write a note."""
        return self.write(NoteEvent(self.next_seq, self._clock(), text))

    def undo(self, move: Move, after: Position) -> Event:
        """Write that ``move`` was taken back, leaving ``after``."""
        return self.write(
            NoteEvent(self.next_seq, self._clock(), f"undo {move}", move, after.spn())
        )

    def flip(self, column: int, card: MaybeCard) -> Event:
        """Write that a card was turned over or read in ``column``."""
        return self.write(FlipEvent(self.next_seq, self._clock(), column, card))

    def remove(self, column: int, suit: str) -> Event:
        """Write that a completed run was taken off ``column``."""
        return self.write(RemoveEvent(self.next_seq, self._clock(), column, suit))

    def correction(
        self, column: int, index: int, was: MaybeCard, now: MaybeCard, after: Position
    ) -> Event:
        """Write that the card at ``index`` of ``column`` was ``was`` and really is ``now``."""
        return self.write(
            CorrectionEvent(self.next_seq, self._clock(), column, index, was, now, after.spn())
        )

    def close(self) -> None:
        """Close the file (everything is already on disk)."""
        self._file.close()

    def __enter__(self) -> LogWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _write_line(self, line: str) -> None:
        self._file.write(line.encode("utf-8") + b"\n")
        self._file.flush()
        os.fsync(self._file.fileno())


def _since(origin: float) -> Callable[[], float]:
    return lambda: time.monotonic() - origin


def _ends_with_newline(path: Path) -> bool:
    with open(path, "rb") as file:
        file.seek(0, os.SEEK_END)
        if file.tell() == 0:
            return True
        file.seek(-1, os.SEEK_END)
        return file.read(1) == b"\n"
