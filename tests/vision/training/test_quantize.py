"""Int8 readers: the shipped readers are int8, a float reader quantizes to one that reads alike, and
quantizing twice changes nothing."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from spider_vision.vision.errors import ModelMissingError
from spider_vision.vision.models import DEFAULT_MODELS, Models
from spider_vision.vision.training.quantize import (
    calibration_crops, is_quantized, quantize_reader, quantize_readers,
)


def _float_reader(path: Path) -> None:
    """A small float network with the reader's input and outputs: a 3x3 convolution, pooling, three heads."""
    rng = np.random.default_rng(0)
    weights = {
        "conv_w": rng.normal(0, 0.3, (8, 3, 3, 3)).astype(np.float32), "conv_b": np.zeros(8, np.float32),
        "rank_w": rng.normal(0, 0.5, (13, 8)).astype(np.float32), "rank_b": np.zeros(13, np.float32),
        "suit_w": rng.normal(0, 0.5, (4, 8)).astype(np.float32), "suit_b": np.zeros(4, np.float32),
        "embed_w": rng.normal(0, 0.5, (64, 8)).astype(np.float32), "embed_b": np.zeros(64, np.float32),
        "scale": np.array(1 / 255, np.float32),
    }
    nodes = [
        helper.make_node("Mul", ["pixels", "scale"], ["scaled"]),
        helper.make_node("Conv", ["scaled", "conv_w", "conv_b"], ["conv"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["conv"], ["relu"]),
        helper.make_node("GlobalAveragePool", ["relu"], ["pooled"]),
        helper.make_node("Flatten", ["pooled"], ["flat"]),
    ] + [helper.make_node("Gemm", ["flat", f"{head}_w", f"{head}_b"], [name], transB=1)
         for head, name in (("rank", "rank"), ("suit", "suit"), ("embed", "embedding"))]
    graph = helper.make_graph(
        nodes, "reader", [helper.make_tensor_value_info("pixels", TensorProto.FLOAT, ["batch", 3, 40, 40])],
        [helper.make_tensor_value_info(name, TensorProto.FLOAT, ["batch", size])
         for name, size in (("rank", 13), ("suit", 4), ("embedding", 64))],
        [numpy_helper.from_array(value, name) for name, value in weights.items()])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(path))


def _run(path: Path, crops: np.ndarray) -> np.ndarray:
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    return session.run(["rank"], {"pixels": np.ascontiguousarray(crops.transpose(0, 3, 1, 2), np.float32)})[0]


@pytest.mark.parametrize(("name", "int8"), [
    ("reader.onnx", True), ("reader-2.onnx", True), ("reader-3.onnx", True),
    ("detector.onnx", False), ("counter.onnx", False), ("counter-2.onnx", False),
])
def test_the_shipped_readers_are_int8_and_the_other_models_float(name: str, int8: bool) -> None:
    assert is_quantized(DEFAULT_MODELS / name) == int8


def test_a_quantized_reader_is_int8_and_reads_as_the_float_one(tmp_path: Path) -> None:
    path = tmp_path / "reader.onnx"
    _float_reader(path)
    crops = np.random.default_rng(1).integers(0, 256, (300, 40, 40, 3), dtype=np.uint8)
    before = _run(path, crops)
    assert not is_quantized(path)
    quantize_reader(path, crops[:200])
    assert is_quantized(path)
    after = _run(path, crops[200:])
    assert after.shape == before[200:].shape
    spread = float(np.abs(before[200:]).max())
    assert float(np.abs(after - before[200:]).max()) < 0.1 * spread
    assert float(np.mean(after.argmax(axis=1) == before[200:].argmax(axis=1))) >= 0.9


def test_quantizing_int8_readers_again_changes_nothing(tmp_path: Path) -> None:
    for source in DEFAULT_MODELS.glob("*.onnx"):
        shutil.copy(source, tmp_path / source.name)
    before = {path.name: path.read_bytes() for path in tmp_path.glob("reader*.onnx")}
    assert quantize_readers(tmp_path) == {}
    assert {path.name: path.read_bytes() for path in tmp_path.glob("reader*.onnx")} == before


def test_a_folder_without_readers_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ModelMissingError, match="no reader.onnx"):
        quantize_readers(tmp_path)


def test_calibration_crops_are_the_corners_the_pipeline_reads() -> None:
    crops = calibration_crops(Models.load(), seeds=[1])
    assert crops.dtype == np.uint8 and crops.shape[1:] == (40, 40, 3)
    assert len(crops) >= 10
