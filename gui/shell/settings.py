"""What the app remembers between runs (QSettings), behind a few typed helpers.

Tests pass their own ``QSettings`` (an INI file in a temp folder), so they
never touch the user's real configuration.
"""

from __future__ import annotations

from PySide6.QtCore import QSettings

ORGANIZATION = "AutogradPlayground"
APPLICATION = "Autograd Playground"
MAX_RECENT = 8


def default_settings() -> QSettings:
    return QSettings(ORGANIZATION, APPLICATION)


class AppSettings:
    """Typed access to the few keys the app stores."""

    def __init__(self, qsettings: QSettings | None = None):
        self.q = qsettings if qsettings is not None else default_settings()

    # ---- plain values

    def get_str(self, key: str, default: str = "") -> str:
        value = self.q.value(key, default)
        return str(value) if value is not None else default

    def get_bool(self, key: str, default: bool = False) -> bool:
        value = self.q.value(key, default)
        if isinstance(value, str):  # INI files store booleans as text
            return value.lower() in ("true", "1", "yes")
        return bool(value)

    def get_bytes(self, key: str):
        return self.q.value(key)

    def set(self, key: str, value) -> None:
        self.q.setValue(key, value)

    def sync(self) -> None:
        self.q.sync()

    # ---- recent files

    def recent_files(self) -> list[str]:
        value = self.q.value("recentFiles", [])
        if isinstance(value, str):  # one entry comes back as a bare string
            value = [value]
        return [str(v) for v in (value or []) if v]

    def add_recent_file(self, path: str) -> list[str]:
        files = [path, *[p for p in self.recent_files() if p != path]][:MAX_RECENT]
        self.q.setValue("recentFiles", files)
        return files

    def remove_recent_file(self, path: str) -> list[str]:
        files = [p for p in self.recent_files() if p != path]
        self.q.setValue("recentFiles", files)
        return files

    def clear_recent_files(self) -> None:
        self.q.setValue("recentFiles", [])
