"""``python3 -m gui [SOURCE]``: the same as ``spider-vision gui``."""

from __future__ import annotations

import sys

from spider_vision.cli.main import main

if __name__ == "__main__":
    sys.exit(main(["gui", *sys.argv[1:]]))
