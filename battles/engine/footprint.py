"""Measuring to a building: kept for importers; ``nearest_point`` now lives in ``geometry``."""

from __future__ import annotations

from .geometry import nearest_point

__all__ = ["nearest_point"]
