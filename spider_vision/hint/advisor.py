"""The hint engine: the best move for a player who cannot see face-down cards.

Determinisation: deal the unseen cards at random into the hidden places,
let the full-information solver search each such world, and vote for the
first moves of the winning lines. A vote counts only for a move that is legal
in the observed position. Worlds and their lines are carried along the game
(``worlds.py``), so most hints cost little and the time saved goes to worlds
not yet searched. Each world's search knows its hidden cards and leans on
them (strategy fusion), so a plan a player could make (``plan_move``: on
the known cards alone, every hidden card a blocker, or a tree search over
what a player sees) holds the deal back while it gains,
is tried in the won worlds and wins ties with their moves, gives way only to
a move that at least two won worlds start with, and decides when no world is
won; cheap tactical rules decide when it has no move. The
worlds' answers are optimistic (each world's solver knows its hidden cards),
so the win estimate is a guide, not a promise.
"""

from __future__ import annotations

import hashlib
import logging
import math
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from spider_vision.engine import (
    Card,
    Deal,
    Move,
    Position,
    SpiderError,
    TableauMove,
    apply_move,
    legal_moves,
)
from spider_vision.hint.chance import EstimateEvidence, win_chance
from spider_vision.hint.knowledge import Knowledge, determinise
from spider_vision.hint.tactics import explain, tactical_score
from spider_vision.hint.worlds import (
    World,
    advance,
    game_progress,
    infer_move,
    play_line,
    shared_prefix,
    without_loops,
)
from spider_vision.solver import SolveLimits, SolveResult, native_available, solve
from spider_vision.solver.solving import FIRST_WIDTH, explore, plan_under_chance

__all__ = [
    "HINT_POSITIONS", "MAX_SAMPLES", "Hint", "HintLimits", "HintLimitsError", "HintSession", "WorldSampler", "hint",
    "plan_move",
]

logger = logging.getLogger(__name__)

STALL_LIMIT = 8
PLAN_NODES = 50000
"""Positions the plan on the known cards may examine (it takes a few milliseconds)."""
PLAN_ITERATIONS = 0
"""Iterations of the plan's tree search under chance; 0, the default, plans on the known cards alone.
3000 take about 0.06 s and 150,000 positions. Alone the tree search plays better than the beam run
on the known cards (two suits, deals 1001..1200: 77 won against 62), but the whole engine won
as many games with it on deals 1..30 (one million positions a hint: two suits 23, four suits 7)
and fewer on two-suit deals 181..300 (55 against 65; ``docs/hints.md``, stops 71 and 72), so it
is off until it earns its time."""
PLAN_SHARE = 0.5
"""The most of a hint's budget (``movetime`` or ``nodes_per_move``) the tree search may take."""
HINT_POSITIONS = 1_000_000
"""Positions a hint searches on average by default (banked like time). A longer search plays worse,
not better: on two-suit deals 1..60, hints under a half-second limit (about 2.5 million positions
each with the native core of stop 73) won 37 games, hints of one million positions 45 (10 deals won
only with the million, 2 only with the half second; ``docs/hints.md``, stop 74). One million takes
about 0.2 s of one core."""
SMALLEST_SEARCH = 0.004
"""The least share of a hint's budget (positions or seconds) worth starting one more search with."""
MAX_SAMPLES = 256
"""Most worlds a hint may keep: each is dealt before the search starts, so a huge number would outlast
any move time."""
WorldSampler = Callable[[Knowledge, random.Random], Position]
"""Draws one full-information world for a hint from what is known and a random generator."""
MIN_AGREE = 2
"""Won worlds whose lines must start with a move before it overrides the blind plan: one world's
line leans on that world's hidden cards (``bench/play.py``, deals 1..30, measured together with the
stalled-deal rule: 2 suits 19 won against 15 with 1, 4 suits 6 against 5)."""


class HintLimitsError(SpiderError):
    """Limits a hint cannot work within (no worlds, too many, no time)."""


