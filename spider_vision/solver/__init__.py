"""Full-information solver: find a winning line when every card is known."""

from __future__ import annotations

from spider_vision.solver.solving import (
    SolveLimits,
    SolveResult,
    SolverError,
    native_available,
    solve,
)

__all__ = ["SolveLimits", "SolveResult", "SolverError", "native_available", "solve"]
