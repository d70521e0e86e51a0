"""The line protocol of ``spider-vision engine``, in the spirit of chess's UCI.

Pure: ``EngineProtocol.handle`` takes one request line and returns the answer
lines; the command line does the reading and writing. Requests:

* ``position <SPN>``: the observed position (hidden cards as counts);
* ``seen <card> ...``: cards known to have been face up earlier (optional);
* ``go [nodes <n>] [movetime <ms>] [samples <k>] [seed <n>]``: answers
  ``info`` lines, then ``bestmove <move>`` (``bestmove none`` when there is
  no move); ``nodes`` is the positions a hint searches on average (banked),
  ``movetime`` its time limit;
* ``newgame``: forget the game so far; ``isready``: answers ``readyok``;
  ``quit``: ends the session.

A bad request gets ``error <reason>`` and the engine keeps running.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from spider_vision.engine import Card, NotationError, Position, SpiderError, parse_card
from spider_vision.hint.advisor import Hint, HintLimits, HintLimitsError, HintSession
from spider_vision.hint.knowledge import Knowledge

__all__ = ["EngineProtocol", "format_hint"]

_GO_OPTIONS = {"nodes", "movetime", "samples", "seed"}


@dataclass
class EngineProtocol:
    """One engine session: the position, the cards seen, and the hint session of the game."""

    limits: HintLimits = field(default_factory=HintLimits)
    finished: bool = False
    _position: Position | None = None
    _seen: list[Card] = field(default_factory=list)
    _session: HintSession | None = None

    def handle(self, line: str) -> list[str]:
        """Answer one request line."""
        words = line.split()
        if not words:
            return []
        command, arguments = words[0], words[1:]
        try:
            if command == "position":
                return self._set_position(line.strip()[len("position") :].strip())
            if command == "seen":
                return self._add_seen(arguments)
            if command == "go":
                return self._go(arguments)
            if command == "isready":
                return ["readyok"]
            if command == "newgame":
                self._position, self._seen, self._session = None, [], None
                return []
            if command == "quit":
                self.finished = True
                return []
        except SpiderError as error:
            return [f"error {error}"]
        return [f"error unknown request '{command}': use position, seen, go, newgame, isready or quit"]

    def _set_position(self, text: str) -> list[str]:
        if not text:
            return ["error position needs an SPN: position <SPN>"]
        self._position = Position.from_spn(text)
        return []

    def _add_seen(self, words: list[str]) -> list[str]:
        cards = []
        for word in words:
            card = parse_card(word)
            if card is None:
                return [f"error seen takes known cards, not '{word}'"]
            cards.append(card)
        if self._position is not None:
            Knowledge.of(self._position, (*self._seen, *cards))
        self._seen.extend(cards)
        return []

    def _go(self, words: list[str]) -> list[str]:
        if self._position is None:
            return ["error no position yet: send position <SPN> first"]
        limits = self.limits
        if len(words) % 2:
            return ["error go takes pairs: go [nodes <n>] [movetime <ms>] [samples <k>] [seed <n>]"]
        for name, value in zip(words[::2], words[1::2]):
            if name not in _GO_OPTIONS or not value.isdigit():
                return [f"error go option '{name} {value}': use nodes <n>, movetime <ms>, samples <k>, seed <n>"]
            number = int(value)
            try:
                if name == "nodes":
                    limits = replace(limits, nodes_per_move=number)
                elif name == "movetime":
                    limits = replace(limits, movetime=max(number, 1) / 1000)
                elif name == "samples":
                    limits = replace(limits, samples=max(number, 1))
                else:
                    limits = replace(limits, seed=number)
            except HintLimitsError as error:
                return [f"error go {name} {value}: {error}"]
        if self._session is None or self._session.limits.seed != limits.seed:
            self._session = HintSession(limits)
        self._session.limits = limits
        try:
            advice = self._session.hint(self._position, tuple(self._seen))
        except NotationError as error:
            return [f"error {error}"]
        return format_hint(advice)


def format_hint(advice: Hint) -> list[str]:
    """The ``info`` and ``bestmove`` lines of a hint."""
    estimate = "none" if advice.win_estimate is None else f"{advice.win_estimate:.2f}"
    chance = "none" if advice.win_chance is None else f"{advice.win_chance:.2f}"
    return [
        f"info samples {advice.samples} wins {advice.wins} undecided {advice.undecided} estimate {estimate} "
        f"chance {chance} nodes {advice.nodes} time {round(advice.seconds * 1000)}",
        f"info reason {advice.reason}",
        f"bestmove {advice.move if advice.move is not None else 'none'}",
    ]
