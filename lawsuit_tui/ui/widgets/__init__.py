"""Reusable widgets: the frame of every screen, the paged table, the form kit, theme colours."""
