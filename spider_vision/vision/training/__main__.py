"""``python3 -m spider_vision.vision.training``: the one training command."""

from __future__ import annotations

import sys

from spider_vision.vision.training.train import main

sys.exit(main())
