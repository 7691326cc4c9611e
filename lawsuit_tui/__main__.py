"""`python -m lawsuit_tui` runs the same entry point as the `lawsuit-tui` script."""

from lawsuit_tui.cli import main

raise SystemExit(main())
