"""sandbox layer of lawsuit-tui."""
