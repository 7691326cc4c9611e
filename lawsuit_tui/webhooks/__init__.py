"""webhooks layer of lawsuit-tui."""
