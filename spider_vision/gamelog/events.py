"""The game log's records: the header and the events, with their exact JSON form.

Every record is a frozen dataclass holding engine values (moves, cards,
0-based columns); ``to_json`` gives the object the spec fixes and
``event_from_json`` / ``Header.from_json`` read it back, refusing anything
else with a ``LogFormatError`` that names the offending key. SPN texts of
``after`` are kept as written: the replayer compares them canonically.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Union

from spider_vision.engine import (
    Move,
    NotationError,
    Position,
    SuitMode,
    Variant,
    card_text,
    column_index,
    column_letter,
    parse_card,
    parse_move,
)
from spider_vision.engine.cards import MaybeCard

__all__ = [
    "FORMAT",
    "SOURCES",
    "VERSION",
    "CorrectionEvent",
    "Event",
    "FlipEvent",
    "Header",
    "LogFormatError",
    "MoveEvent",
    "NoteEvent",
    "RemoveEvent",
    "decode_line",
    "encode_line",
    "event_from_json",
    "event_to_json",
]

FORMAT = "spider-log"
VERSION = 1
SOURCES = ("camera", "video", "images", "deal", "manual")
KINDS = ("move", "deal", "flip", "remove", "correction", "note")


class LogFormatError(ValueError):
    """A line that is not a valid header or event of a spider-log."""


# --- field readers -------------------------------------------------------------


def _get(data: dict[str, Any], key: str, kind: type | tuple[type, ...], what: str) -> Any:
    if key not in data:
        raise LogFormatError(f"{what} has no '{key}'")
    value = data[key]
    if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
        raise LogFormatError(f"{what}: '{key}' must not be true/false")
    if not isinstance(value, kind):
        raise LogFormatError(f"{what}: '{key}' has the wrong type ({json.dumps(value)})")
    return value


def _column(data: dict[str, Any], what: str) -> int:
    text = _get(data, "column", str, what)
    try:
        return column_index(text)
    except NotationError as error:
        raise LogFormatError(f"{what}: {error}") from None


def _card(data: dict[str, Any], key: str, what: str) -> MaybeCard:
    text = _get(data, key, str, what)
    try:
        return parse_card(text)
    except NotationError as error:
        raise LogFormatError(f"{what}: '{key}': {error}") from None


def _move(text: str, what: str) -> Move:
    try:
        move, _ = parse_move(text)
    except NotationError as error:
        raise LogFormatError(f"{what}: {error}") from None
    return move


def _time(t: float) -> float | int:
    """``t`` as written: rounded to the millisecond, a whole number without ``.0``."""
    rounded = round(float(t), 3)
    return int(rounded) if rounded == int(rounded) else rounded


# --- header ----------------------------------------------------------------------


@dataclass(frozen=True)
class Header:
    """Line 1 of a game log: what game this is and where its start came from."""

    start: Position
    variant: Variant
    deal: int | None
    source: str
    started: str

    @property
    def suits(self) -> SuitMode:
        """The suit mode, which is the start position's."""
        return self.start.mode

    def to_json(self) -> dict[str, Any]:
        """The header object in the spec's key order."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "suits": int(self.suits),
            "variant": self.variant.to_json(),
            "deal": self.deal,
            "start": self.start.spn(),
            "source": self.source,
            "started": self.started,
        }

    @classmethod
    def from_json(cls, data: Any) -> Header:
        """Read a header object; refuse one that is not a spider-log version 1."""
        what = "header"
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise LogFormatError("not a spider-log: line 1 has no \"format\": \"spider-log\"")
        version = _get(data, "version", int, what)
        if version != VERSION:
            raise LogFormatError(f"spider-log version {version} is not supported (only {VERSION})")
        suits = _get(data, "suits", int, what)
        variant = _get(data, "variant", dict, what)
        if "deal" not in data:
            raise LogFormatError("header has no 'deal' (write null when there is none)")
        deal = data["deal"]
        if deal is not None and (isinstance(deal, bool) or not isinstance(deal, int) or deal < 0):
            raise LogFormatError(f"header: 'deal' must be a deal number or null, not {deal!r}")
        try:
            start = Position.from_spn(_get(data, "start", str, what))
        except NotationError as error:
            raise LogFormatError(f"header: 'start': {error}") from None
        if int(start.mode) != suits:
            raise LogFormatError(
                f"header: 'suits' is {suits} but the start position is a {int(start.mode)}-suit game"
            )
        source = _get(data, "source", str, what)
        if source not in SOURCES:
            raise LogFormatError(
                f"header: 'source' '{source}' is not one of {', '.join(SOURCES)}"
            )
        started = _get(data, "started", str, what)
        try:
            datetime.fromisoformat(started.replace("Z", "+00:00"))
        except ValueError:
            raise LogFormatError(f"header: 'started' '{started}' is not an ISO 8601 time") from None
        return cls(start, Variant.from_json(variant), deal, source, started)


# --- events ----------------------------------------------------------------------


@dataclass(frozen=True)
class MoveEvent:
    """A move or a stock deal as it was made at the table, legal or not."""

    seq: int
    t: float
    move: Move
    legal: bool
    after: str
    reason: str = ""

    @property
    def kind(self) -> str:
        """``deal`` for a stock deal, ``move`` otherwise."""
        return "deal" if str(self.move) == "deal" else "move"

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {"move": str(self.move), "legal": self.legal}
        if not self.legal:
            data["reason"] = self.reason
        data["after"] = self.after
        return data


@dataclass(frozen=True)
class FlipEvent:
    """A card turned face up or read: ``card`` is what the camera read (``None``: not read)."""

    seq: int
    t: float
    column: int
    card: MaybeCard

    kind = "flip"

    def payload(self) -> dict[str, Any]:
        return {"column": column_letter(self.column), "card": card_text(self.card)}


@dataclass(frozen=True)
class RemoveEvent:
    """A completed King-to-Ace run taken off a column."""

    seq: int
    t: float
    column: int
    suit: str

    kind = "remove"

    def payload(self) -> dict[str, Any]:
        return {"column": column_letter(self.column), "suit": self.suit}


@dataclass(frozen=True)
class CorrectionEvent:
    """A card read earlier was wrong; ``index`` counts the pile from the bottom, face-down included."""

    seq: int
    t: float
    column: int
    index: int
    was: MaybeCard
    now: MaybeCard
    after: str

    kind = "correction"

    def payload(self) -> dict[str, Any]:
        return {
            "column": column_letter(self.column),
            "index": self.index,
            "was": card_text(self.was),
            "now": card_text(self.now),
            "after": self.after,
        }


@dataclass(frozen=True)
class NoteEvent:
    """Free text; with ``undo`` it records that the move ``undo`` was taken back."""

    seq: int
    t: float
    text: str
    undo: Move | None = None
    after: str | None = None

    kind = "note"

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {"text": self.text}
        if self.undo is not None:
            data["undo"] = str(self.undo)
        if self.after is not None:
            data["after"] = self.after
        return data


Event = Union[MoveEvent, FlipEvent, RemoveEvent, CorrectionEvent, NoteEvent]


def event_to_json(event: Event) -> dict[str, Any]:
    """The event object: ``seq``, ``t``, ``kind``, then the kind's own keys."""
    return {"seq": event.seq, "t": _time(event.t), "kind": event.kind, **event.payload()}


