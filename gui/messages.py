"""What the warning banner says: each problem in a player's words, with what to do about it.

Pure text, no Qt: ``warning_for`` turns a tracking flag (its kind and the
engine's or reader's message) into a ``Warning`` with a severity and advice.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Warning", "warning_for", "reading_warning", "SEVERITY_ORDER"]

SEVERITY_ORDER = ("info", "caution", "error")

_TEMPLATES: dict[str, tuple[str, str, str]] = {
    # kind: (severity, headline, what to do)
    "illegal-move": ("error", "That move breaks the rules",
                     "Put the cards back, or press Ctrl+Z if the move was misread."),
    "blocked-deal": ("error", "You cannot deal yet",
                     "Fill every empty column first, then deal from the stock."),
    "doubtful-card": ("caution", "A card is hard to read",
                      "Click it to say what it is, or straighten it and keep it in good light."),
    "misread": ("caution", "A card looks misread",
                "Click the card to correct it."),
    "ambiguous": ("caution", "Not sure which move was made",
                  "Make the move again slowly with your hand clear of the cards, or click a card to correct it."),
    "camera": ("error", "Camera problem",
               "Check that the camera is connected and sees the whole table, or pick another in the Source menu."),
    "source-end": ("info", "The video has ended",
                   "Open your camera or another video from the Source menu (Ctrl+K, Ctrl+Shift+O)."),
}


@dataclass(frozen=True)
class Warning:
    """One banner: ``severity`` is info, caution or error; ``key`` says which problem it is."""

    key: str
    severity: str
    headline: str
    detail: str
    advice: str

    @property
    def text(self) -> str:
        detail = f": {self.detail}" if self.detail else ""
        return f"{self.headline}{detail}. {self.advice}"


def warning_for(kind: str, message: str, column: int | None = None, index: int | None = None) -> Warning:
    """The banner for a tracking flag of ``kind`` (unknown kinds are shown as cautions)."""
    severity, headline, advice = _TEMPLATES.get(kind, ("caution", "Check the table", "Click a card to correct it."))
    detail = message.rstrip(".")
    if column is not None and kind in ("doubtful-card", "misread") and not detail:
        detail = f"column {'abcdefghij'[column]}"
    return Warning(kind, severity, headline, detail, advice)


def reading_warning(text: str) -> Warning:
    """A reader's warning about the picture (partial view, position withheld) as a gentle banner."""
    lowered = text.lower()
    if "small in the picture" in lowered:
        return Warning("framing", "caution", "The cards are small in the picture", text.split(": ")[0],
                       "Move the camera closer or raise its resolution.")
    if "off the picture" in lowered:
        return Warning("framing", "caution", "Part of the table is outside the picture", text.split(": ")[0],
                       "Move the camera back or aim it at the middle of the table.")
    if "hides the suit" in lowered:
        return Warning("framing", "caution", "Cards lie too close to read their suits", text.split(": ")[0],
                       "Spread the columns so that about a quarter of each card shows.")
    if "nine columns' places" in lowered:
        return Warning("view", "caution", "Column a or j is empty, or out of the picture", "",
                       "Keep the whole row in the picture; an empty end column keeps the letter it had "
                       "while the game was followed.")
    if "do not form the ten columns" in lowered or "partial" in lowered:
        return Warning("view", "caution", "The camera does not see all ten columns", "",
                       "Move the camera back or zoom out until the whole tableau is in the picture.")
    if "too dark" in lowered or "too bright" in lowered or "blurred" in lowered or "too small" in lowered:
        return Warning("camera", "error", "The picture cannot be read", text.rstrip("."),
                       "Improve the light or the focus, or move the camera closer.")
    if "could not be read with confidence" in lowered:
        return Warning("unread", "caution", "Some cards are hard to read", text.rstrip("."),
                       "Click a card shown as ? to say what it is.")
    if "suit mode" in lowered and "inferred" in lowered:
        return Warning("reading", "info", "Suit mode guessed from the cards seen", "",
                       "Choose it in Source > Suit mode (Alt+1, Alt+2 or Alt+4) if it is wrong.")
    if "no cards" in lowered:
        return Warning("camera", "caution", "No cards in view", "",
                       "Point the camera at the table with the game laid out.")
    return Warning("reading", "info", "Note", text.rstrip("."), "")
