"""api layer of lawsuit-tui."""
