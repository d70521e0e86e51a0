"""The game log: JSON Lines records of a game as it was played, written, read and replayed.

I/O lives here (the engine has none): ``LogWriter`` appends events as they
happen, ``read_log`` reads a file keeping everything before a damaged line,
``replay`` checks a log against the engine.
"""

from __future__ import annotations

from spider_vision.gamelog.events import (
    FORMAT,
    SOURCES,
    VERSION,
    CorrectionEvent,
    Event,
    FlipEvent,
    Header,
    LogFormatError,
    MoveEvent,
    NoteEvent,
    RemoveEvent,
    decode_line,
    encode_line,
    event_from_json,
    event_to_json,
)
from spider_vision.gamelog.reader import GameLog, LogDamage, LoggedEvent, parse_log, read_log
from spider_vision.gamelog.replay import (
    Mismatch,
    Replay,
    ReplayedEvent,
    describe,
    replay,
    replay_events,
    spn_difference,
)
from spider_vision.gamelog.writer import LogWriter, events_from_step, now_iso

__all__ = [
    "FORMAT", "SOURCES", "VERSION",
    "CorrectionEvent", "Event", "FlipEvent", "GameLog", "Header", "LogDamage", "LogFormatError",
    "LogWriter", "LoggedEvent", "Mismatch", "MoveEvent", "NoteEvent", "RemoveEvent", "Replay",
    "ReplayedEvent",
    "decode_line", "describe", "encode_line", "event_from_json", "event_to_json",
    "events_from_step", "now_iso", "parse_log", "read_log", "replay", "replay_events",
    "spn_difference",
]
