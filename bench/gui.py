"""How the window keeps up: frames shown per second, the longest stall of the UI thread, hint delay.

    python3 bench/gui.py [--source sample_images/game.mp4] [--speed 0] [--frames N]

Runs the real window offscreen on a video (by default the bundled sample, as
fast as it can be read), with settings and game logs in a temporary folder.
A 20 ms timer on the UI thread measures how late it fires: the longest delay
is the longest the window was unresponsive. Hint delay is the time from a new
position on the board to its hint being shown.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PySide6.QtCore import QSettings, QTimer  # noqa: E402

from gui.app import application  # noqa: E402
from gui.main_window import MainWindow  # noqa: E402
from gui.settings import Settings  # noqa: E402
from gui.sources import sample_video  # noqa: E402

TICK_MS = 20


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", default=str(sample_video()))
    parser.add_argument("--speed", type=float, default=0.0, help="video speed (0: as fast as it can be read)")
    parser.add_argument("--frames", type=int, default=0, help="stop after N frames (0: the whole video)")
    args = parser.parse_args()
    app = application()
    folder = Path(tempfile.mkdtemp(prefix="spider-vision-gui-bench-"))
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(folder / "config"))
    settings = Settings.open()
    settings.games_folder = folder / "games"
    window = MainWindow(settings, speed=args.speed)
    window.resize(1600, 900)
    window.show()
    stalls: list[float] = []
    last = [time.perf_counter()]
    asked: dict[str, float] = {}
    delays: list[float] = []

    def tick() -> None:
        now = time.perf_counter()
        stalls.append((now - last[0]) * 1000 - TICK_MS)
        last[0] = now

    def hint_ready(key: str, _advice: object) -> None:
        if key in asked:
            delays.append(time.perf_counter() - asked.pop(key))

    original = window._show_position

    def show_position(position, moves, score) -> None:  # type: ignore[no-untyped-def]
        if position is not None and position.spn() != window._position_key:
            asked[position.spn()] = time.perf_counter()
        original(position, moves, score)

    window._show_position = show_position  # type: ignore[method-assign]
    window.hints.ready.connect(hint_ready)
    timer = QTimer()
    timer.timeout.connect(tick)
    timer.start(TICK_MS)
    started = time.perf_counter()
    window.start(args.source)

    def check() -> None:
        done = window.state_label.text() in ("Ended", "Stopped") or (args.frames and window.frames_shown >= args.frames)
        if done:
            app.quit()

    watcher = QTimer()
    watcher.timeout.connect(check)
    watcher.start(100)
    app.exec()
    seconds = time.perf_counter() - started
    window.shutdown()
    worker_frames = window.frames_shown
    print(f"source {Path(args.source).name}, speed {args.speed:g}, {os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.1f}")
    print(f"frames shown {worker_frames} in {seconds:.1f} s: {worker_frames / seconds:.1f} frames/s")
    print(f"UI thread: longest stall {max(stalls):.0f} ms, 99th percentile "
          f"{statistics.quantiles(stalls, n=100)[98]:.0f} ms over {len(stalls)} ticks of {TICK_MS} ms")
    if delays:
        print(f"hints: {len(delays)} shown, delay median {statistics.median(delays):.2f} s, "
              f"longest {max(delays):.2f} s (hint time {settings.hint_seconds:g} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
