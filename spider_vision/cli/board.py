"""The board as readable text for the terminal: columns side by side, face-down cards as ``##``."""

from __future__ import annotations

from spider_vision.engine import SUIT_NAMES, Position, card_text, column_letter

__all__ = ["board_text"]

_CELL = 5


def board_text(position: Position) -> str:
    """Ten columns side by side, bottom card first, then a line on the stock and removed runs.

    Face-down cards are ``##`` (their identity is not shown even when known);
    a face-up card not read yet is ``??``; an empty column shows ``--``.
    """
    columns = [
        ["##"] * len(column.down) + [card_text(card) for card in column.up] or ["--"]
        for column in position.columns
    ]
    height = max(len(cells) for cells in columns)
    rows = ["".join(column_letter(index).rjust(_CELL) for index in range(10))]
    for row in range(height):
        cells = (cells[row] if row < len(cells) else "" for cells in columns)
        rows.append("".join(cell.rjust(_CELL) for cell in cells).rstrip())
    deals = position.deals_left
    removed = ", ".join(SUIT_NAMES[suit] for suit in position.removed) or "none"
    rows.append(
        f"stock: {deals} deal{'s' if deals != 1 else ''} left    "
        f"removed runs ({len(position.removed)}/8): {removed}"
    )
    return "\n".join(rows)
