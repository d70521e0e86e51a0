"""Fitting and measuring the win-chance model on recorded games."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from spider_vision.engine import SuitMode
from spider_vision.hint.chance import EstimateEvidence
from tests.bench import load_bench

win_chance_bench = load_bench("win_chance")
Example = win_chance_bench.Example


def _examples(weights: tuple[float, ...], count: int, seed: int) -> list:
    """Examples whose outcomes are drawn from the logistic model with ``weights``."""
    rng = random.Random(seed)
    examples = []
    for index in range(count):
        wins = rng.randint(0, 8)
        undecided = rng.randint(0, 8 - wins)
        evidence = EstimateEvidence(SuitMode.TWO, 8, wins, undecided, rng.randint(0, 44), rng.randint(0, 5), 0)
        chance = 1 / (1 + math.exp(-sum(w * x for w, x in zip(weights, evidence.features()))))
        examples.append(Example(index, evidence, rng.random() < chance))
    return examples


def test_the_fit_finds_the_weights_the_outcomes_were_drawn_from() -> None:
    truth = (-2.0, 3.0, 1.0, -1.5, 0.5, 0.0)
    fitted = win_chance_bench.fit(_examples(truth, 20000, 1), penalty=0.0)
    assert fitted[:5] == pytest.approx(truth[:5], abs=0.25)


def test_held_out_chances_beat_the_raw_share_when_the_share_is_biased() -> None:
    examples = _examples((-3.0, 6.0, 0.0, 0.0, 0.0, 0.0), 4000, 2)
    pairs = win_chance_bench.held_out(examples, 2)
    assert sorted(example.deal for example, _ in pairs) == list(range(4000))
    raw = win_chance_bench.score([(example, win_chance_bench.raw_low(example.evidence)) for example, _ in pairs])
    model = win_chance_bench.score(pairs)
    assert model.log_loss < raw.log_loss and model.brier < raw.brier


def test_scores_of_sure_and_even_chances() -> None:
    evidence = EstimateEvidence(SuitMode.ONE, 8, 8, 0, 0, 0, 0)
    won, lost = Example(1, evidence, True), Example(2, evidence, False)
    sure = win_chance_bench.score([(won, 1.0), (lost, 0.0)])
    assert sure.brier == 0.0 and sure.log_loss == pytest.approx(-math.log(0.99))
    even = win_chance_bench.score([(won, 0.5), (lost, 0.5)])
    assert even.brier == 0.25 and even.log_loss == pytest.approx(math.log(2))


def test_the_calibration_table_bins_by_chance() -> None:
    evidence = EstimateEvidence(SuitMode.ONE, 8, 8, 0, 0, 0, 0)
    pairs = [(Example(1, evidence, True), 0.9), (Example(2, evidence, False), 0.1), (Example(3, evidence, True), 1.0)]
    rows = win_chance_bench.calibration_table(pairs)
    assert [(label, count) for label, count, _, _ in rows] == [("0%-20%", 1), ("80%-100%", 2)]
    assert rows[1][2] == pytest.approx(0.95) and rows[1][3] == 1.0


def test_load_keeps_the_last_record_of_a_game(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    games = [
        {"deal": 5, "suits": 2, "won": False, "ending": "resigned", "evidence": [[8, 0, 8, 30, 1, 0]]},
        {"deal": 5, "suits": 2, "won": True, "ending": "won", "evidence": [[8, 6, 2, 30, 1, 0], [8, 8, 0, 0, 0, 7]]},
        {"deal": 6, "suits": 4, "won": False, "ending": "lost", "evidence": []},
    ]
    path.write_text("\n".join(json.dumps(game) for game in games) + "\n\n", encoding="utf-8")
    examples = win_chance_bench.load([path])
    assert [(example.deal, example.won, example.evidence.wins) for example in examples] == [(5, True, 6), (5, True, 8)]
    assert examples[1].evidence == EstimateEvidence(SuitMode.TWO, 8, 8, 0, 0, 0, 7)


def test_load_names_the_line_that_is_not_a_game(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    path.write_text('{"deal": 1}\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"games.jsonl:1: not a game record"):
        win_chance_bench.load([path])


@pytest.mark.parametrize(
    ("evidence", "expected"),
    [
        (EstimateEvidence(SuitMode.TWO, 8, 0, 0, 20, 2, 1), 0.0),
        (EstimateEvidence(SuitMode.TWO, 0, 0, 0, 20, 2, 1), None),
    ],
)
def test_shipped_gives_the_library_chance_and_skips_hints_without_one(
    evidence: EstimateEvidence, expected: float | None
) -> None:
    hopeful = Example(1, EstimateEvidence(SuitMode.TWO, 8, 6, 1, 10, 1, 3), True)
    pairs = win_chance_bench.shipped([hopeful, Example(2, evidence, False)])
    chances = [chance for _, chance in pairs]
    assert 0.5 < chances[0] < 1.0
    assert chances[1:] == ([] if expected is None else [expected])


def test_load_keeps_a_game_recorded_in_two_files(tmp_path: Path) -> None:
    paths = [tmp_path / "fast.jsonl", tmp_path / "slow.jsonl"]
    for path, won in zip(paths, (False, True)):
        game = {"deal": 7, "suits": 1, "won": won, "ending": "won", "evidence": [[8, 4, 4, 20, 2, 0]]}
        path.write_text(json.dumps(game) + "\n", encoding="utf-8")
    examples = win_chance_bench.load(paths)
    assert [(example.deal, example.won) for example in examples] == [(7, False), (7, True)]


def test_games_only_to_fit_join_the_fits_but_are_never_measured(tmp_path: Path) -> None:
    measured, fit_only = tmp_path / "new.jsonl", tmp_path / "old.jsonl"
    row = [8, 4, 4, 20, 2, 0]
    measured.write_text(
        "".join(json.dumps({"deal": deal, "suits": 2, "won": deal % 2 == 0, "evidence": [row]}) + "\n" for deal in (1, 2)),
        encoding="utf-8",
    )
    fit_only.write_text(
        "".join(json.dumps({"deal": deal, "suits": 2, "won": True, "evidence": [row] * 50}) + "\n" for deal in (1, 2)),
        encoding="utf-8",
    )
    examples = win_chance_bench.load([measured], [fit_only])
    assert [(example.deal, example.record, example.measured) for example in examples[:3]] == [
        (1, 0, True), (1, 1, False), (1, 1, False)
    ]
    pairs = win_chance_bench.held_out(examples, 2)
    assert [(example.deal, example.won) for example, _ in pairs] == [(2, True), (1, False)]
    alone = win_chance_bench.held_out([example for example in examples if example.measured], 2)
    # Fitted with 50 won games of the other deal's fold, both measured hints are given a higher chance.
    assert all(joint > solo for (_, joint), (_, solo) in zip(pairs, alone, strict=True))
    assert [example.deal for example, _ in win_chance_bench.shipped(examples)] == [1, 2]
