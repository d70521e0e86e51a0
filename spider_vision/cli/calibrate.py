"""``spider-vision calibrate IMAGE --cards "Ah 2h ..." --out deck.npz``: adapt the reader to a deck.

Exit codes as ``analyze``; 2 also when the number of cards named differs from
the number of face-up cards found.
"""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

from spider_vision.cli.analyze import vision_error
from spider_vision.cli.common import EXIT_OK, CommandError
from spider_vision.engine import NotationError, parse_cards
from spider_vision.vision import (
    BadPictureError,
    CalibrationError,
    ModelMissingError,
    Models,
    NoCardsError,
    NotAnImageError,
    calibrate,
    load_image,
)

__all__ = ["register", "run"]

logger = logging.getLogger(__name__)


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``calibrate`` command."""
    parser = commands.add_parser(
        "calibrate",
        help="adapt the card reader to your deck from one photo of known cards",
        description="Lay out known cards face up (for example A to K of one suit side by side), take one "
        "photo and name the cards left to right, each column top to bottom (cards away from the columns "
        "last, or not at all). The reader's prototypes of your deck are written to --out; pass that file "
        "to 'analyze --calibration'.",
    )
    parser.add_argument("image", type=Path, metavar="IMAGE", help="the photo of the known cards")
    parser.add_argument("--cards", required=True, metavar="CARDS", help='the cards shown, e.g. "Ah 2h 3h" or "Ah2h3h"')
    parser.add_argument("--out", required=True, type=Path, metavar="DECK.npz", help="calibration file to write")
    parser.add_argument("--models", type=Path, metavar="DIR", help="folder of the ONNX models (default: models/)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Build and write the calibration."""
    try:
        cards = parse_cards(args.cards.replace(" ", "").replace(",", ""))
    except NotationError as error:
        raise CommandError(f"--cards: {error}") from None
    named = [card for card in cards if card is not None]
    if len(named) < len(cards):
        raise CommandError("--cards: every card must be named (no ??)")
    if not args.out.parent.is_dir():
        raise CommandError(f"--out: the folder '{args.out.parent}' does not exist")
    try:
        calibration = calibrate(load_image(args.image), Models.load(args.models), named)
    except (NotAnImageError, BadPictureError, NoCardsError, ModelMissingError, CalibrationError) as error:
        raise vision_error(error) from None
    calibration.save(args.out)
    print(f"calibrated {len(calibration.classes)} card classes from {len(cards)} cards; wrote {args.out}")
    return EXIT_OK
