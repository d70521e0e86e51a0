"""Reading a game log, keeping everything before a damaged line.

A log written as the game goes may end in a line cut off by a crash; that
line is reported and everything before it is kept. Damage further up is
reported at its line, and reading stops there (what follows cannot be trusted
to follow from what was lost). A file whose first line is not a spider-log
header is refused with ``LogFormatError``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Iterable

from spider_vision.gamelog.events import Event, Header, LogFormatError, decode_line

__all__ = ["GameLog", "LogDamage", "LoggedEvent", "parse_log", "read_log"]


@dataclass(frozen=True)
class LoggedEvent:
    """An event with the line (1-based, the header is line 1) it was read from."""

    line: int
    event: Event


@dataclass(frozen=True)
class LogDamage:
    """A line that could not be read: where, what is wrong, whether it was the last line."""

    line: int
    message: str
    last: bool

    def __str__(self) -> str:
        where = "last line" if self.last else "line"
        return f"{where} {self.line}: {self.message}"


@dataclass(frozen=True)
class GameLog:
    """The header, the events read before any damage, and the damage if there was some."""

    header: Header
    events: tuple[LoggedEvent, ...]
    damage: LogDamage | None = None


def read_log(path: str | os.PathLike[str]) -> GameLog:
    """Read a log file; ``OSError`` if it cannot be read, ``LogFormatError`` if not a log."""
    with open(path, "rb") as file:
        data = file.read()
    return parse_log(data.split(b"\n"))


def parse_log(lines: Iterable[bytes | str]) -> GameLog:
    """Read a log from its lines (bytes or text, newlines stripped or not)."""
    texts = [_text(line) for line in lines]
    while texts and texts[-1] is not None and not texts[-1].strip():
        texts.pop()
    if not texts:
        raise LogFormatError("not a spider-log: the file is empty")
    first = texts[0]
    if first is None:
        raise LogFormatError("not a spider-log: line 1 is not UTF-8 text")
    try:
        header = decode_line(first, header=True)
    except LogFormatError as error:
        message = str(error)
        if message.startswith("not JSON"):
            message = f"not a spider-log: line 1 is {message}"
        elif not message.startswith("not a spider-log") and "spider-log version" not in message:
            message = f"line 1: {message}"
        raise LogFormatError(message) from None
    assert isinstance(header, Header)
    events: list[LoggedEvent] = []
    last_line = len(texts)
    for number, text in enumerate(texts[1:], start=2):
        try:
            if text is None:
                raise LogFormatError("not UTF-8 text")
            if not text.strip():
                raise LogFormatError("empty line")
            event = decode_line(text)
            assert not isinstance(event, Header)
            if events and event.seq <= events[-1].event.seq:
                raise LogFormatError(
                    f"seq {event.seq} does not follow seq {events[-1].event.seq}"
                )
        except LogFormatError as error:
            return GameLog(header, tuple(events), LogDamage(number, str(error), number == last_line))
        events.append(LoggedEvent(number, event))
    return GameLog(header, tuple(events))


def _text(line: bytes | str) -> str | None:
    if isinstance(line, str):
        return line.rstrip("\r\n")
    try:
        return line.decode("utf-8").rstrip("\r\n")
    except UnicodeDecodeError:
        return None
