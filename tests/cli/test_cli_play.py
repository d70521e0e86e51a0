"""``play``: a terminal game driven through standard input, and its game log."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest

from spider_vision.cli.play import PlaySession
from spider_vision.engine import (
    Game,
    IllegalMoveError,
    Position,
    SuitMode,
    TableauMove,
    check_move,
    deal_position,
    legal_moves,
    parse_move,
    resolve_move,
)
from spider_vision.gamelog import NoteEvent, read_log, replay


def _play(cli, monkeypatch, tmp_path: Path, deal: int, suits: int, script: list[str]):
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(line + "\n" for line in script)))
    log = tmp_path / "game.jsonl"
    outcome = cli("play", "--deal", str(deal), "--suits", str(suits), "--log", str(log))
    return outcome, log


def _illegal(position: Position) -> tuple[str, str]:
    """A tableau move the rules refuse, with the reason."""
    for source in range(10):
        for target in range(10):
            move = TableauMove(source, target)
            if source == target or not position.columns[source].up:
                continue
            try:
                check_move(position, move)
            except IllegalMoveError as error:
                return str(move), str(error)
    raise AssertionError("every move is legal")


def test_scripted_game_with_undo_redo_and_an_illegal_move(cli, monkeypatch, tmp_path) -> None:
    start = deal_position(3, SuitMode.TWO)
    game = Game(start)
    first = game.legal_moves()[0]
    game.play(first)
    second = game.legal_moves()[0]
    game.play(second)
    bad, reason = _illegal(game.position)
    script = ["?", "m", str(first), "u", "u", "r", "r", str(second), bad, "zz", "q", "ab"]
    outcome, log = _play(cli, monkeypatch, tmp_path, 3, 2, script)
    assert outcome.code == 0 and outcome.err == ""
    out = outcome.out
    assert "Commands:" in out
    assert " ".join(str(m) for m in Game(start).legal_moves()) in out
    assert f"illegal: {reason}" in out
    assert "'zz' is not a move" in out
    assert "nothing to undo" in out and "nothing to redo" in out
    assert f"undid {first}" in out and f"redid {first}" in out
    assert out.rstrip().endswith(f"Game over after 2 moves, score {game.score}, 0 hints used.")
    assert "##" in out and "stock: 5 deals left" in out
    # The log replays, holds the undo note, and ends in the game's position.
    result = replay(read_log(log))
    assert result.consistent and result.damage is None
    assert result.position == game.position
    notes = [e.event for e in result.entries if isinstance(e.event, NoteEvent)]
    assert [(n.undo, n.after) for n in notes] == [(first, start.spn())]
    header = json.loads(log.read_text().splitlines()[0])
    assert (header["source"], header["deal"], header["start"]) == ("deal", 3, start.spn())
    assert cli("replay", str(log)).code == 0


@pytest.mark.parametrize(("deal", "suits"), [(1, 1), (17, 2), (123456, 4)])
def test_random_typed_games_replay_cleanly(cli, monkeypatch, tmp_path, deal, suits) -> None:
    rng = random.Random(deal)
    game = Game(deal_position(deal, SuitMode(suits)))
    script: list[str] = []
    shortened = 0
    for _ in range(60):
        roll = rng.random()
        if roll < 0.12 and game.history:
            game.undo()
            script.append("u")
            if rng.random() < 0.5:
                game.redo()
                script.append("r")
        elif roll < 0.22:
            bad, _ = _illegal(game.position)
            script.append(bad)
        else:
            moves = game.legal_moves()
            if not moves:
                break
            move = rng.choice(moves)
            text = str(move)
            # Leave the count out where the game can fill it in.
            if len(text) > 2 and text != "deal" and resolve_move(game.position, text[:2]) == move:
                text = text[:2]
                shortened += 1
            game.play(move)
            script.append(text)
    outcome, log = _play(cli, monkeypatch, tmp_path, deal, suits, script)  # ends at EOF, no q
    assert outcome.code == 0
    assert f"Game over after {game.moves_made} moves, score {game.score}, 0 hints used." in outcome.out
    result = replay(read_log(log))
    assert result.consistent, result.mismatch
    assert result.position == game.position
    assert "u" in script and "r" in script
    assert shortened or suits == 4  # four-suit random play rarely moves a group


def test_end_of_input_at_once_leaves_a_header_only_log(cli, monkeypatch, tmp_path) -> None:
    outcome, log = _play(cli, monkeypatch, tmp_path, 5, 4, [])
    assert outcome.code == 0
    assert len(log.read_text().splitlines()) == 1
    assert cli("replay", str(log)).code == 0


def test_play_without_log(cli, monkeypatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("m\nq\n"))
    outcome = cli("play", "--deal", "2", "--suits", "1")
    assert outcome.code == 0 and "Game over after 0 moves, score 500, 0 hints used." in outcome.out


NEAR_WIN = "/".join(["|KsQsJsTs9s8s7s6s5s4s3s2s", "|As"] + ["|"] * 8) + " - sssssss 1"
NEAR_LOSS = "4|Ks/4|Ks/3|Js/3|Js/3|9s/3|9s/3|7s/3|7s/3|5s/3|5s KsKsJsJs9s9s7s7s5s5s ssss 1"


@pytest.mark.parametrize(
    ("spn", "command", "words", "goes_on"),
    [
        (NEAR_WIN, "ba", "You won! All eight runs removed in 1 moves, score 599.", False),
        (NEAR_LOSS, "deal", "No legal move and no stock left: this game is lost", True),
        (NEAR_LOSS, "ab", "illegal: ", True),
    ],
)
def test_win_and_loss_are_announced(capsys, spn, command, words, goes_on) -> None:
    session = PlaySession(Game(Position.from_spn(spn)), 0, None)
    assert session.handle(command) == goes_on
    out = capsys.readouterr().out
    assert words in out
    if command == "ba":
        assert "a run of spades was completed and removed" in out


def test_real_subprocess_with_piped_input(tmp_path: Path) -> None:
    import subprocess
    import sys

    log = tmp_path / "game.jsonl"
    first = str(Game(deal_position(8, SuitMode.FOUR)).legal_moves()[0])
    done = subprocess.run(
        [sys.executable, "-m", "spider_vision", "play", "--deal", "8", "--suits", "4",
         "--log", str(log)],
        input=f"{first}\nu\nr\nxx\nq\n", capture_output=True, text=True, timeout=60,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert done.returncode == 0 and done.stderr == ""
    assert "Game over after 1 move, score 499, 0 hints used." in done.stdout
    checked = subprocess.run(
        [sys.executable, "-m", "spider_vision", "replay", str(log)],
        capture_output=True, text=True, timeout=60, cwd=Path(__file__).resolve().parents[2],
    )
    assert checked.returncode == 0, checked.stderr
    assert parse_move(first)[0] == read_log(log).events[0].event.move  # type: ignore[union-attr]


def test_a_hint_names_a_legal_move_and_is_counted(cli, monkeypatch) -> None:
    start = deal_position(3, 2)
    monkeypatch.setattr("sys.stdin", io.StringIO("h\nq\n"))
    outcome = cli("play", "--deal", "3", "--suits", "2")
    hint_line = next(line for line in outcome.out.splitlines() if line.startswith("hint: "))
    move_text = hint_line[len("hint: ") :].split(",")[0]
    assert parse_move(move_text)[0] in legal_moves(start)
    assert outcome.out.rstrip().endswith("Game over after 0 moves, score 500, 1 hint used.")
