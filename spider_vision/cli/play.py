"""``spider-vision play --deal N --suits S [--log FILE]``: play a numbered deal in the terminal.

Reads one command a line from standard input, so it can be driven by a pipe:
a move in notation (the count may be left out), ``deal``, ``u`` undo, ``r``
redo, ``m`` legal moves, ``h`` a hint, ``?`` help, ``q`` quit; end of input
quits too. The
game log is written as the game goes; an undo is logged as a note (see README).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from spider_vision.cli.board import board_text
from spider_vision.cli.common import EXIT_OK, CommandError, suits_arg
from spider_vision.engine import (
    SUIT_NAMES,
    STANDARD,
    Game,
    IllegalMoveError,
    NotationError,
    NothingToRedoError,
    NothingToUndoError,
    Step,
    deal_position,
    resolve_move,
)
from spider_vision.gamelog import LogWriter
from spider_vision.hint import HintSession


HELP = """\
Commands:
  ed, ed3   move cards from column e to column d (the count may be left out
            when only one count fits)
  deal      deal a card from the stock onto every column
  u         undo the last move        r   redo it
  m         list the legal moves      h   a hint (it never peeks)
  ?         this help
  q         quit (so does end of input)"""


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``play`` command."""
    parser = commands.add_parser(
        "play",
        help="play a numbered deal in the terminal",
        description="Play deal N in the terminal, one command a line on standard input "
        "(type ? for help). With --log the game log is written as the game goes.",
    )
    parser.add_argument("--deal", type=int, required=True, metavar="N", help="deal number")
    parser.add_argument("--suits", type=suits_arg, required=True, metavar="S", help="1, 2 or 4")
    parser.add_argument("--log", type=Path, metavar="FILE", help="write the game log here")
    parser.set_defaults(run=run)


class PlaySession:
    """One terminal game: the engine's game, the log writer and what is printed."""

    def __init__(self, game: Game, deal: int, writer: LogWriter | None) -> None:
        self.game = game
        self.deal = deal
        self.writer = writer
        self.hints = HintSession()
        self.hints_used = 0

    def show(self) -> None:
        game = self.game
        print(board_text(game.position))
        print(f"deal {self.deal}, {int(game.start.mode)} suits    moves {game.moves_made}    "
              f"score {game.score}")

    def handle(self, command: str) -> bool:
        """Carry out one command; return False when the game is over."""
        if command == "q":
            return False
        if command == "?":
            print(HELP)
        elif command == "m":
            moves = self.game.legal_moves()
            print(" ".join(str(move) for move in moves) if moves else "no legal move")
        elif command == "h":
            self.hint()
        elif command == "u":
            self.undo()
        elif command == "r":
            self.redo()
        else:
            return self.move(command)
        return True

    def hint(self) -> None:
        """Print the hint engine's move for what a player sees, and count it."""
        advice = self.hints.hint(self.game.position.observed())
        self.hints_used += 1
        words = advice.estimate_words()
        estimate = f" ({words})" if words else ""
        print(f"hint: {advice.move or 'none'}, {advice.reason}{estimate}")

    def undo(self) -> None:
        try:
            step = self.game.undo()
        except NothingToUndoError as error:
            print(error)
            return
        if self.writer is not None:
            self.writer.undo(step.move, self.game.position)  # type: ignore[arg-type]
        print(f"undid {step.move}")
        self.show()

    def redo(self) -> None:
        try:
            step = self.game.redo()
        except NothingToRedoError as error:
            print(error)
            return
        print(f"redid {step.move}")
        self.after(step)

    def move(self, text: str) -> bool:
        game = self.game
        try:
            move = resolve_move(game.position, text, game.variant)
            step = game.play(move)
        except NotationError as error:
            print(f"{error} (type ? for help)")
            return True
        except IllegalMoveError as error:
            print(f"illegal: {error}")
            return True
        return self.after(step)

    def after(self, step: Step) -> bool:
        """Log the step, show the board, announce runs removed, a win or a loss."""
        if self.writer is not None:
            self.writer.step(step)
        self.show()
        for removed in step.removals:
            print(f"a run of {SUIT_NAMES[removed.suit]} was completed and removed")
        if self.game.is_won:
            print(f"You won! All eight runs removed in {self.game.moves_made} moves, "
                  f"score {self.game.score}.")
            return False
        if self.game.is_lost:
            print("No legal move and no stock left: this game is lost (u to undo, q to quit).")
        return True


def run(args: argparse.Namespace) -> int:
    """Play until the game is won, ``q`` or the end of input."""
    try:
        start = deal_position(args.deal, args.suits)
    except NotationError as error:
        raise CommandError(str(error)) from None
    writer = None
    if args.log is not None:
        try:
            writer = LogWriter.create(
                args.log, start, variant=STANDARD, source="deal", deal=args.deal
            )
        except OSError as error:
            raise CommandError(f"cannot write {args.log}: {error.strerror or error}") from None
    session = PlaySession(Game(start, STANDARD), args.deal, writer)
    interactive = sys.stdin.isatty()
    print(f"Spider, deal {args.deal} in {int(args.suits)} suits. Type ? for help.")
    session.show()
    try:
        while True:
            if interactive:
                print("> ", end="", flush=True)
            line = sys.stdin.readline()
            if not line:
                break
            command = line.strip()
            if command and not session.handle(command):
                break
    finally:
        if writer is not None:
            writer.close()
    moves, hints = session.game.moves_made, session.hints_used
    print(
        f"Game over after {moves} move{'s' if moves != 1 else ''}, score {session.game.score}, "
        f"{hints} hint{'s' if hints != 1 else ''} used."
    )
    return EXIT_OK
