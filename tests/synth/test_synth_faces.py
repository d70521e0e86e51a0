"""Deck styles: every font loads, the further-font decks stay out of random scenes, and each index's
suit pip is found under its rank."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from spider_vision.engine import Card
from spider_vision.synth import extra_style_names, random_scene, style_names
from spider_vision.synth.faces import _EXTRA_FONT_FILES, _FONT_FILES, _font_family, deck_for


@pytest.mark.parametrize("font_file", _FONT_FILES + _EXTRA_FONT_FILES)
def test_every_font_loads(font_file: str) -> None:
    assert _font_family(font_file), f"{font_file} did not load"


@pytest.mark.parametrize("name, font_file", [("extra-0", "Lato-Bold.ttf"), ("extra-5", "LinLibertine_RB.otf"),
                                             ("extra-16", "RobotoCondensed-Bold.ttf")])
def test_extra_decks_draw_in_their_fonts(name: str, font_file: str) -> None:
    deck = deck_for(name)
    assert deck.name == name
    assert deck.design.font_file == font_file  # type: ignore[attr-defined]
    assert deck.face(Card.parse("7h")).indices


def test_extra_decks_are_apart_from_the_scene_styles() -> None:
    extra = set(extra_style_names())
    assert extra and not extra & set(style_names())
    assert all(random_scene(seed, 320, 180).deck not in extra for seed in range(200))


@pytest.mark.parametrize("name", ["kennard-2color", "kennard-4color-bf", "proc-4", "proc-44", "extra-7"])
@pytest.mark.parametrize("card", ["Ts", "Qh", "Ad", "7c"])
def test_the_suit_pip_is_the_foot_of_the_index(name: str, card: str) -> None:
    """The pip box spans the index's lower part: under the rank, inside the index, down to its bottom."""
    face = deck_for(name).face(Card.parse(card))
    assert face.suit_pip is not None
    u0, v0, u1, v1 = face.indices[0]
    p0, q0, p1, q1 = face.suit_pip
    assert u0 - 1e-6 <= p0 < p1 <= u1 + 1e-6
    assert q1 == pytest.approx(v1)
    assert 0.4 < (q0 - v0) / (v1 - v0) < 0.8


@pytest.mark.parametrize("name", ["extra-x", "extra-", "proc-x"])
def test_unknown_styles_are_refused(name: str) -> None:
    with pytest.raises(ValueError, match="unknown card style"):
        deck_for(name)


def test_a_window_can_open_after_a_deck_was_drawn() -> None:
    """Drawing a deck makes Qt's application; a window opened later in the same process (the GUI, its
    tests after the renderer's) needs that application to be a widgets one, else Qt aborts."""
    script = ("from spider_vision.engine import Card\n"
              "from spider_vision.synth.faces import deck_for\n"
              "deck_for('proc-3').face(Card.parse('Qh'))\n"
              "from PySide6.QtWidgets import QWidget\n"
              "QWidget().show()\n"
              "print('window')\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert done.returncode == 0 and done.stdout.strip() == "window", done.stderr[-500:]
