"""Why a picture cannot be read, in words a player understands."""

from __future__ import annotations

__all__ = ["BadPictureError", "ModelMissingError", "NoCardsError", "NotAnImageError", "VisionError"]


class VisionError(ValueError):
    """A picture that cannot be read at all (a partial or odd table is a warning, not an error)."""


class NotAnImageError(VisionError):
    """The file is missing or is not a picture OpenCV can decode."""


class BadPictureError(VisionError):
    """The picture is too dark, too bright, too blurred or too small to read cards from."""


class NoCardsError(VisionError):
    """No card was found in the picture."""


class ModelMissingError(VisionError):
    """The ONNX models are not where the reader looks for them."""
