"""``python -m compoworld``: the command line."""

from compoworld.cli import main

main()
