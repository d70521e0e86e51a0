"""Header and event records: their exact JSON form, round trips, and refusals."""

from __future__ import annotations

import json

import pytest

from spider_vision.engine import Deal, Position, Removal, SuitMode, TableauMove, Variant, deal_position, parse_card
from spider_vision.gamelog import (
    CorrectionEvent,
    FlipEvent,
    Header,
    LogFormatError,
    MoveEvent,
    NoteEvent,
    RemoveEvent,
    decode_line,
    encode_line,
)

START = deal_position(5, SuitMode.FOUR)
AFTER = START.spn()

EVENTS = [
    (MoveEvent(1, 0.25, TableauMove(4, 3, 3), True, AFTER),
     {"seq": 1, "t": 0.25, "kind": "move", "move": "ed3", "legal": True, "after": AFTER}),
    (MoveEvent(2, 1.0, TableauMove(2, 0, 2), False, AFTER, "illegal group move: x"),
     {"seq": 2, "t": 1, "kind": "move", "move": "ca2", "legal": False,
      "reason": "illegal group move: x", "after": AFTER}),
    (MoveEvent(3, 2.5, Deal(), True, AFTER),
     {"seq": 3, "t": 2.5, "kind": "deal", "move": "deal", "legal": True, "after": AFTER}),
    (MoveEvent(4, 3.0, Removal(3), True, AFTER),
     {"seq": 4, "t": 3, "kind": "move", "move": "xd", "legal": True, "after": AFTER}),
    (FlipEvent(5, 3.5, 4, parse_card("7h")),
     {"seq": 5, "t": 3.5, "kind": "flip", "column": "e", "card": "7h"}),
    (FlipEvent(6, 3.5, 9, None),
     {"seq": 6, "t": 3.5, "kind": "flip", "column": "j", "card": "??"}),
    (RemoveEvent(7, 4.125, 3, "s"),
     {"seq": 7, "t": 4.125, "kind": "remove", "column": "d", "suit": "s"}),
    (CorrectionEvent(8, 5.0, 1, 4, parse_card("8c"), parse_card("8s"), AFTER),
     {"seq": 8, "t": 5, "kind": "correction", "column": "b", "index": 4, "was": "8c",
      "now": "8s", "after": AFTER}),
    (NoteEvent(9, 6.0, "lighting changed"),
     {"seq": 9, "t": 6, "kind": "note", "text": "lighting changed"}),
    (NoteEvent(10, 7.0, "undo ed3", TableauMove(4, 3, 3), AFTER),
     {"seq": 10, "t": 7, "kind": "note", "text": "undo ed3", "undo": "ed3", "after": AFTER}),
]


@pytest.mark.parametrize(("event", "expected"), EVENTS)
def test_event_json_is_exactly_the_spec_form(event, expected) -> None:
    line = encode_line(event)
    assert json.loads(line) == expected
    assert list(json.loads(line))[:3] == ["seq", "t", "kind"]
    assert decode_line(line) == event


@pytest.mark.parametrize(
    ("t", "written"), [(0.0, 0), (1.23456, 1.235), (2.0004, 2), (12.5, 12.5), (3, 3)]
)
def test_t_is_rounded_to_the_millisecond(t, written) -> None:
    data = json.loads(encode_line(NoteEvent(1, t, "x")))
    assert data["t"] == written
    assert type(data["t"]) is type(written)


@pytest.mark.parametrize(
    ("start", "variant", "deal", "source"),
    [
        (START, Variant(), 5, "deal"),
        (START.observed(), Variant(manual_removal=True), None, "camera"),
        (deal_position(0, SuitMode.ONE), Variant(deal_with_empty_columns=True), 0, "manual"),
    ],
)
def test_header_round_trip(start: Position, variant: Variant, deal, source: str) -> None:
    header = Header(start, variant, deal, source, "2026-11-29T21:00:00+00:00")
    data = json.loads(encode_line(header))
    assert data == {
        "format": "spider-log", "version": 1, "suits": int(start.mode),
        "variant": variant.to_json(), "deal": deal, "start": start.spn(), "source": source,
        "started": "2026-11-29T21:00:00+00:00",
    }
    assert decode_line(encode_line(header), header=True) == header


GOOD_HEADER = {
    "format": "spider-log", "version": 1, "suits": 4, "variant": {}, "deal": None,
    "start": START.spn(), "source": "camera", "started": "2026-11-29T21:00:00Z",
}


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"format": "other"}, "not a spider-log"),
        ({"version": 2}, "version 2"),
        ({"suits": 2}, "'suits' is 2"),
        ({"start": "nonsense"}, "'start'"),
        ({"source": "phone"}, "'source'"),
        ({"started": "yesterday"}, "ISO 8601"),
        ({"deal": "five"}, "'deal'"),
        ({"deal": True}, "'deal'"),
        ({"variant": []}, "'variant'"),
    ],
)
def test_bad_headers_are_refused(change, words) -> None:
    with pytest.raises(LogFormatError, match=words):
        decode_line(json.dumps({**GOOD_HEADER, **change}), header=True)


def test_header_without_deal_key_is_refused() -> None:
    data = dict(GOOD_HEADER)
    del data["deal"]
    with pytest.raises(LogFormatError, match="'deal'"):
        decode_line(json.dumps(data), header=True)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('{"seq": 1, "t": 0, "kind": "move", "move": "ed", "legal": true}', "'after'"),
        ('{"seq": 1, "t": 0, "kind": "move", "move": "ed", "legal": false, "after": "x"}', "'reason'"),
        ('{"seq": 1, "t": 0, "kind": "move", "move": "deal", "legal": true, "after": "x"}', "does not match"),
        ('{"seq": 1, "t": 0, "kind": "deal", "move": "ed", "legal": true, "after": "x"}', "does not match"),
        ('{"seq": 1, "t": 0, "kind": "move", "move": "zz", "legal": true, "after": "x"}', "not a move"),
        ('{"seq": 1, "t": 0, "kind": "move", "move": "ed", "legal": "yes", "after": "x"}', "'legal'"),
        ('{"seq": 1, "t": 0, "kind": "flip", "column": "k", "card": "7h"}', "columns are a to j"),
        ('{"seq": 1, "t": 0, "kind": "flip", "column": "e", "card": "7x"}', "'7x'"),
        ('{"seq": 1, "t": 0, "kind": "remove", "column": "e", "suit": "x"}', "'suit'"),
        ('{"seq": 1, "t": 0, "kind": "correction", "column": "e", "index": -1, "was": "7h", "now": "7s", "after": "x"}', "'index'"),
        ('{"seq": 1, "t": 0, "kind": "note", "text": "u", "undo": "ed"}', "needs 'after'"),
        ('{"seq": 1, "t": 0, "kind": "jump"}', "unknown kind 'jump'"),
        ('{"seq": 0, "t": 0, "kind": "note", "text": ""}', "'seq'"),
        ('{"seq": true, "t": 0, "kind": "note", "text": ""}', "'seq'"),
        ('{"seq": 1, "t": -1, "kind": "note", "text": ""}', "'t'"),
        ('{"t": 0, "kind": "note", "text": ""}', "no 'seq'"),
        ('[1, 2]', "JSON object"),
        ('{"seq": 1, "t": 0, "kind": "no', "not JSON"),
    ],
)
def test_bad_events_are_refused(text: str, words: str) -> None:
    with pytest.raises(LogFormatError, match=words):
        decode_line(text)