@dataclass(frozen=True, slots=True)
class HintLimits:
    """How much work a hint may do.

    The budget is counted in positions searched, ``nodes_per_move`` a hint
    on average (``HINT_POSITIONS``): a session banks what cheap hints leave
    unused and lets a later hint spend up to ``bank_limit`` times as much.
    ``movetime`` is then a time limit for a slow machine: a hint stops after
    ``movetime`` seconds, or as many times that as the positions it may
    spend are times ``nodes_per_move``. With ``movetime=math.inf`` hints are
    the same on any machine and under any load, which is what a benchmark
    wants. With ``nodes_per_move=None`` the budget is counted in seconds
    instead: ``movetime`` is then the mean wall time per hint, banked the
    same way. ``samples`` is the number of worlds kept: 4 and 16 both won
    fewer two-suit games than 8 (``docs/hints.md``, stop 78).
    ``first_width`` is the solver's first beam in each world: a narrow one
    solves easy worlds in fewer positions (two suits, first beam 10: a
    quarter of the positions, 0.21 instead of 0.26 CPU s a hint) but did not
    win more games (12/30 against 14/30 on deals 1..30).
    ``plan_iterations`` are the iterations of the plan's tree search under
    chance (``plan_move``); 0 plans with every hidden card a blocker.
    """

    movetime: float = 0.5
    samples: int = 8
    alternatives: int = 3
    search_share: float = 0.3
    bank_limit: float = 4.0
    nodes_per_move: int | None = HINT_POSITIONS
    first_width: int = FIRST_WIDTH
    plan_iterations: int = PLAN_ITERATIONS
    seed: int = 0

    def __post_init__(self) -> None:
        if not 1 <= self.samples <= MAX_SAMPLES:
            raise HintLimitsError(f"a hint samples 1 to {MAX_SAMPLES} worlds, not {self.samples}")
        if not self.movetime > 0:
            raise HintLimitsError(f"the move time must be more than 0 seconds, not {self.movetime}")
        if self.plan_iterations < 0:
            raise HintLimitsError(f"the plan's iterations must be 0 or more, not {self.plan_iterations}")
        if self.nodes_per_move is not None and self.nodes_per_move < 1:
            raise HintLimitsError(f"the positions per move must be at least 1, not {self.nodes_per_move}")


@dataclass(frozen=True)
class Hint:
    """The advice: a move (``None`` when there is none), why, and the chance to win.

    ``samples`` worlds were searched, ``wins`` of them won, and in
    ``proved_lost`` the search covered every line without a win; the rest are
    ``undecided``. ``win_estimate`` is the share won (so undecided worlds count
    as not won: a lower bound), and ``None`` when no world was decided.
    ``win_chance`` is the chance to win learnt from whole games played with
    hints, given the worlds' outcomes and what a player sees (``chance.py``);
    ``None`` when no world was searched.
    """

    move: Move | None
    reason: str
    win_estimate: float | None
    lost: bool = False
    samples: int = 0
    wins: int = 0
    proved_lost: int = 0
    nodes: int = 0
    seconds: float = 0.0
    votes: dict[str, int] = field(default_factory=dict)
    win_chance: float | None = None

    @property
    def undecided(self) -> int:
        """Worlds searched whose search stopped at its limit, neither won nor proved lost."""
        return self.samples - self.wins - self.proved_lost

    def estimate_words(self) -> str:
        """The chance to win in a player's words, with the sampled worlds it rests on.

        With a model for the suit mode it reads "win chance about 45%: 2 of 8
        sampled deals won, 4 undecided", rounded to 5%: the model's figures
        are good to a few percent, not one. Without one, the worlds' share is
        given as an estimate, and a world whose search ran out of time widens
        it into a range rather than counting as lost, so a short think never
        reads as "0%" for a game that may well be won. Empty when no world was
        searched (the reason then says it all).
        """
        if self.samples == 0:
            return ""
        deals = f"{self.samples} sampled deal{'s' if self.samples > 1 else ''}"
        if self.undecided == self.samples:
            worlds = f"no search of {deals} finished in time"
        elif self.undecided:
            worlds = f"{self.wins} of {deals} won, {self.undecided} undecided"
        else:
            worlds = f"{self.wins} of {deals} won"
        if self.win_chance is not None:
            return f"win chance about {round(self.win_chance * 20) * 5}%: {worlds}"
        if self.undecided == self.samples:
            return f"win chance unknown: {worlds}"
        low = self.wins / self.samples
        if self.undecided == 0:
            return f"win estimate {low:.0%}: {worlds}"
        high = (self.wins + self.undecided) / self.samples
        return f"win estimate {low:.0%}-{high:.0%}: {worlds}"


