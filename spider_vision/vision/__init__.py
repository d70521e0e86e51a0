"""Read a Spider table from one picture: every card seen, and the position in SPN when it is whole.

``read_table(image, Models.load())`` returns a ``TableReading``; ``annotate``
draws one; ``calibrate`` adapts the reader to a player's deck. Runs on numpy,
OpenCV and onnxruntime only (training lives in ``spider_vision.vision.training``).
"""

from __future__ import annotations

from spider_vision.vision.annotate import annotate
from spider_vision.vision.calibration import Calibration, CalibrationError
from spider_vision.vision.errors import BadPictureError, ModelMissingError, NoCardsError, NotAnImageError, VisionError
from spider_vision.vision.models import Models
from spider_vision.vision.pipeline import calibrate, load_image, read_table
from spider_vision.vision.reading import CardReading, TableReading

__all__ = [
    "BadPictureError", "Calibration", "CalibrationError", "CardReading", "ModelMissingError", "Models",
    "NoCardsError", "NotAnImageError", "TableReading", "VisionError",
    "annotate", "calibrate", "load_image", "read_table",
]
