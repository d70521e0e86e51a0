"""Int8 corner readers: the exported readers quantized, calibrated on crops of training renders.

Why: after the detector the readers are the largest share of a frame's network time, and int8
arithmetic (per-channel int8 weights, uint8 activations, in onnxruntime's QDQ format) reads the
same crops about twice as fast on this machine's CPU, with the same reads on the held-out tables
(``models/README.md``, "Int8 readers"). The detector and the counters stay in float: int8 lost the
detector exact positions and made the counters no faster.

Static quantization needs the range of every activation: it is measured on the corner crops the
pipeline cuts from rendered tables of training seeds (never held-out ones), read by the float
readers. Needs ``onnx`` (the ``[train]`` extra); onnxruntime does the rest. No torch.
"""

from __future__ import annotations

import logging
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from spider_vision.vision.errors import ModelMissingError, VisionError
from spider_vision.vision.geometry import CORNER_CROP
from spider_vision.vision.models import Models, member_paths, reader_file
from spider_vision.vision.pipeline import read_table
from spider_vision.vision.training.dataset import TRAIN_SEEDS, render_seed

__all__ = ["CALIBRATION_SEEDS", "calibration_crops", "is_quantized", "quantize_reader", "quantize_readers"]

logger = logging.getLogger(__name__)

CALIBRATION_SEEDS = range(TRAIN_SEEDS[0].start, TRAIN_SEEDS[0].start + 60)
"""Training tables whose corner crops set the activation ranges (1,541 crops with the shipped models)."""
CALIBRATION_SIZES = ((1280, 720), (1920, 1080))
"""Picture sizes, taken in turn, so that the crops come from near and far cards alike."""
BATCH = 256
"""Crops per calibration batch."""


@dataclass
class _RecordingModels(Models):
    """The models as they are, keeping every batch of corner crops given to the readers."""

    crops: list[np.ndarray] = field(default_factory=list)

    def read(self, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if len(crops):
            self.crops.append(crops.copy())
        return super().read(crops)


def calibration_crops(models: Models, seeds: Sequence[int] = CALIBRATION_SEEDS) -> np.ndarray:
    """The corner crops (n, height, width, 3 by ``CORNER_CROP``) that reading the tables ``seeds`` gives the readers."""
    recording = _RecordingModels(models.detector, models.readers, models.counters)
    for k, seed in enumerate(seeds):
        width, height = CALIBRATION_SIZES[k % len(CALIBRATION_SIZES)]
        rendering = render_seed(seed, width=width, height=height)
        try:
            read_table(rendering.image, recording, suits=rendering.suits)
        except VisionError:
            continue
    if not recording.crops:
        return np.zeros((0, CORNER_CROP[1], CORNER_CROP[0], 3), np.uint8)
    return np.concatenate(recording.crops)


def is_quantized(path: Path) -> bool:
    """Whether the ONNX file at ``path`` already holds int8 (QDQ) arithmetic."""
    import onnx

    graph = onnx.load(str(path)).graph
    return any(node.op_type in ("QuantizeLinear", "DequantizeLinear") for node in graph.node)


def quantize_reader(path: Path, crops: np.ndarray) -> None:
    """Replace the float reader at ``path`` by its int8 version, activation ranges from ``crops``."""
    from onnxruntime.quantization import (
        CalibrationDataReader, CalibrationMethod, QuantFormat, QuantType, quantize_static,
    )

    pixels = np.ascontiguousarray(crops.transpose(0, 3, 1, 2), np.float32)

    class _Batches(CalibrationDataReader):
        def __init__(self) -> None:
            self._batches: Iterator[np.ndarray] = (pixels[k:k + BATCH] for k in range(0, len(pixels), BATCH))

        def get_next(self) -> dict[str, np.ndarray] | None:
            batch = next(self._batches, None)
            return None if batch is None else {"pixels": batch}

    with tempfile.TemporaryDirectory() as scratch:
        target = Path(scratch) / path.name
        quantize_static(str(path), str(target), _Batches(), quant_format=QuantFormat.QDQ, per_channel=True,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                        calibrate_method=CalibrationMethod.MinMax)
        shutil.move(str(target), str(path))


def quantize_readers(folder: Path, seeds: Sequence[int] = CALIBRATION_SEEDS) -> dict[str, object]:
    """Quantize every float reader in ``folder`` (``reader.onnx``, ``reader-2.onnx``, ...) in place; the
    ``training.json`` fields that say how. Readers already int8 are left alone, so running it twice
    changes nothing."""
    paths = [path for path in member_paths(folder, "reader") if path.is_file()]
    if not paths:
        raise ModelMissingError(f"no {reader_file(1)} in '{folder}' to quantize")
    floats = [path for path in paths if not is_quantized(path)]
    if not floats:
        return {}
    crops = calibration_crops(Models.load(folder), seeds)
    if not len(crops):
        raise VisionError("no corner crops to calibrate the int8 readers with: no card was found")
    for path in floats:
        quantize_reader(path, crops)
        logger.info("wrote int8 %s (%d bytes), calibrated on %d crops", path.name, path.stat().st_size, len(crops))
    return {"reader_int8": {"calibration_seeds": [seeds[0], seeds[-1] + 1], "calibration_crops": int(len(crops)),
                            "format": "QDQ, per-channel int8 weights, uint8 activations, MinMax ranges"}}
