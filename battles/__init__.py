"""Battles: scenarios, the queue that fights them, and the Team Bravo engine (``engine/``)."""

from .compiled import guard

guard()  # Before anything imports the engine: a stale compiled build must not run.
