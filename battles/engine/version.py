"""The engine version, written into every log: same scenario + seed + version = same log."""

from __future__ import annotations

ENGINE_VERSION = "1.21.0"
