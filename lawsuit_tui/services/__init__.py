"""services layer of lawsuit-tui."""
