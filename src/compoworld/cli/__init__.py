"""The ``compoworld`` command line: one typer app, one module per command group.

The top layer: it may import every part of the package, and nothing imports it.
"""

from compoworld.cli.app import app, main

__all__ = ["app", "main"]
