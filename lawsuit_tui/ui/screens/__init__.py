"""Screens of the app: one module per destination, plus the screens they push."""
