"""domain layer of lawsuit-tui."""
