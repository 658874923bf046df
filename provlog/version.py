"""The release of provlog (stores and JSON carry it); a leaf, so any layer may read it."""

__version__ = "0.1.0"
