"""The package version (one place; ``bgtools.__version__`` and the writers read it here)."""

__version__ = "0.1.0"
