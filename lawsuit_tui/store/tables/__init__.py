"""The tables of the cache, one module each (or one per group written together).

A table module declares its :class:`~lawsuit_tui.store.records.TableSpec` (and, when it
answers by something other than the key, a :class:`~lawsuit_tui.store.records.TableIndex`),
and a class built on the engine that registers them and offers the table's operations. It
imports the engine's modules and, when one batch spans two tables, the table it joins;
never the facade (``store.py``). See the package docstring of :mod:`lawsuit_tui.store`
for how to add one.
"""
