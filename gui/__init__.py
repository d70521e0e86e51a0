"""The PySide6 desktop application of Spider Vision: ``spider-vision gui`` or ``python3 -m gui``.

A thin layer over the library: ``main_window`` wires the views (``live_view``,
``board_view``, ``side_panel``, ``banner``) to the workers (``workers``: models,
tracking, hints) and to replay mode (``replay_model``). Qt stays in this package.
"""
