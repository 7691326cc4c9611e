"""ui layer of lawsuit-tui."""
