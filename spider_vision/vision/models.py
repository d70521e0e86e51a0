"""The ONNX models of ``models/`` behind small typed wrappers (onnxruntime on the CPU, no torch).

``Models.load(folder)`` opens the detector, the corner readers and the
face-down counters once; every call takes BGR uint8 pixels. The corner reader
and the counter are ensembles: ``reader.onnx`` and any ``reader-2.onnx``,
``reader-3.onnx`` ... beside it (``counter.onnx``, ``counter-2.onnx`` ...
likewise), trained alike from other seeds, read each crop the first reader
is not sure of, and their log-probabilities are averaged (their mistakes
differ, so the mean makes fewer; ``models/README.md``).
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import onnxruntime as ort

from spider_vision.vision.errors import ModelMissingError

__all__ = ["DEFAULT_MODELS", "Models", "counter_file", "member_paths", "reader_file"]

logger = logging.getLogger(__name__)

DEFAULT_MODELS = Path(__file__).resolve().parents[2] / "models"
"""``models/`` at the repository root; ``SPIDER_VISION_MODELS`` overrides it."""
SURE_READ = 0.9
"""A crop the first reader reads with at least this chance of its rank and of its suit is not read by
the other readers: they only change reads the first is unsure of. On 100 + 100 held-out tables
(``bench/vision.py``) no figure changed, on the next 100 + 100 (``--first 200``) the held-out seeds
read a few cards more right (93.6% against 93.4%, one more table exact), and a 1920x1080 frame took
150 and 154 ms against 186 and 199 ms with every crop read three times (alternated, 4 December)."""


def _session(path: Path, threads: int) -> ort.InferenceSession:
    if not path.is_file():
        raise ModelMissingError(f"model file '{path}' is missing; train with: python3 -m spider_vision.vision.training")
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


def _log_softmax(logits: np.ndarray) -> np.ndarray:
    shifted = logits - logits.max(axis=-1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))


def _softmax(logits: np.ndarray) -> np.ndarray:
    return np.exp(_log_softmax(logits))


def _geometric_mean(logits: list[np.ndarray]) -> np.ndarray:
    """The ensemble's probabilities: its members' mean log-probability, normalised."""
    return _softmax(np.mean([_log_softmax(member) for member in logits], axis=0))


def _member_file(stem: str, number: int) -> str:
    return f"{stem}.onnx" if number == 1 else f"{stem}-{number}.onnx"


def reader_file(number: int) -> str:
    """The file name of the ensemble's ``number``-th reader (from 1): ``reader.onnx``, ``reader-2.onnx``, ..."""
    return _member_file("reader", number)


def counter_file(number: int) -> str:
    """The file name of the ensemble's ``number``-th counter (from 1): ``counter.onnx``, ``counter-2.onnx``, ..."""
    return _member_file("counter", number)


def member_paths(folder: Path, stem: str) -> list[Path]:
    """``<stem>.onnx`` first (deck calibration keeps prototypes of the first reader's embedding; it is
    listed even when missing, so that loading says so), then ``<stem>-2.onnx``, ... up to the first
    number missing."""
    paths = [folder / _member_file(stem, 1)]
    while (folder / _member_file(stem, len(paths) + 1)).is_file():
        paths.append(folder / _member_file(stem, len(paths) + 1))
    return paths


@dataclass
class Models:
    detector: ort.InferenceSession
    readers: tuple[ort.InferenceSession, ...]
    counters: tuple[ort.InferenceSession, ...]

    @classmethod
    def load(cls, folder: str | Path | None = None, threads: int | None = None) -> Models:
        folder = Path(folder or os.environ.get("SPIDER_VISION_MODELS") or DEFAULT_MODELS)
        threads = threads if threads is not None else int(os.environ.get("SPIDER_VISION_THREADS", "1"))
        readers = tuple(_session(path, threads) for path in member_paths(folder, "reader"))
        counters = tuple(_session(path, threads) for path in member_paths(folder, "counter"))
        return cls(_session(folder / "detector.onnx", threads), readers, counters)

    @classmethod
    def detector_only(cls, folder: str | Path, threads: int = 1) -> Models:
        """Just the detector (training cuts crops with it before the other models exist)."""
        return cls(_session(Path(folder) / "detector.onnx", threads), (), ())

    def detect(self, image: np.ndarray) -> np.ndarray:
        """Detector maps (channels, rows, cols) of a BGR picture already scaled for detection."""
        pixels = np.ascontiguousarray(image.transpose(2, 0, 1)[None], np.float32)
        return self.detector.run(None, {"pixels": pixels})[0][0]

    def read(self, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Rank (n, 13) and suit (n, 4) probabilities and embeddings (n, 64) of corner crops (n, 40, 40, 3).

        The probabilities are the readers' geometric mean (their mean
        log-probability, normalised), or the first reader's alone where it
        is ``SURE_READ`` sure of both rank and suit; the embedding is the
        first reader's.
        """
        if not len(crops):
            return np.zeros((0, 13)), np.zeros((0, 4)), np.zeros((0, 64))
        pixels = np.ascontiguousarray(crops.transpose(0, 3, 1, 2), np.float32)
        first = self.readers[0].run(None, {"pixels": pixels})
        rank, suit = _softmax(first[0]), _softmax(first[1])
        doubt = np.flatnonzero((rank.max(axis=1) < SURE_READ) | (suit.max(axis=1) < SURE_READ))
        if len(doubt) and len(self.readers) > 1:
            outputs = [(first[0][doubt], first[1][doubt])]
            outputs += [tuple(reader.run(None, {"pixels": pixels[doubt]})[:2]) for reader in self.readers[1:]]
            rank[doubt] = _geometric_mean([output[0] for output in outputs])
            suit[doubt] = _geometric_mean([output[1] for output in outputs])
        return rank, suit, first[2]

    def count(self, strips: np.ndarray) -> np.ndarray:
        """Probabilities (n, 7) of 0..6 face-down cards in strips (n, 96, 32, 3): the counters' geometric mean."""
        if not len(strips):
            return np.zeros((0, 7))
        pixels = np.ascontiguousarray(strips.transpose(0, 3, 1, 2), np.float32)
        return _geometric_mean([counter.run(None, {"pixels": pixels})[0] for counter in self.counters])
