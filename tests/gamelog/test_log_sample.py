"""The bundled sample game: reproducible from its seed, and it shows what it promises."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from spider_vision.engine import SuitMode
from spider_vision.gamelog import MoveEvent, NoteEvent, read_log, replay
from spider_vision.gamelog.sample import random_game, sample_game

REPO = Path(__file__).resolve().parents[2]

SAMPLE_LOG = REPO / "sample_images" / "sample_game.jsonl"


def test_sample_is_reproducible_and_matches_the_bundled_file() -> None:
    game = sample_game()
    assert game == sample_game()
    bundled = SAMPLE_LOG.read_text(encoding="utf-8").splitlines()
    assert bundled == game.lines(), (
        "regenerate with: python3 -m spider_vision.gamelog.sample sample_images/sample_game.jsonl"
    )


def test_sample_has_one_mixed_suit_move_one_blocked_deal_and_an_undo() -> None:
    game = sample_game()
    illegal = [e for e in game.events if isinstance(e, MoveEvent) and not e.legal]
    assert len(illegal) == 2
    assert sum(e.reason.startswith("illegal group move") and "not one suit" in e.reason
               for e in illegal) == 1
    assert sum(e.kind == "deal" and e.reason.startswith("blocked deal") for e in illegal) == 1
    assert any(isinstance(e, NoteEvent) and e.undo is not None for e in game.events)
    assert game.header.deal == 1 and game.header.suits == SuitMode.TWO
    result = replay(read_log(SAMPLE_LOG))
    assert result.consistent and len(result.flags) == 2


def test_regeneration_command_writes_the_same_file(tmp_path: Path) -> None:
    out = tmp_path / "sample.jsonl"
    subprocess.run([sys.executable, "-m", "spider_vision.gamelog.sample", str(out)],
                   cwd=REPO, check=True, timeout=120)
    assert out.read_bytes() == SAMPLE_LOG.read_bytes()


def test_random_games_depend_on_their_seed() -> None:
    one = random_game(3, SuitMode.TWO, seed=1, moves=30)
    assert one == random_game(3, SuitMode.TWO, seed=1, moves=30)
    assert one != random_game(3, SuitMode.TWO, seed=2, moves=30)
