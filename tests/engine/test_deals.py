"""Deal numbering: every test vector of the spec (shared/spec/deal_vectors.txt) and the layout rules."""

from __future__ import annotations

import pytest

from spider_vision.engine import NotationError, Position, SuitMode, deal_order, deal_position

# deal number, suit mode, face-up cards a..j, first stock row a..j (copied from deal_vectors.txt)
VECTORS = [
    (0, 1, "5s 3s 6s Qs As Qs Js 8s 4s 9s", "5s 6s 8s As 7s 7s 8s 6s Ts 4s"),
    (0, 2, "5s 3h 6s Qs As Qh Jh 8s 4s 9s", "5s 6h 8s Ah 7s 7h 8h 6s Th 4h"),
    (0, 4, "5d 3h 6d Qd As Qc Jh 8d 4s 9d", "5s 6h 8s Ah 7s 7h 8h 6d Tc 4c"),
    (1, 1, "2s 8s 7s 4s Js Ts 5s 5s 2s 3s", "8s 2s Js 2s 9s 2s 5s 9s 5s 7s"),
    (1, 2, "2s 8s 7s 4h Jh Th 5h 5h 2h 3h", "8s 2s Js 2h 9s 2s 5s 9h 5s 7s"),
    (1, 4, "2s 8d 7s 4c Jc Th 5c 5h 2h 3c", "8d 2d Jd 2c 9d 2s 5s 9c 5d 7s"),
    (2, 1, "As Qs 5s 3s 3s 2s 6s 8s 8s 4s", "2s Qs 9s 5s Ts 2s As 5s 3s 3s"),
    (2, 2, "As Qs 5h 3h 3s 2s 6s 8h 8s 4s", "2s Qh 9h 5h Ts 2h Ah 5h 3s 3s"),
    (2, 4, "Ad Qs 5h 3c 3s 2s 6s 8c 8s 4d", "2d Qc 9h 5h Td 2c Ah 5c 3s 3d"),
    (7, 1, "9s 3s Qs 2s As 9s 2s 5s As 5s", "Js As Ts As Ks 4s Qs 7s 6s 8s"),
    (7, 2, "9s 3s Qh 2h Ah 9s 2s 5s As 5s", "Js Ah Ts Ah Kh 4h Qh 7s 6s 8s"),
    (7, 4, "9d 3s Qc 2h Ac 9s 2s 5d Ad 5s", "Jd Ac Ts Ah Kc 4c Qc 7s 6d 8d"),
    (42, 1, "7s 4s 6s 2s 7s Ks 2s 2s Ks 2s", "9s Ks As Qs 5s Js 4s 6s 8s 3s"),
    (42, 2, "7h 4h 6h 2s 7s Ks 2h 2s Kh 2h", "9h Ks As Qh 5s Jh 4s 6h 8s 3s"),
    (42, 4, "7c 4h 6h 2d 7s Ks 2h 2s Kh 2c", "9c Kd As Qh 5s Jh 4s 6h 8s 3d"),
    (1000, 1, "8s 6s As Js 6s 3s Js 3s As 7s", "4s 4s 8s 5s Ts As 5s As 2s 9s"),
    (1000, 2, "8h 6h As Js 6h 3h Jh 3h As 7s", "4s 4s 8h 5s Ts Ah 5h Ah 2h 9h"),
    (1000, 4, "8h 6c Ad Js 6h 3c Jh 3h As 7d", "4s 4d 8c 5s Td Ah 5h Ac 2c 9c"),
    (123456789, 1, "Ts As 6s Ks Ks Js 7s Ks As Qs", "2s 7s 3s 8s 4s Ks 2s Ts Js 7s"),
    (123456789, 2, "Ts Ah 6h Ks Kh Js 7h Kh As Qh", "2h 7s 3s 8s 4h Ks 2s Th Jh 7h"),
    (123456789, 4, "Td Ac 6h Ks Kh Js 7c Kh Ad Qh", "2c 7d 3d 8d 4c Kd 2d Tc Jh 7c"),
    (4294967295, 1, "9s Qs 2s 9s 4s Ts Qs 4s 5s Ts", "9s Js Ks 6s As 7s As 4s Js 9s"),
    (4294967295, 2, "9s Qh 2h 9h 4h Ts Qh 4s 5h Ts", "9h Js Ks 6s Ah 7s Ah 4s Js 9s"),
    (4294967295, 4, "9s Qc 2h 9h 4c Td Qc 4d 5h Ts", "9c Jd Ks 6d Ac 7d Ah 4s Js 9s"),
]