@dataclass
class HintSession:
    """Hints along one game.

    It remembers the positions it was shown (so as not to go round in
    circles) and its sampled worlds with their winning lines. Everything it
    keeps comes from observed positions and random draws, never from the real
    hidden cards.

    ``sampler`` draws the worlds: ``determinise``, from what a player knows,
    unless a benchmark passes one that knows the true hidden cards, to
    measure what they are worth (``bench/play.py --peek``).
    """

    limits: HintLimits = field(default_factory=HintLimits)
    sampler: WorldSampler = determinise
    visited: Counter[str] = field(default_factory=Counter)
    _previous: Position | None = None
    _banked: float = 0.0
    _worlds: list[World] = field(default_factory=list)
    _rng: random.Random | None = None
    _nodes_spent: int = 0
    _ceiling: float = math.inf
    _stalled: int = 0
    _last_progress: tuple[int, int, int] | None = None

    def hint(self, position: Position, seen: tuple[Card, ...] = ()) -> Hint:
        """The best move from ``position`` as a player sees it (hidden cards are ignored)."""
        started = time.perf_counter()
        knowledge = Knowledge.of(position, seen)
        observed = knowledge.position
        if self._rng is None:
            self._rng = random.Random(self.limits.seed)
        self._carry_worlds(observed)
        # A request for fewer worlds than the session carries (the engine's `go samples k`) is obeyed,
        # keeping the worlds won first.
        self._worlds.sort(key=lambda world: not world.won)
        del self._worlds[self.limits.samples :]
        self.visited[observed.spn()] += 1
        progress = game_progress(observed)
        self._stalled = self._stalled + 1 if progress == self._last_progress else 0
        self._last_progress = progress
        moves = legal_moves(observed)
        if not moves or _unread(observed):
            # A card not yet read may be the one a move needs: no plan or world can be made without it.
            return _no_move(observed)
        # A run removed with fewer than ten cards left on the table and cards still in the stock
        # loses the game: the columns can no longer all be filled, so the stock can never be dealt.
        after = {move: apply_move(observed, move).after for move in moves}
        moves = [move for move in moves if not _strands_the_stock(after[move])] or moves
        # A winning line may pass once through a position seen before; twice is going round.
        visits = {move: self.visited[after[move].spn()] for move in moves}
        moves = [move for move in moves if visits[move] < 2] or moves
        fresh = [move for move in moves if visits[move] == 0] or moves
        held_back: list[Move] = []
        began = self._clock()
        plan, planned = self._plan(knowledge, {str(move) for move in fresh if not isinstance(move, Deal)})
        # With no face-down card left, only the stock is hidden: the plan's gains are then mere
        # rearrangements, and a tie won by them led to 900-move lines (1 suit, stuck games).
        buried = any(column.down for column in observed.columns)
        leading = plan if buried else None
        if leading is not None or (
            self._stalled < STALL_LIMIT and any(tactical_score(observed, move) > 0 for move in fresh)
        ):
            # Dealing buries cards: a player deals only when nothing useful is left. The worlds'
            # searches know their stock and would deal early when it happens to suit them (a
            # deal gives their search more cards, so its first win often starts with one). While
            # a plan on the known cards improves the position, the deal waits. Moves that only
            # shuffle runs about are not useful: after STALL_LIMIT hints without a card turned
            # over or a run removed, the worlds may vote for the deal unless such a plan is left.
            held_back = [move for move in moves if isinstance(move, Deal)]
            moves = [move for move in moves if not isinstance(move, Deal)]
            fresh = [move for move in fresh if not isinstance(move, Deal)]
        # Every winning line deals the whole stock. With every card turned over, the moves before
        # the deal only rearrange the cards; once STALL_LIMIT hints in a row gained nothing, head
        # for the deal (a won world's line may wander for hundreds of moves before it deals).
        stalled_deal = None
        if not buried and self._stalled >= STALL_LIMIT and observed.stock:
            stalled_deal = _towards_deal(observed, held_back + moves)
        # After STALL_LIMIT hints without progress the plan no longer wins ties or overrides lone
        # worlds: its gains are then rearrangements that every won world also wins with, and
        # preferring them turned play away from the won worlds' lines at every move (1 suit, deal
        # 91: 200 moves of shuffling runs with every world won). The shortest winning lines lead.
        stalled = self._stalled >= STALL_LIMIT
        tie_plan = None if stalled else leading
        budget = self._budget()
        allowed = min(budget + self._banked, budget * self.limits.bank_limit)
        if self.limits.nodes_per_move is not None:
            # A hint that may spend banked positions may take as many times its time limit.
            self._ceiling = started + self.limits.movetime * allowed / budget
        # The worlds vote on every move left; only the fallback, which has no line to follow,
        # keeps to positions not seen before.
        by_text = {str(move): move for move in moves}
        news = {str(move) for move in fresh}
        nodes = planned
        if stalled_deal is None:
            nodes += self._search(knowledge, list(by_text), began + allowed, allowed, leading)
        self._previous = observed
        votes = _votes(self._worlds, by_text)
        if not votes:
            # The deal was held back, but it is the only move that any world wins with: a line
            # that wins somewhere beats the tactical rules, which win nowhere that was searched.
            by_text.update((str(move), move) for move in held_back)
            votes = _votes(self._worlds, by_text)
        best = None
        if votes:
            best = max(
                votes, key=lambda text: self._rank(observed, by_text[text], text, news, tie_plan, shortest=stalled)
            )
        if best is not None and tie_plan is not None and tie_plan in news and votes[best] < MIN_AGREE:
            best = tie_plan  # a lone world's line against a plan a player could make
        if stalled_deal is not None:
            move = stalled_deal
        elif best is not None:
            move = by_text[best]
        elif plan is not None and plan in news:
            move = by_text[plan]
        else:
            move = max(fresh, key=lambda candidate: _fallback_key(observed, candidate))
        searched = [world for world in self._worlds if world.searched or world.won]
        wins = sum(world.won for world in searched)
        proved_lost = sum(world.proved_lost for world in searched)
        undecided = len(searched) - wins - proved_lost
        spent = time.perf_counter() - started
        self._banked = max(0.0, self._banked + budget - (self._clock() - began))
        return Hint(
            move,
            explain(observed, move),
            wins / len(searched) if wins + proved_lost else None,
            samples=len(searched),
            wins=wins,
            proved_lost=proved_lost,
            nodes=nodes,
            seconds=spent,
            votes=dict(votes),
            win_chance=win_chance(EstimateEvidence.of(observed, len(searched), wins, undecided)),
        )

    def _rank(
        self, observed: Position, move: Move, text: str, news: set[str], plan: str | None, *, shortest: bool = False
    ) -> tuple[float, bool, int, float, bool, float]:
        """Order candidate moves: share of the worlds tried that it wins, the blind plan, wins, news, tactics.

        At an equal share the blind plan's move goes first: it was chosen
        without the hidden cards, where a world's line may lean on them.
        With ``shortest``, after the wins, the move whose winning lines are
        shortest on average: a line followed move by move gets shorter, so
        play keeps to one line to its end instead of swapping between lines.
        """
        wins = sum(text in world.lines for world in self._worlds)
        tried = sum(text in world.tried for world in self._worlds)
        share = (wins + 1) / (tried + 2)
        length = 0.0
        if shortest and wins:
            length = sum(len(world.lines[text]) for world in self._worlds if text in world.lines) / wins
        return (share, text == plan, wins, -length, text in news, tactical_score(observed, move))

    def _plan(self, knowledge: Knowledge, allowed: set[str]) -> tuple[str | None, int]:
        """The plan's first move (if allowed) and the positions it examined, counted in the budget."""
        move, nodes = plan_move(knowledge, self.limits, allowed)
        self._nodes_spent += nodes
        return move, nodes

    def _carry_worlds(self, observed: Position) -> None:
        """Move the won worlds along to ``observed``; drop all if it is not the next position."""
        previous, worlds, self._worlds = self._previous, self._worlds, []
        if previous is None:
            return
        if previous.spn() == observed.spn():
            self._worlds = worlds
            return
        move = infer_move(previous, observed)
        if move is None:
            logger.info("position is not one move on from the last; starting afresh")
            return
        carried = (advance(world, move, observed) for world in worlds if world.won)
        self._worlds = [world for world in carried if world is not None]

    def _search(
        self, knowledge: Knowledge, candidates: list[str], deadline: float, allowed: float, plan: str | None
    ) -> int:
        """Search the worlds until ``deadline``; return the positions examined.

        First every world without a line is searched from its own position.
        Then the moves that the worlds' lines start with are tried in the
        worlds whose lines start otherwise, most voted first, so that a move
        is judged by how many worlds it wins, not only by how many lines it
        happens to begin. Each is tried together with the moves that follow
        it up to the first card shown, as most won worlds' lines play them
        (``shared_prefix``): a player learns nothing before that card, so every
        world must make the same moves, where a world's own search would
        pick those that suit its hidden cards.
        """
        assert self._rng is not None
        worlds = list(self._worlds)
        while len(worlds) < self.limits.samples:
            seed = self._rng.getrandbits(64)
            worlds.append(World(self.sampler(knowledge, random.Random(seed))))
        nodes = 0
        for index, world in enumerate(worlds):
            if world.searched:
                continue
            # Until one world is won, one deep search beats several that all run out of
            # budget: a won world gives a line to follow, and following it is cheap.
            unled = not any(other.won for other in worlds)
            limits = self._solve_limits(deadline, allowed, 1, whole=unled)
            if limits is None:
                break
            result = self._solve(world.position, limits)
            nodes += result.nodes
            found = without_loops(world.position, result.moves) if result.solved else None
            worlds[index] = world.with_line(found[0] if found else "", found)
            if not result.solved and result.exhaustive:
                worlds[index] = replace(worlds[index], proved_lost=True)
        ranked = sorted(
            {first for world in worlds for first in world.lines if first in candidates},
            key=lambda first: (-sum(first in world.lines for world in worlds), first),
        )[: self.limits.alternatives]
        if plan is not None and plan not in ranked and any(world.won for world in worlds):
            ranked.insert(0, plan)
        checks = [
            (first, index)
            for first in ranked
            for index, world in enumerate(worlds)
            if world.won and first not in world.tried
        ]
        macros = {first: shared_prefix(worlds, first) for first, _ in checks}
        for count, (first, index) in enumerate(checks):
            limits = self._solve_limits(deadline, allowed, len(checks) - count)
            if limits is None:
                break
            world = worlds[index]
            start = play_line(world.position, macros[first])
            if start is None:
                continue
            result = self._solve(start, limits)
            nodes += result.nodes
            line = without_loops(world.position, (*macros[first], *result.moves)) if result.solved else None
            if line is not None and line[0] != first:
                # The line undoes the move it was asked to start with: a win for the world, not for
                # that move.
                world = world.with_line(line[0], line)
                line = None
            worlds[index] = world.with_line(first, line)
        self._worlds = worlds
        return nodes

    def _budget(self) -> float:
        """What one hint may spend on average: seconds, or positions with ``nodes_per_move``."""
        if self.limits.nodes_per_move is not None:
            return float(self.limits.nodes_per_move)
        return self.limits.movetime

    def _clock(self) -> float:
        """Work done so far in the budget's unit: seconds of wall time, or positions searched."""
        if self.limits.nodes_per_move is not None:
            return float(self._nodes_spent)
        return time.perf_counter()

    def _solve(self, position: Position, limits: SolveLimits) -> SolveResult:
        result = solve(position, limits)
        self._nodes_spent += result.nodes
        return result

    def _solve_limits(
        self, deadline: float, allowed: float, searches_left: int, *, whole: bool = False
    ) -> SolveLimits | None:
        """Limits for one search, or ``None`` when the budget is spent.

        One search may take ``search_share`` of what this hint has, banked
        time included, so that a hard world gets a longer look when cheap hints
        saved time for it; with ``whole`` it may take all that is left.
        """
        smallest = self._budget() * SMALLEST_SEARCH
        remaining = deadline - self._clock()
        if remaining <= smallest:
            return None
        most = remaining if whole else allowed * self.limits.search_share
        share = max(min(remaining / searches_left, most), smallest)
        if self.limits.nodes_per_move is None:
            return SolveLimits(seconds=share, first_width=self.limits.first_width)
        # Counted in positions, the hint still stops at its ceiling in seconds.
        wall = None if math.isinf(self._ceiling) else self._ceiling - time.perf_counter()
        if wall is not None and wall <= SMALLEST_SEARCH * self.limits.movetime:
            return None
        return SolveLimits(seconds=wall, nodes=int(share), first_width=self.limits.first_width)


