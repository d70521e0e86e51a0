"""Train the detector, the corner reader and the face-down counter; export them to ONNX.

    python3 -m spider_vision.vision.training --data data/vision --out models

generates the rendered training data first when ``--data`` holds none (the
seeds are fixed, so the data are the same each time), trains on one CPU
thread with fixed seeds and step counts, prints held-out figures and writes
``detector.onnx``, ``reader.onnx``, ``reader-2.onnx`` and ``reader-3.onnx``
(the corner reader is an ensemble of readers trained alike from other seeds),
``counter.onnx`` and ``counter-2.onnx`` (the face-down counter likewise) and
``training.json``. The readers are then quantized to int8 (``quantize.py``); ``--only quantize``
does that step alone, to the float readers in ``--out``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import sys
import time
from pathlib import Path
from typing import Callable, Iterator, TypeVar, cast

import cv2
import numpy as np
import torch
from torch import nn

from spider_vision.vision.training.augment import low_resolution, photometric
from spider_vision.vision.errors import VisionError
from spider_vision.vision.geometry import CORNER_CROP, STRIP_CROP
from spider_vision.vision.models import Models, counter_file, reader_file
from spider_vision.vision.training.dataset import (
    FONT_SEEDS, SHARD, SHARD_KEYS, STYLE_SEEDS, TRAIN_SEEDS, VALID_SEEDS, generate, generate_detected, load_arrays,
)
from spider_vision.vision.training.nets import DETECTOR_STRIDE, REGRESSION_SCALE, Counter, Detector, Reader
from spider_vision.vision.training.quantize import quantize_readers

__all__ = ["main"]

logger = logging.getLogger(__name__)

READER_SEEDS = (1, 3, 5)
"""Offsets from ``--seed`` of the ensemble's readers, written as ``reader.onnx``, ``reader-2.onnx``,
``reader-3.onnx``. Each reader alone reads 95.7-95.9% of the held-out crops right, the three
together 96.2% (``models/README.md``)."""

COUNTER_SEEDS = (2, 4)
"""Offsets from ``--seed`` of the ensemble's face-down counters, written as ``counter.onnx``,
``counter-2.onnx``."""


def load(paths: list[Path]) -> dict[str, list]:
    """Every array of the shards as lists of items (training extends them with the detector's crops)."""
    return {key: list(array) for key, array in zip(SHARD_KEYS, load_arrays(paths, *SHARD_KEYS))}


# --- detector ------------------------------------------------------------------

def detector_sample(image: np.ndarray, keypoints: np.ndarray, rng: np.random.Generator,
                    crop: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    scale = float(np.exp(rng.uniform(-0.35, 0.3)))
    image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    kp = keypoints.astype(np.float32) * scale
    h, w = image.shape[:2]
    if h < crop or w < crop:
        image = cv2.copyMakeBorder(image, 0, max(0, crop - h), 0, max(0, crop - w), cv2.BORDER_REFLECT)
        h, w = image.shape[:2]
    # Crops centred on cards more often than not: empty table is easy.
    if len(kp) and rng.random() < 0.8:
        cx, cy = kp[rng.integers(len(kp)), :2]
        x0 = int(np.clip(cx - rng.uniform(0.1, 0.9) * crop, 0, w - crop))
        y0 = int(np.clip(cy - rng.uniform(0.1, 0.9) * crop, 0, h - crop))
    else:
        x0, y0 = int(rng.integers(0, w - crop + 1)), int(rng.integers(0, h - crop + 1))
    patch = photometric(image[y0:y0 + crop, x0:x0 + crop], rng)
    kp = kp.copy()
    kp[:, [0, 2]] -= x0
    kp[:, [1, 3]] -= y0
    cells = crop // DETECTOR_STRIDE
    heat = np.zeros((cells, cells), np.float32)
    reg = np.zeros((10, cells, cells), np.float32)
    mask = np.zeros((cells, cells), np.float32)
    ys, xs = np.mgrid[0:cells, 0:cells]
    for row in kp:
        gx, gy = row[0] / DETECTOR_STRIDE, row[1] / DETECTOR_STRIDE
        if not (0 <= gx < cells and 0 <= gy < cells):
            continue
        ix, iy = int(gx), int(gy)
        g = np.exp(-((xs - ix) ** 2 + (ys - iy) ** 2) / (2 * 0.8 ** 2))
        heat = np.maximum(heat, g)
        for j in range(max(iy - 1, 0), min(iy + 2, cells)):
            for i in range(max(ix - 1, 0), min(ix + 2, cells)):
                px, py = DETECTOR_STRIDE * i + 2, DETECTOR_STRIDE * j + 2
                reg[:, j, i] = np.array([row[0] - px, row[1] - py, row[2] - px, row[3] - py, *row[4:10]]) / REGRESSION_SCALE
                mask[j, i] = 1.0 if (i, j) == (ix, iy) else max(mask[j, i], 0.5)
    return patch, heat, reg, mask


def focal_loss(logits: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    p = torch.sigmoid(logits).clamp(1e-4, 1 - 1e-4)
    positive = target.eq(1).float()
    pos = -torch.log(p) * (1 - p) ** 2 * positive
    neg = -torch.log(1 - p) * p ** 2 * (1 - target) ** 4 * (1 - positive)
    return (pos.sum() + neg.sum()) / positive.sum().clamp(min=1)


def train_detector(data: dict[str, list], steps: int, rng: np.random.Generator, batch: int = 12,
                   crop: int = 224) -> Detector:
    net = Detector()
    optimiser = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, 3e-3, total_steps=steps, pct_start=0.1)
    images = data["images"]
    started = time.time()
    net.train()
    for step in range(steps):
        chosen = rng.integers(0, len(images), batch)
        samples = [detector_sample(_decoded(images[k]), data["keypoints"][k], rng, crop) for k in chosen]
        x = torch.from_numpy(np.stack([s[0] for s in samples]).transpose(0, 3, 1, 2).astype(np.float32))
        heat = torch.from_numpy(np.stack([s[1] for s in samples]))
        reg = torch.from_numpy(np.stack([s[2] for s in samples]))
        mask = torch.from_numpy(np.stack([s[3] for s in samples]))
        out = net(x)
        loss_heat = focal_loss(out[:, 0], heat)
        loss_reg = (nn.functional.smooth_l1_loss(out[:, 1:], reg, reduction="none", beta=0.05).sum(1) * mask).sum() \
            / mask.sum().clamp(min=1)
        loss = loss_heat + 2.0 * loss_reg
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        schedule.step()
        if step % 100 == 0 or step == steps - 1:
            logger.info("detector step %d/%d heat %.3f reg %.3f (%.0f s)", step, steps, loss_heat.item(),
                        loss_reg.item(), time.time() - started)
    return net.eval()


# --- reader and counter ----------------------------------------------------------

PARTIAL_INDEX = 0.9
"""A corner index less visible than this is half covered: the reader sees such crops twice per epoch."""


def _batches(repeats: np.ndarray, batch: int, rng: np.random.Generator) -> Iterator[np.ndarray]:
    """Batches of crop numbers; crop ``k`` comes ``repeats[k]`` times per epoch."""
    pool = np.repeat(np.arange(len(repeats)), repeats)
    while True:
        order = pool[rng.permutation(len(pool))]
        for start in range(0, len(pool) - batch + 1, batch):
            yield order[start:start + batch]


def _tensor(crops: list[np.ndarray]) -> torch.Tensor:
    return torch.from_numpy(np.stack(crops).transpose(0, 3, 1, 2).astype(np.float32))


Net = TypeVar("Net", bound=nn.Module)


def _train_classifier(net: Net, crops: list[np.ndarray], labels: np.ndarray,
                      loss_of: Callable[[object, np.ndarray], torch.Tensor], steps: int,
                      rng: np.random.Generator, batch: int, name: str,
                      repeats: np.ndarray | None = None,
                      degrade: Callable[[np.ndarray, np.random.Generator], np.ndarray] | None = None) -> Net:
    """The loop the reader and the counter share: AdamW, one-cycle rate, photometric augmentation per crop.

    ``repeats`` says how often each crop comes per epoch (once each by default); ``degrade``, when
    given, changes each crop before the photometric augmentation.
    """
    optimiser = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=5e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, 3e-3, total_steps=steps, pct_start=0.1)
    started = time.time()
    net.train()
    repeats = np.ones(len(crops), np.int64) if repeats is None else repeats
    for step, chosen in zip(range(steps), _batches(repeats, batch, rng)):
        x = _tensor([photometric(degrade(crops[k], rng) if degrade else crops[k], rng) for k in chosen])
        loss = loss_of(net(x), labels[chosen])
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        schedule.step()
        if step % 200 == 0 or step == steps - 1:
            logger.info("%s step %d/%d loss %.3f (%.0f s)", name, step, steps, loss.item(), time.time() - started)
    net.eval()
    return net


def _decoded(encoded: bytes) -> np.ndarray:
    """A training picture from its stored JPEG bytes."""
    image = cv2.imdecode(np.frombuffer(encoded, np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise ValueError("a stored training picture cannot be decoded; render the data again")
    return image


def _reader_loss(outputs: object, labels: np.ndarray) -> torch.Tensor:
    rank_logits, suit_logits, _ = cast("tuple[torch.Tensor, torch.Tensor, torch.Tensor]", outputs)
    rank = torch.from_numpy(labels[:, 0].astype(np.int64))
    suit = torch.from_numpy(labels[:, 1].astype(np.int64))
    return nn.functional.cross_entropy(rank_logits, rank, label_smoothing=0.05) \
        + nn.functional.cross_entropy(suit_logits, suit, label_smoothing=0.05)


def _counter_loss(outputs: object, labels: np.ndarray) -> torch.Tensor:
    return nn.functional.cross_entropy(cast(torch.Tensor, outputs), torch.from_numpy(labels))


def train_reader(data: dict[str, list], steps: int, rng: np.random.Generator, batch: int = 128) -> Reader:
    """The reader; half-covered indices, most of its errors (the suit pip is often hidden), come twice,
    and some crops come at a lower resolution (``low_resolution``: small cards)."""
    labels = np.array(data["index_labels"])
    repeats = np.where(labels[:, 2] < PARTIAL_INDEX, 2, 1)
    return _train_classifier(Reader(), data["index_crops"], labels, _reader_loss, steps, rng, batch, "reader",
                             repeats, low_resolution)


def train_counter(data: dict[str, list], steps: int, rng: np.random.Generator, batch: int = 128) -> Counter:
    return _train_classifier(Counter(), data["strip_crops"], np.array(data["strip_labels"]), _counter_loss,
                             steps, rng, batch, "counter")


@torch.no_grad()
def reader_accuracy(readers: list[Reader], data: dict[str, list]) -> dict[str, float]:
    """Accuracy of the ensemble (mean log-probabilities, as at run time) on held-out corner crops
    (true frames, jittered): card (rank and suit), rank, suit."""
    labels = np.array(data["index_labels"])
    rank_hits = suit_hits = both = 0
    for start in range(0, len(labels), 512):
        outputs = [reader(_tensor(data["index_crops"][start:start + 512])) for reader in readers]
        r = torch.stack([torch.log_softmax(output[0], 1) for output in outputs]).mean(0)
        s = torch.stack([torch.log_softmax(output[1], 1) for output in outputs]).mean(0)
        r_ok = r.argmax(1).numpy() == labels[start:start + 512, 0]
        s_ok = s.argmax(1).numpy() == labels[start:start + 512, 1]
        rank_hits += int(r_ok.sum())
        suit_hits += int(s_ok.sum())
        both += int((r_ok & s_ok).sum())
    n = max(len(labels), 1)
    return {"card": both / n, "rank": rank_hits / n, "suit": suit_hits / n, "crops": len(labels)}


@torch.no_grad()
def counter_accuracy(counters: list[Counter], data: dict[str, list]) -> dict[str, float]:
    """Accuracy of the ensemble (mean log-probabilities, as at run time) on held-out face-down strips
    (true frames, jittered)."""
    strips = np.array(data["strip_labels"])
    hits = 0
    for start in range(0, len(strips), 512):
        x = _tensor(data["strip_crops"][start:start + 512])
        counts = torch.stack([torch.log_softmax(counter(x), 1) for counter in counters]).mean(0)
        hits += int((counts.argmax(1).numpy() == strips[start:start + 512]).sum())
    return {"down_count": hits / max(len(strips), 1), "strips": len(strips)}


def export(net: nn.Module, example: torch.Tensor, path: Path, outputs: list[str], dynamic: dict) -> None:
    torch.onnx.export(net, (example,), str(path), input_names=["pixels"], output_names=outputs,
                      dynamic_axes=dynamic, opset_version=17, external_data=False, dynamo=False)


def _train_ensemble(name: str, offsets: tuple[int, ...], train_one: Callable[[np.random.Generator], nn.Module],
                    file_name: Callable[[int], str], example: torch.Tensor, outputs: list[str],
                    accuracy: Callable[[list, dict[str, list]], dict[str, float]], args: argparse.Namespace,
                    held_out: tuple[dict[str, list], dict[str, list]]) -> dict[str, object]:
    """Train one member per seed offset, export each as ``file_name(k)`` and measure the ensemble and
    each member on the held-out shards; the ``training.json`` fields of that stage."""
    members = []
    for number, offset in enumerate(offsets, 1):
        torch.manual_seed(args.seed + offset)
        members.append(train_one(np.random.default_rng(args.seed + offset)))
        export(members[-1], example, args.out / file_name(number), outputs,
               {"pixels": {0: "batch"}, **{output: {0: "batch"} for output in outputs}})
    # Models.load reads <name>-2, <name>-3, ... up to the first missing one: an older, larger
    # ensemble's next file would join this one.
    (args.out / file_name(len(offsets) + 1)).unlink(missing_ok=True)
    valid, style = held_out
    each = [{"valid_seeds": accuracy([member], valid), "held_out_style": accuracy([member], style)}
            for member in members]
    figures = {"valid_seeds": accuracy(members, valid), "held_out_style": accuracy(members, style)}
    logger.info("held-out %s accuracy: %s (each %s alone: %s)", name, json.dumps(figures), name, json.dumps(each))
    return {f"{name}_seeds": [args.seed + offset for offset in offsets], f"{name}_accuracy": figures,
            f"{name}_accuracy_each": each}


def _every_training_range(shards_of: Callable[[range, bool], list[Path]]) -> list[Path]:
    """The shards of every training seed range, plain styles first, then the extra fonts.

    ``shards_of(seeds, extra_fonts)`` makes (or finds) one range's shards, so pictures and
    detector-cut crops walk the ranges in the same order.
    """
    return [path for extra_fonts, ranges in ((False, TRAIN_SEEDS), (True, FONT_SEEDS))
            for seeds in ranges for path in shards_of(seeds, extra_fonts)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m spider_vision.vision.training", description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=Path("data/vision"))
    parser.add_argument("--out", type=Path, default=Path("models"))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--detector-steps", type=int, default=16000)
    parser.add_argument("--reader-steps", type=int, default=12000)
    parser.add_argument("--counter-steps", type=int, default=12000)
    parser.add_argument("--only", choices=["detector", "reader", "counter", "quantize"], default=None,
                        help="train only one model (the reader and counter need the detector in --out, the "
                             "reader's int8 step the counters too), or only quantize the float readers in --out")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    torch.set_num_threads(1)
    cv2.setNumThreads(1)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    record_path = args.out / "training.json"
    record = json.loads(record_path.read_text()) if record_path.exists() else {}
    if args.only == "quantize":
        try:
            record.update(quantize_readers(args.out))
        except VisionError as error:
            print(f"spider-vision training: {error}", file=sys.stderr)
            return 2
        record_path.write_text(json.dumps(record, indent=1) + "\n")
        return 0
    train_paths = _every_training_range(
        lambda seeds, fonts: generate(args.data, seeds, extra_fonts=fonts, shard_size=SHARD))
    valid_paths = generate(args.data, VALID_SEEDS, shard_size=SHARD)
    style_paths = generate(args.data, STYLE_SEEDS, held_out_style=True, shard_size=SHARD)
    train = load(train_paths)
    args.out.mkdir(parents=True, exist_ok=True)
    record.update({"seed": args.seed, "train_seeds": [[seeds.start, seeds.stop] for seeds in TRAIN_SEEDS],
                   "font_seeds": [[seeds.start, seeds.stop] for seeds in FONT_SEEDS],
                   "valid_seeds": [VALID_SEEDS.start, VALID_SEEDS.stop],
                   "style_seeds": [STYLE_SEEDS.start, STYLE_SEEDS.stop],
                   "train_pictures": len(train["images"]), "train_index_crops": len(train["index_crops"]),
                   "train_strips": len(train["strip_crops"])})
    if args.only in (None, "detector"):
        detector = train_detector(train, args.detector_steps, rng)
        export(detector, torch.zeros(1, 3, 432, 768), args.out / "detector.onnx", ["maps"],
               {"pixels": {2: "height", 3: "width"}, "maps": {2: "rows", 3: "cols"}})
        record["detector_steps"] = args.detector_steps
    if args.only in (None, "reader", "counter"):
        # Crops cut where the trained detector puts each card (rendered again, cached in --data).
        # The cache is keyed by the detector's bytes: crops cut by another detector are not reused.
        detector_key = hashlib.sha256((args.out / "detector.onnx").read_bytes()).hexdigest()[:12]
        cutter = Models.detector_only(args.out)
        cache = args.data / f"detected-{detector_key}"
        detected = load(_every_training_range(
            lambda seeds, fonts: generate_detected(cache, seeds, cutter, extra_fonts=fonts, shard_size=SHARD)))
        record.update({"train_detected_index_crops": len(detected["index_crops"]),
                       "train_detected_strips": len(detected["strip_crops"])})
        for key in ("index_crops", "index_labels", "strip_crops", "strip_labels"):
            train[key].extend(detected[key])
    # Each stage has its own seeds, so that '--only reader' repeats the reader of a full run.
    if args.only != "detector":
        held_out = (load(valid_paths), load(style_paths))
        if args.only in (None, "reader"):
            record.update(_train_ensemble(
                "reader", READER_SEEDS, lambda rng: train_reader(train, args.reader_steps, rng), reader_file,
                torch.zeros(2, 3, CORNER_CROP[1], CORNER_CROP[0]), ["rank", "suit", "embedding"], reader_accuracy,
                args, held_out))
            record["reader_steps"] = args.reader_steps
        if args.only in (None, "counter"):
            record.update(_train_ensemble(
                "counter", COUNTER_SEEDS, lambda rng: train_counter(train, args.counter_steps, rng), counter_file,
                torch.zeros(2, 3, STRIP_CROP[1], STRIP_CROP[0]), ["counts"], counter_accuracy, args, held_out))
            record["counter_steps"] = args.counter_steps
        if args.only in (None, "reader"):
            # Last, so that the crops that calibrate it are cut by the whole pipeline just trained.
            record.update(quantize_readers(args.out))
    record_path.write_text(json.dumps(record, indent=1) + "\n")
    return 0
