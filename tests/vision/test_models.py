"""The ONNX wrappers: the corner readers (and the counters) found beside ``reader.onnx`` (``counter.onnx``)
are read as one ensemble."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from spider_vision.vision.models import DEFAULT_MODELS, SURE_READ, Models


class _FixedReader:
    """Stands in for an onnxruntime session: the same logits for every crop."""

    def __init__(self, rank: list[float], suit: list[float], embedding: float) -> None:
        self.outputs = (np.array(rank, np.float32), np.array(suit, np.float32), embedding)

    def run(self, _names: object, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        n = len(feeds["pixels"])
        rank, suit, embedding = self.outputs
        return [np.tile(rank, (n, 1)), np.tile(suit, (n, 1)), np.full((n, 64), embedding, np.float32)]


def _crops(n: int) -> np.ndarray:
    return np.random.default_rng(0).integers(0, 256, (n, 40, 40, 3), dtype=np.uint8)


@pytest.mark.parametrize(
    ("first", "second", "expected_rank"),
    [
        # Two readers sure of different ranks: the geometric mean is even between them.
        ([4.0] + [0.0] * 12, [0.0, 4.0] + [0.0] * 11, "tie"),
        # One sure, the other unsure: the sure one wins, less sure than alone.
        ([6.0] + [0.0] * 12, [0.0] * 13, 0),
    ],
)
def test_readers_are_averaged_in_log_probability(first: list[float], second: list[float], expected_rank: object) -> None:
    suit = [0.0, 0.0, 0.0, 0.0]
    one = Models(None, (_FixedReader(first, suit, 1.0),), ())  # type: ignore[arg-type]
    both = Models(None, (_FixedReader(first, suit, 1.0), _FixedReader(second, suit, 2.0)), ())  # type: ignore[arg-type]
    rank_one, _, _ = one.read(_crops(3))
    rank, suit_probabilities, embedding = both.read(_crops(3))
    assert rank.shape == (3, 13) and np.allclose(rank.sum(axis=1), 1.0)
    assert np.allclose(suit_probabilities, 0.25)
    assert np.all(embedding == 1.0), "the embedding is the first reader's (calibration's prototypes are of it)"
    if expected_rank == "tie":
        assert rank[0, 0] == pytest.approx(rank[0, 1])
        assert rank[0, 0] > rank[0, 2]
    else:
        assert rank[0].argmax() == expected_rank
        assert rank[0, 0] < rank_one[0, 0]


class _CountingReader(_FixedReader):
    """A fixed reader that remembers how many crops it was given."""

    def __init__(self, rank: list[float], suit: list[float], embedding: float) -> None:
        super().__init__(rank, suit, embedding)
        self.crops = 0

    def run(self, names: object, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        self.crops += len(feeds["pixels"])
        return super().run(names, feeds)


@pytest.mark.parametrize(("rank_logit", "suit_logit", "read_again"), [
    (12.0, 12.0, False),  # sure of both: the others are not asked
    (12.0, 0.5, True),  # unsure of the suit
    (0.5, 12.0, True),  # unsure of the rank
])
def test_the_other_readers_read_only_what_the_first_is_unsure_of(rank_logit: float, suit_logit: float,
                                                                  read_again: bool) -> None:
    first = _CountingReader([rank_logit] + [0.0] * 12, [suit_logit, 0.0, 0.0, 0.0], 1.0)
    second = _CountingReader([0.0, 3.0] + [0.0] * 11, [0.0, 3.0, 0.0, 0.0], 2.0)
    alone = Models(None, (_FixedReader(first.outputs[0], first.outputs[1], 1.0),), ())  # type: ignore[arg-type]
    models = Models(None, (first, second), ())  # type: ignore[arg-type]
    rank, suit, _ = models.read(_crops(5))
    rank_alone, suit_alone, _ = alone.read(_crops(5))
    assert first.crops == 5 and second.crops == (5 if read_again else 0)
    sure = rank_alone.max(axis=1).min() >= SURE_READ and suit_alone.max(axis=1).min() >= SURE_READ
    assert sure != read_again
    assert np.allclose(rank, rank_alone) != read_again and np.allclose(suit, suit_alone) != read_again


def _strips(n: int) -> np.ndarray:
    return np.random.default_rng(1).integers(0, 256, (n, 96, 32, 3), dtype=np.uint8)


@pytest.mark.parametrize(
    ("stem", "members", "outputs"),
    [
        ("reader", lambda models: models.readers, lambda models: models.read(_crops(5))),
        ("counter", lambda models: models.counters, lambda models: (models.count(_strips(5)),)),
    ],
)
def test_load_finds_the_members_beside_the_first(tmp_path: Path, stem: str, members: Callable[[Models], tuple],
                                                 outputs: Callable[[Models], tuple]) -> None:
    for name in ("detector.onnx", "reader.onnx", "counter.onnx"):
        shutil.copy(DEFAULT_MODELS / name, tmp_path / name)
    single = Models.load(tmp_path)
    shutil.copy(DEFAULT_MODELS / f"{stem}.onnx", tmp_path / f"{stem}-2.onnx")
    shutil.copy(DEFAULT_MODELS / f"{stem}.onnx", tmp_path / f"{stem}-4.onnx")  # not read: -3 is missing
    ensemble = Models.load(tmp_path)
    assert len(members(single)) == 1 and len(members(ensemble)) == 2
    for alone, together in zip(outputs(single), outputs(ensemble)):
        assert np.allclose(alone, together, atol=1e-5), "two copies of one model read as that model alone"


def test_the_shipped_reader_is_an_ensemble_of_three() -> None:
    models = Models.load(DEFAULT_MODELS)
    assert len(models.readers) == 3
    rank, suit, embedding = models.read(_crops(4))
    assert rank.shape == (4, 13) and suit.shape == (4, 4) and embedding.shape == (4, 64)
    assert np.allclose(rank.sum(axis=1), 1.0) and np.allclose(suit.sum(axis=1), 1.0)


def test_the_shipped_counter_is_an_ensemble_of_two() -> None:
    models = Models.load(DEFAULT_MODELS)
    assert len(models.counters) == 2
    counts = models.count(_strips(3))
    assert counts.shape == (3, 7) and np.allclose(counts.sum(axis=1), 1.0)
    assert models.count(np.zeros((0, 96, 32, 3), np.uint8)).shape == (0, 7)