def hint(position: Position, seen: tuple[Card, ...] = (), limits: HintLimits = HintLimits()) -> Hint:
    """One hint for ``position``; face-down and stock cards are never looked at."""
    return HintSession(limits).hint(position, seen)


def plan_move(knowledge: Knowledge, limits: HintLimits, allowed: set[str]) -> tuple[str | None, int]:
    """The first move of the best plan a player could make (if allowed) and the positions examined.

    The plan cannot lean on hidden cards. With ``limits.plan_iterations`` it
    is a tree search that deals the unseen cards afresh at each iteration, so
    a card it turns over may be any of them (``plan_under_chance``); its
    random draws are seeded by the observed position, so the worlds a session
    draws do not depend on it. Without, or without the compiled core (the
    search is a hundred times slower in Python), a card it turns over or
    deals is a blocker to it (``explore``, a few milliseconds). The tree
    search stops early at ``PLAN_SHARE`` of a hint's budget, so that a short
    move time leaves the worlds at least half of it; counted in positions, it
    may always take the beam run's ``PLAN_NODES``.
    """
    observed = knowledge.position
    if limits.plan_iterations and native_available():
        digest = hashlib.blake2b(f"{limits.seed} {observed.spn()}".encode(), digest_size=8).digest()
        counted = limits.nodes_per_move
        chance = plan_under_chance(
            observed, tuple(knowledge.unseen.elements()), limits.plan_iterations,
            nodes=0 if counted is None else max(PLAN_NODES, int(PLAN_SHARE * counted)),
            seconds=PLAN_SHARE * limits.movetime if counted is None else 0.0,
            seed=int.from_bytes(digest, "big"),
        )
        return chance.choice(allowed), chance.nodes
    result = explore(observed, PLAN_NODES)
    first = result.moves[0] if result.moves else None
    return (first if first in allowed else None), result.nodes


