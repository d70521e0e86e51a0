"""``python -m spider_vision`` runs the command line."""

from __future__ import annotations

from spider_vision.cli.main import main

raise SystemExit(main())
