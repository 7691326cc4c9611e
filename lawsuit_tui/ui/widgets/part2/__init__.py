"""Widgets and dialogs of the trackings, vault and count screens (TUI part 2)."""
