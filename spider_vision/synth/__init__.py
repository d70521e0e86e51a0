"""Synthetic photos and videos of Spider tables with exact ground truth.

``render(position, scene, seed)`` draws a still; ``render_game`` draws a
whole game as a video. There is no camera and no licensed photo set here, so
these renders feed model training, test fixtures and the bundled samples.
"""

from __future__ import annotations

from spider_vision.synth.faces import extra_style_names, style_names
from spider_vision.synth.layout import Table
from spider_vision.synth.render import Rendering, render, render_table
from spider_vision.synth.scene import Scene, random_scene
from spider_vision.synth.truth import CardTruth
from spider_vision.synth.video import GameVideo, random_play, render_game

__all__ = [
    "CardTruth", "GameVideo", "Rendering", "Scene", "Table",
    "extra_style_names", "random_play", "random_scene", "render", "render_game", "render_table", "style_names",
]
