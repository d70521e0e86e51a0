"""Follow a physical Spider game from a camera, a video or a folder of pictures.

``open_source`` gives frames; ``Tracker.feed`` turns them into a position,
game-log events and flags (rule breaks, doubtful reads). The stability gate,
the observations, the move inference and the tracker are separate modules.
"""

from __future__ import annotations

from spider_vision.tracking.inference import Hypothesis, Inference, infer
from spider_vision.tracking.observation import TableView, view_from_reading
from spider_vision.tracking.sources import (
    CameraSource,
    Frame,
    FrameSource,
    ImageFolderSource,
    SourceError,
    SourceLostError,
    VideoSource,
    open_source,
)
from spider_vision.tracking.stability import GateSettings, StabilityGate
from spider_vision.tracking.tracker import Flag, Tracker, TrackerSettings, TrackUpdate

__all__ = [
    "CameraSource", "Flag", "Frame", "FrameSource", "GateSettings", "Hypothesis", "ImageFolderSource",
    "Inference", "SourceError", "SourceLostError", "StabilityGate", "TableView", "TrackUpdate", "Tracker",
    "TrackerSettings", "VideoSource", "infer", "open_source", "view_from_reading",
]
