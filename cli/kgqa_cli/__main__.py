"""`python -m kgqa_cli` runs the CLI."""

from kgqa_cli.main import main

main()