# the whole of deal 1 in each suit mode, in SPN (copied from deal_vectors.txt)
DEAL_1 = {
    1: (
        "6s5sJs8s6s|2s/7sTs9s9sKs|8s/JsKsJsQs3s|7s/8sJsKs3sKs|4s/KsAs5s6s|Js/7sQs3s7s|Ts/6sTs7sAs|5s/8s4sAsAs|5s/6s3s8sAs|2s/9s4s9s6s|3s"
        " 8s2sJs2s9s2s5s9s5s7s3s6s2sAsTs4s9sQs4s4sQsQs2s9s4sQsKsTs7s6s5s5sAsTs2sKsQs3s8sQs3s8sTsKsJsTsJsAs4s7s"
        " - 1"
    ),
    2: (
        "6s5sJs8h6s|2s/7sTs9h9hKs|8s/JsKhJhQh3s|7s/8sJsKs3hKs|4h/KhAs5h6s|Jh/7hQh3h7h|Th/6hTh7hAh|5h/8s4hAsAh|5h/6s3s8hAh|2h/9s4s9s6h|3h"
        " 8s2sJs2h9s2s5s9h5s7s3s6h2hAsTs4h9sQs4s4hQhQs2s9h4sQsKhTs7s6h5h5sAhTh2hKsQh3s8hQs3h8hThKhJhTsJhAs4s7h"
        " - 2"
    ),
    4: (
        "6d5sJs8h6d|2s/7dTd9c9hKd|8d/JsKhJcQh3d|7s/8sJdKs3hKs|4c/KcAd5c6s|Jc/7hQc3c7h|Th/6cTc7cAc|5c/8s4hAsAh|5h/6s3s8cAc|2h/9s4s9s6h|3c"
        " 8d2dJd2c9d2s5s9c5d7s3s6c2cAdTd4c9dQd4s4hQcQd2d9h4dQsKcTs7d6h5h5dAhTc2hKdQh3d8cQs3h8hThKhJhTsJhAs4d7c"
        " - 4"
    ),
}


def test_the_table_holds_every_vector_of_the_spec() -> None:
    assert len(VECTORS) == 24
    assert {(number, mode) for number, mode, _, _ in VECTORS} == {
        (number, mode) for number in (0, 1, 2, 7, 42, 1000, 123456789, 2**32 - 1) for mode in (1, 2, 4)
    }


@pytest.mark.parametrize(("number", "mode", "face_up", "first_row"), VECTORS)
def test_deal_matches_its_vector(number: int, mode: int, face_up: str, first_row: str) -> None:
    position = deal_position(number, mode)
    assert " ".join(str(column.top) for column in position.columns) == face_up
    assert " ".join(str(card) for card in position.stock[:10]) == first_row


@pytest.mark.parametrize("mode", [1, 2, 4])
def test_whole_deal_1_matches_its_spn(mode: int) -> None:
    assert deal_position(1, mode).spn() == DEAL_1[mode]
    assert Position.from_spn(DEAL_1[mode]) == deal_position(1, mode)


@pytest.mark.parametrize("number", [0, 1, 7, 2**32 - 1])
def test_deal_layout_follows_the_spec(number: int) -> None:
    position = deal_position(number, SuitMode.FOUR)
    assert [len(column.down) for column in position.columns] == [5] * 4 + [4] * 6
    assert [len(column.up) for column in position.columns] == [1] * 10
    assert len(position.stock) == 50 and position.removed == ""
    assert position.is_fully_known
    assert sum(position.known_cards().values()) == 104 and position.unseen() == {}
    order = deal_order(number)
    assert sorted(order) == list(range(104))
    for k, index in enumerate(order[:54]):
        card = position.columns[k % 10].cards()[k // 10]
        assert (card.rank, card.suit) == (index % 13 + 1, "shdc"[(index // 13) % 4])
    for k, index in enumerate(order[54:]):
        assert position.stock[k].rank == index % 13 + 1


@pytest.mark.parametrize("number", [0, 42, 123456789])
def test_changing_the_suit_mode_keeps_every_rank_in_place(number: int) -> None:
    ranks = {
        mode: [card.rank for card in deal_position(number, mode).all_cards()] for mode in (1, 2, 4)
    }
    assert ranks[1] == ranks[2] == ranks[4]


@pytest.mark.parametrize("number", [-1, 2**32, 2**40])
def test_deal_numbers_outside_32_bits_are_refused(number: int) -> None:
    with pytest.raises(NotationError, match=str(number)):
        deal_position(number, 4)


@pytest.mark.parametrize("mode", [3, 0, "x"])
def test_a_suit_mode_other_than_1_2_4_is_refused_quoting_it(mode: object) -> None:
    with pytest.raises(NotationError, match=f"suit mode '{mode}' is not 1, 2 or 4"):
        deal_position(0, mode)  # type: ignore[arg-type]
