"""Benchmarks: `uv run python -m bench [NAME ...]` runs bench/NAME.py's main() (all if none)."""
