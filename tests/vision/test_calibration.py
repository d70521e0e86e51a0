"""Deck calibration: prototypes from known cards, a file round trip, and their effect on beliefs."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from spider_vision.engine import parse_card, parse_cards
from spider_vision.vision.calibration import Calibration, CalibrationError
from spider_vision.vision.reading import class_index


def _examples() -> tuple[np.ndarray, list]:
    rng = np.random.default_rng(0)
    directions = rng.normal(size=(3, 64))
    cards = list(parse_cards("AhKh7h"))
    embeddings = np.concatenate([directions[k] + 0.05 * rng.normal(size=(2, 64)) for k in range(3)])
    return embeddings, [card for card in cards for _ in range(2)]


def test_round_trip_through_a_file(tmp_path: Path) -> None:
    embeddings, cards = _examples()
    calibration = Calibration.from_examples(embeddings, cards)
    calibration.save(tmp_path / "deck.npz")
    loaded = Calibration.load(tmp_path / "deck.npz")
    assert list(loaded.classes) == sorted(class_index(card) for card in parse_cards("AhKh7h"))
    np.testing.assert_allclose(loaded.prototypes, calibration.prototypes, rtol=1e-6)


@pytest.mark.parametrize(
    ("rival", "rival_belief", "read_as"),
    [
        ("Kh", 0.55, "Ah"),  # between two classes the photo showed, the crop's look decides
        ("4h", 0.55, "4h"),  # a class the photo did not show may be what the crop is: the reader decides
        ("4d", 0.9, "4d"),  # so a sure read of one is not pulled to the shown class the crop resembles
    ],
)
def test_a_crop_like_a_prototype_moves_only_between_classes_shown(
    rival: str, rival_belief: float, read_as: str
) -> None:
    embeddings, cards = _examples()
    calibration = Calibration.from_examples(embeddings, cards)
    # The reader hesitates between the rival and Ah; the crop's embedding is an Ah example's.
    belief = np.full((1, 52), 1e-4)
    belief[0, class_index(parse_card(rival))] = rival_belief
    belief[0, class_index(parse_card("Ah"))] = 1 - rival_belief
    adjusted = calibration.adjust(belief / belief.sum(), embeddings[:1])
    assert adjusted[0].argmax() == class_index(parse_card(read_as))
    assert adjusted.sum() == pytest.approx(1.0)


def test_named_cards_must_match_the_crops() -> None:
    embeddings, cards = _examples()
    with pytest.raises(CalibrationError, match="cards named"):
        Calibration.from_examples(embeddings, cards[:-1])


def test_a_file_that_is_not_a_calibration_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "deck.npz"
    path.write_text("not numpy")
    with pytest.raises(CalibrationError, match="cannot read"):
        Calibration.load(path)