def _towards_deal(position: Position, moves: list[Move]) -> Move | None:
    """The deal, or else the cheapest move that fills an empty column without emptying another."""
    deal = next((move for move in moves if isinstance(move, Deal)), None)
    if deal is not None:
        return deal
    fills = [
        move for move in moves
        if isinstance(move, TableauMove)
        and not position.columns[move.target].cards()
        and len(position.columns[move.source].cards()) > move.count
    ]
    return min(fills, key=lambda move: (move.count, move.source, move.target), default=None)


def _votes(worlds: list[World], allowed: dict[str, Move]) -> Counter[str]:
    """How many worlds' winning lines start with each allowed move."""
    return Counter(first for world in worlds for first in world.lines if first in allowed)


def _unread(position: Position) -> bool:
    """Whether a face-up card of ``position`` is not yet read (``??``)."""
    return any(None in column.up for column in position.columns)


def _no_move(observed: Position) -> Hint:
    if _unread(observed):
        return Hint(None, "read the cards not yet known (??) before asking for a move", None)
    if observed.is_won:
        return Hint(None, "the game is won", 1.0)
    return Hint(None, "no legal move and no stock: the game is lost", 0.0, lost=True)


def _fallback_key(position: Position, move: Move) -> tuple[float, int]:
    return (tactical_score(position, move), 0 if isinstance(move, Deal) else 1)


def _strands_the_stock(after: Position) -> bool:
    """Whether the position after a move has cards in the stock and too few on the table to fill all ten columns."""
    return bool(after.stock) and sum(len(column.cards()) for column in after.columns) < 10
