"""``spider-vision analyze IMAGE``: read a Spider table from one picture.

Exit codes: 0 the picture was read (the position may still be withheld, see
the warnings); 1 the models are missing; 2 bad arguments or a file that is
not a picture; 3 a picture too dark, too bright, too blurred or too small to
read; 4 no cards found.
"""

from __future__ import annotations

import argparse
import json
import logging
from pathlib import Path

import cv2

from spider_vision.cli.common import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_OK, CommandError, suits_arg
from spider_vision.vision import (
    BadPictureError,
    Calibration,
    CalibrationError,
    ModelMissingError,
    Models,
    NoCardsError,
    NotAnImageError,
    annotate,
    load_image,
    read_table,
)

__all__ = ["EXIT_BAD_PICTURE", "EXIT_NO_CARDS", "register", "run", "vision_error"]

logger = logging.getLogger(__name__)

EXIT_BAD_PICTURE = 3
EXIT_NO_CARDS = 4


def vision_error(error: Exception) -> CommandError:
    """The command error (message and exit code) for a failure of the vision pipeline."""
    if isinstance(error, ModelMissingError):
        return CommandError(str(error), EXIT_FAILED)
    if isinstance(error, BadPictureError):
        return CommandError(str(error), EXIT_BAD_PICTURE)
    if isinstance(error, NoCardsError):
        return CommandError(str(error), EXIT_NO_CARDS)
    return CommandError(str(error), EXIT_BAD_INPUT)


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``analyze`` command."""
    parser = commands.add_parser(
        "analyze",
        help="read a Spider table from one picture",
        description="Read every visible card of a Spider table from one picture and, when all ten columns "
        "show, the position in SPN (face-down cards and stock as counts). Exit codes: 0 read (the "
        "position may be withheld, see the warnings), 1 models missing, 2 not a picture or bad "
        "arguments, 3 too dark, bright, blurred or small to read, 4 no cards found.",
    )
    parser.add_argument("image", type=Path, metavar="IMAGE", help="a picture file (jpg, png, ...)")
    parser.add_argument("--suits", type=suits_arg, metavar="S", help="suit mode 1, 2 or 4 (default: inferred)")
    parser.add_argument("--json", action="store_true", help="print the reading as JSON")
    parser.add_argument("--annotate", type=Path, metavar="OUT.png", help="write the picture with the reading drawn")
    parser.add_argument("--calibration", type=Path, metavar="DECK.npz",
                        help="a deck calibration written by 'spider-vision calibrate'")
    parser.add_argument("--models", type=Path, metavar="DIR", help="folder of the ONNX models (default: models/)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Read the picture and print the position (or the JSON reading)."""
    if args.annotate is not None and not args.annotate.parent.is_dir():
        raise CommandError(f"--annotate: the folder '{args.annotate.parent}' does not exist")
    try:
        calibration = Calibration.load(args.calibration) if args.calibration is not None else None
        image = load_image(args.image)
        models = Models.load(args.models)
        reading = read_table(image, models, suits=int(args.suits.value) if args.suits else None,
                             calibration=calibration)
    except (NotAnImageError, BadPictureError, NoCardsError, ModelMissingError, CalibrationError) as error:
        raise vision_error(error) from None
    if args.annotate is not None and not cv2.imwrite(str(args.annotate), annotate(image, reading)):
        raise CommandError(f"--annotate: could not write '{args.annotate}' (unknown extension?)", EXIT_FAILED)
    if args.json:
        print(json.dumps(reading.to_json()))
    else:
        print(reading.position if reading.position is not None else "no position")
        seen = sum(card.face_up for card in reading.cards)
        unread = sum(card.face_up and card.card is None for card in reading.cards)
        print(f"{seen} face-up cards ({unread} uncertain), "
              f"{sum(not card.face_up for card in reading.cards)} face-down; {reading.milliseconds:.0f} ms")
        for warning in reading.warnings:
            print(f"warning: {warning}")
    return EXIT_OK
