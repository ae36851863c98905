"""``python -m compoworld.cli``: the command line, as ``python -m compoworld``."""

from compoworld.cli.app import main

main()
