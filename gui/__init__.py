"""The PySide6 desktop application of Spider Vision."""