def event_from_json(data: Any) -> Event:
    """Read one event object; refuse unknown kinds, missing keys and bad values."""
    if not isinstance(data, dict):
        raise LogFormatError("an event must be a JSON object")
    seq = _get(data, "seq", int, "event")
    what = f"event {seq}"
    if seq < 1:
        raise LogFormatError(f"{what}: 'seq' must be 1 or more")
    t = _get(data, "t", (int, float), what)
    if t < 0:
        raise LogFormatError(f"{what}: 't' must not be negative")
    kind = _get(data, "kind", str, what)
    what = f"{kind} event {seq}"
    if kind in ("move", "deal"):
        move = _move(_get(data, "move", str, what), what)
        if (str(move) == "deal") != (kind == "deal"):
            raise LogFormatError(f"{what}: kind '{kind}' does not match move '{data['move']}'")
        legal = _get(data, "legal", bool, what)
        reason = "" if legal else _get(data, "reason", str, what)
        return MoveEvent(seq, t, move, legal, _get(data, "after", str, what), reason)
    if kind == "flip":
        return FlipEvent(seq, t, _column(data, what), _card(data, "card", what))
    if kind == "remove":
        suit = _get(data, "suit", str, what)
        if suit not in ("s", "h", "d", "c"):
            raise LogFormatError(f"{what}: 'suit' '{suit}' is not one of s, h, d, c")
        return RemoveEvent(seq, t, _column(data, what), suit)
    if kind == "correction":
        index = _get(data, "index", int, what)
        if index < 0:
            raise LogFormatError(f"{what}: 'index' must not be negative")
        return CorrectionEvent(
            seq, t, _column(data, what), index, _card(data, "was", what),
            _card(data, "now", what), _get(data, "after", str, what),
        )
    if kind == "note":
        text = _get(data, "text", str, what)
        undo = _move(_get(data, "undo", str, what), what) if "undo" in data else None
        after = _get(data, "after", str, what) if "after" in data else None
        if undo is not None and after is None:
            raise LogFormatError(f"{what}: an undo note needs 'after'")
        return NoteEvent(seq, t, text, undo, after)
    raise LogFormatError(f"{what}: unknown kind '{kind}' (expected one of {', '.join(KINDS)})")


def encode_line(record: Header | Event) -> str:
    """One line of the log (without its newline)."""
    data = record.to_json() if isinstance(record, Header) else event_to_json(record)
    return json.dumps(data, ensure_ascii=False)


def decode_line(text: str, *, header: bool = False) -> Header | Event:
    """Read one line as a header or an event."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise LogFormatError(f"not JSON ({error.msg} at column {error.colno})") from None
    return Header.from_json(data) if header else event_from_json(data)
