"""store layer of lawsuit-tui."""
