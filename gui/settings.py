"""Settings remembered between runs, in the platform's config folder (an INI file, user scope)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, TypeVar

from PySide6.QtCore import QByteArray, QSettings, QStandardPaths

__all__ = ["ORGANISATION", "APPLICATION", "Settings"]

ORGANISATION = "SpiderVision"
APPLICATION = "spider-vision"
HINT_TIMES = (0.2, 0.5, 1.0, 2.0)

T = TypeVar("T")


@dataclass
class Settings:
    """Typed access to the QSettings store (``QSettings.setPath`` moves it, as the tests do)."""

    store: QSettings

    @classmethod
    def open(cls) -> Settings:
        return cls(QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, ORGANISATION, APPLICATION))

    @property
    def path(self) -> Path:
        return Path(self.store.fileName())

    def _get(self, key: str, default: T, kind: Callable[[Any], T]) -> T:
        """The stored value made ``kind``, or ``default`` when it is missing or cannot be."""
        value = self.store.value(key, default)
        try:
            return kind(value)
        except (TypeError, ValueError):
            return default

    @property
    def suits(self) -> int | None:
        """The suit mode chosen (1, 2, 4), or None to let the reader decide."""
        value = self._get("game/suits", 0, int)
        return value if value in (1, 2, 4) else None

    @suits.setter
    def suits(self, value: int | None) -> None:
        self.store.setValue("game/suits", value or 0)

    @property
    def hint_seconds(self) -> float:
        value = self._get("hint/seconds", 0.5, float)
        return value if value > 0 else 0.5

    @hint_seconds.setter
    def hint_seconds(self, value: float) -> None:
        self.store.setValue("hint/seconds", float(value))

    @property
    def board_below(self) -> bool:
        """The board drawn below the picture instead of beside it."""
        return str(self.store.value("window/board_below", "false")).lower() in ("true", "1")

    @board_below.setter
    def board_below(self, value: bool) -> None:
        self.store.setValue("window/board_below", bool(value))

    @property
    def last_source(self) -> str:
        return self._get("source/last", "", str)

    @last_source.setter
    def last_source(self, value: str) -> None:
        self.store.setValue("source/last", value)

    @property
    def last_folder(self) -> str:
        return self._get("source/folder", "", str)

    @last_folder.setter
    def last_folder(self, value: str) -> None:
        self.store.setValue("source/folder", value)

    @property
    def calibration(self) -> str:
        """The deck calibration file in use ('' for none)."""
        return str(self._get("vision/calibration", "", str))

    @calibration.setter
    def calibration(self, value: str) -> None:
        self.store.setValue("vision/calibration", value)

    @property
    def games_folder(self) -> Path:
        """Where live games write their logs (the platform's app data folder unless set)."""
        value = str(self._get("games/folder", "", str))
        if value:
            return Path(value)
        base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
        return Path(base or Path.home() / ".spider-vision") / "games"

    @games_folder.setter
    def games_folder(self, value: Path | str) -> None:
        self.store.setValue("games/folder", str(value))

    @property
    def config_folder(self) -> Path:
        """The folder of the settings file (calibrations are saved there)."""
        return self.path.parent

    def geometry(self) -> QByteArray | None:
        value = self.store.value("window/geometry")
        return value if isinstance(value, QByteArray) else None

    def window_state(self) -> QByteArray | None:
        value = self.store.value("window/state")
        return value if isinstance(value, QByteArray) else None

    def save_window(self, geometry: QByteArray, state: QByteArray) -> None:
        self.store.setValue("window/geometry", geometry)
        self.store.setValue("window/state", state)

    def sync(self) -> None:
        self.store.sync()
