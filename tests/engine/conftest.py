"""Engine tests run without Django: ``pytest -p no:django tests/engine``."""
