"""``render_seed``: the table of a seed, in a chosen deck when one is named."""

from __future__ import annotations

from dataclasses import replace

import pytest

from spider_vision.vision.training.dataset import render_seed


@pytest.mark.parametrize(("seed", "deck"), [(1000, "proc-4"), (1001, "kennard-2color"), (1002, "extra-5")])
def test_a_named_deck_changes_only_the_deck(seed: int, deck: str) -> None:
    drawn = render_seed(seed, width=320, height=180)
    named = render_seed(seed, width=320, height=180, deck=deck)
    assert named.scene.deck == deck
    assert replace(named.scene, deck=drawn.scene.deck) == drawn.scene
    assert named.spn == drawn.spn
