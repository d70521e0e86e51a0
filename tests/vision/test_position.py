"""The SPN of a read table: counts, stock and removed runs deduced, withheld when inconsistent."""

from __future__ import annotations

import pytest

from spider_vision.engine import Position, parse_cards
from spider_vision.vision.position import build_spn

START = "5|Ks/5|9h/5|2c/5|Qd/4|7s/4|7s/4|Ah/4|3d/4|Tc/4|2c 50 - 4"


def _columns(spn: str) -> list[tuple[int, list]]:
    position = Position.from_spn(spn)
    return [(len(column.down), list(column.up)) for column in position.columns]


def test_the_start_of_a_game_reads_as_the_camera_sees_it() -> None:
    spn, warnings = build_spn(_columns(START), 4, [])
    assert spn == START
    assert warnings == []


def test_a_card_total_no_stock_and_runs_can_make_withholds_the_position() -> None:
    columns = _columns(START)
    columns[0] = (4, parse_cards("Ks"))  # 53 cards: 104 - 53 = 51 is no multiple of ten plus whole runs
    spn, warnings = build_spn(columns, 4, [])
    assert spn is None
    assert "withheld" in warnings[-1]


@pytest.mark.parametrize("top", ["Kd", "Ad"])
def test_one_removed_run_with_its_king_or_ace_seen(top: str) -> None:
    # 41 cards on the tableau + 50 stock + 13 removed = 104; the run laid aside shows its King or its Ace.
    columns = [(4, parse_cards("Ks")), (4, parse_cards("9h")), (4, parse_cards("2c")), (4, parse_cards("Qd")),
               (3, parse_cards("7s")), (3, parse_cards("7s")), (3, parse_cards("Ah")), (3, parse_cards("3d")),
               (3, parse_cards("Tc")), (0, parse_cards("2c"))]
    spn, warnings = build_spn(columns, 4, parse_cards(top))
    assert spn is not None and spn.endswith(" 50 d 4")
    assert any("completed run" in w for w in warnings)


def test_too_many_copies_withhold_the_position() -> None:
    columns = _columns(START)
    columns[1] = (5, parse_cards("Ks"))
    columns[2] = (5, parse_cards("Ks"))
    spn, warnings = build_spn(columns, 4, [])
    assert spn is None
    assert "Ks" in warnings[-1]


def test_an_unread_face_up_card_is_unknown_in_the_position() -> None:
    columns = _columns(START)
    columns[3] = (5, [None])
    spn, warnings = build_spn(columns, 4, [])
    assert spn is not None and "5|??" in spn
    assert any("??" in w for w in warnings)


def test_a_guessed_removed_run_is_of_a_suit_with_room_for_it() -> None:
    # Hearts are seen least, but both 9h are on the tableau: no heart run can have been completed.
    columns = [(4, parse_cards("Ks")), (4, parse_cards("9h")), (4, parse_cards("2c")), (4, parse_cards("Qd")),
               (3, parse_cards("7s")), (3, parse_cards("7s")), (3, parse_cards("9h")), (3, parse_cards("3d")),
               (3, parse_cards("Tc")), (0, parse_cards("2c"))]
    spn, _ = build_spn(columns, 4, [])
    assert spn is not None and spn.endswith(" 50 d 4")
