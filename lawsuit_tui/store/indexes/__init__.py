"""Derived indexes beside the cache: built from its tables, rebuilt at will, never the truth.

They read the tables' record helpers (what a lawsuit's key and numbers are), so they sit above
the tables; the engine and the tables never import them.
"""
