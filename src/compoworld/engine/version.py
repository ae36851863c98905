"""The package's version, which also enters every catalog fingerprint."""

__all__ = ["__version__"]

__version__ = "0.1.0"
