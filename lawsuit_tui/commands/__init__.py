"""Subcommands of the `lawsuit-tui` CLI, one module each, imported only when run."""
