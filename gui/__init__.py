"""The PySide6 desktop application of Spider Vision: ``spider-vision gui`` or ``python3 -m gui``.

A thin layer over the library: ``main_window`` wires the views (``live_view``,
``board_view``, ``side_panel``, ``banner``, ``control_bars``) and the menus
(``menus``) to the workers (``workers``: models, tracking, hints, one-off
tasks) and to replay mode (``replay_model``). Text for the player is in
``messages``; Qt stays in this package.
"""
