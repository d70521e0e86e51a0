"""Where pictures come from: the cameras the system reports, the bundled sample video, file kinds."""

from __future__ import annotations

import sys
from pathlib import Path

import spider_vision

__all__ = ["camera_names", "linux_cameras", "sample_video", "source_kind", "PICTURE_SUFFIXES", "VIDEO_SUFFIXES", "cameras_present"]

SAMPLE_VIDEO = Path("sample_images") / "game.mp4"
PICTURE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp")
VIDEO_SUFFIXES = (".mp4", ".avi", ".mov", ".mkv", ".webm", ".m4v", ".mpg", ".mpeg", ".wmv")


def sample_video() -> Path:
    """The bundled sample game video, beside the package (the repository root)."""
    return Path(spider_vision.__file__).resolve().parent.parent / SAMPLE_VIDEO


def source_kind(spec: str | int | Path) -> str:
    """The game log's ``source`` for a spec: camera, images (a folder or a picture) or video."""
    if isinstance(spec, int) or str(spec).isdigit():
        return "camera"
    path = Path(spec)
    if path.is_dir() or path.suffix.lower() in PICTURE_SUFFIXES:
        return "images"
    return "video"


def camera_names() -> list[tuple[int, str]]:
    """The cameras as (OpenCV index, name), as the system reports them.

    Qt's own list (QtMultimedia) when that module is installed; otherwise the
    names Linux gives its video devices; otherwise nothing (cameras can still
    be opened by number).
    """
    try:
        from PySide6.QtMultimedia import QMediaDevices  # type: ignore[import-not-found]
    except ImportError:
        pass
    else:
        return list(enumerate(device.description() for device in QMediaDevices.videoInputs()))
    if sys.platform.startswith("linux"):
        return linux_cameras()
    return []


def linux_cameras(root: Path = Path("/sys/class/video4linux")) -> list[tuple[int, str]]:
    """Linux video devices as (index, name), leaving out a camera's extra (metadata) nodes."""
    names = []
    for device in root.glob("video*"):
        if not device.name[5:].isdigit():
            continue
        try:
            name = (device / "name").read_text().strip() or device.name
            node = (device / "index").read_text().strip() if (device / "index").exists() else "0"
        except OSError:
            name, node = device.name, "0"
        if node == "0":  # a camera's other nodes (metadata) have index 1, 2...
            names.append((int(device.name[5:]), name))
    return sorted(names)


def cameras_present() -> bool:
    """Whether a camera may be there to try (on Linux, only when a video device exists)."""
    if sys.platform.startswith("linux"):
        return any(Path("/dev").glob("video*"))
    return True
