"""Read a configuration value of the running app (services use this, never `flask`)."""

from __future__ import annotations

from typing import Any

from flask import current_app


def get(name: str, default: Any = None) -> Any:
    """The value of `name` in the current app's configuration."""
    return current_app.config.get(name, default)
