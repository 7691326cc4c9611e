"""Helpers shared by the tests (the UI harness on the in-process sandbox)."""
