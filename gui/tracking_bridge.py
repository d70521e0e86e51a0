"""The tracking names the window uses: ``spider_vision.tracking`` when it exists, else the minimal stand-in.

``MINIMAL`` is true when the stand-in (``gui.minimal_tracking``: frames read one
by one, no move following) is in use, so the window can say so.
"""

from __future__ import annotations

try:
    from spider_vision.tracking import Flag, Frame, SourceError, SourceLostError, Tracker, TrackUpdate, open_source
    MINIMAL = False
except ImportError:  # the tracking package has not landed in this checkout
    from gui.minimal_tracking import Flag, Frame, SourceError, SourceLostError, Tracker, TrackUpdate, open_source
    MINIMAL = True

__all__ = ["MINIMAL", "Flag", "Frame", "SourceError", "SourceLostError", "TrackUpdate", "Tracker", "open_source"]
