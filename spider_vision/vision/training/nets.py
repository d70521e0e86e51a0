"""The three small networks (torch, training only; the reader runs their ONNX exports).

* ``Detector``: a fully convolutional net over the picture scaled to
  ``DETECT_WIDTH``; at stride 4 it gives a heat map of corner-index centres and,
  at each centre, the card's geometry (``DETECTOR_CHANNELS``).
* ``Reader``: rank (13) and suit (4) of a corner crop, plus the 64-d embedding
  that deck calibration keeps prototypes of.
* ``Counter``: how many face-down cards (0..6) show in the strip above the
  lowest face-up card of a column.

Every net takes BGR pixels 0..255 as float32 NCHW and scales them itself.
"""

from __future__ import annotations

from typing import cast

import torch
from torch import nn

__all__ = ["Counter", "DETECTOR_CHANNELS", "DETECTOR_STRIDE", "Detector", "REGRESSION_SCALE", "Reader"]

DETECTOR_STRIDE = 4
DETECTOR_CHANNELS = ("heat", "icx", "icy", "tlx", "tly", "rx", "ry", "dx", "dy", "iw", "ih")
"""Heat logit; index centre and card top-left offsets from the cell, card right and down vectors, index size."""
REGRESSION_SCALE = 32.0
"""Regression outputs are in detection pixels divided by this."""


def _block(cin: int, cout: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, padding=dilation, dilation=dilation, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class Detector(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.c1 = _block(3, 12, 2)
        self.c2 = _block(12, 24, 2)
        self.c3 = _block(24, 24)
        self.c4 = _block(24, 48, 2)
        self.c5 = _block(48, 48, dilation=2)
        self.c6 = _block(48, 48, dilation=4)
        self.c7 = _block(48, 48, dilation=8)
        self.fuse = nn.Sequential(nn.Conv2d(72, 32, 1, bias=False), nn.BatchNorm2d(32), nn.ReLU(inplace=True))
        self.c8 = _block(32, 32)
        self.head = nn.Conv2d(32, len(DETECTOR_CHANNELS), 1)
        bias = cast(torch.Tensor, self.head.bias)  # a Conv2d's bias unless bias=False
        nn.init.constant_(bias, 0.0)
        with torch.no_grad():
            bias[0] = -4.0

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x / 127.5 - 1.0
        s4 = self.c3(self.c2(self.c1(x)))
        s8 = self.c7(self.c6(self.c5(self.c4(s4))))
        up = nn.functional.interpolate(s8, size=s4.shape[-2:], mode="nearest")
        return self.head(self.c8(self.fuse(torch.cat([s4, up], 1))))


class Reader(nn.Module):
    def __init__(self, embedding: int = 64) -> None:
        super().__init__()
        self.features = nn.Sequential(
            _block(3, 24), _block(24, 24), nn.MaxPool2d(2),          # 20
            _block(24, 48), _block(48, 48), nn.MaxPool2d(2),         # 10
            _block(48, 64), _block(64, 64), nn.MaxPool2d(2),         # 5
            _block(64, 96), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        )
        self.embed = nn.Sequential(nn.Linear(96, embedding), nn.BatchNorm1d(embedding), nn.ReLU(inplace=True))
        self.rank = nn.Linear(embedding, 13)
        self.suit = nn.Linear(embedding, 4)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        e = self.embed(self.features(x / 127.5 - 1.0))
        return self.rank(e), self.suit(e), e


class Counter(nn.Module):
    def __init__(self, classes: int = 7) -> None:
        super().__init__()
        self.features = nn.Sequential(
            _block(3, 16), nn.MaxPool2d(2),                 # 48 x 16
            _block(16, 32), nn.MaxPool2d(2),                # 24 x 8
            _block(32, 48), nn.MaxPool2d(2),                # 12 x 4
            _block(48, 64), nn.Flatten(),
            nn.Linear(64 * 12 * 4, 64), nn.ReLU(inplace=True), nn.Linear(64, classes),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.features(x / 127.5 - 1.0)
