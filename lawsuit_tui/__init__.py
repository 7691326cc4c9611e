"""lawsuit-tui: a terminal workstation for a Brazilian court lawsuit data service."""

__version__ = "0.1.0"
