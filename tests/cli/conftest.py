"""Helpers for command-line tests: run ``main`` in-process and capture its output."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from spider_vision.cli.main import main


@dataclass
class Outcome:
    code: int
    out: str
    err: str


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]):
    """Call as ``cli("moves", spn)``: the exit code, stdout and stderr of one command."""

    def run(*argv: str) -> Outcome:
        try:
            code = main(list(argv))
        except SystemExit as exit_:
            code = int(exit_.code or 0)
        captured = capsys.readouterr()
        return Outcome(code, captured.out, captured.err)

    return run
