"""Bridgehead's project settings package; importing it loads the Celery app."""

from config.celery import app as celery_app

__all__ = ("celery_app",)
