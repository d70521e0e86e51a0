"""Spider Vision: read a physical Spider Solitaire game from a camera, check it and give hints."""

from __future__ import annotations

__version__ = "0.1.0"
