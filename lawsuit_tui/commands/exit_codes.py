"""The exit codes of every command: one table, shown in ``--help`` and the README (D135).

0, 1 and 2 are as they always were; the others tell a script what a bare "it failed" would
hide. Imports only the translation module: ``--help`` prints it before anything heavy loads.
"""

from __future__ import annotations

import textwrap

from lawsuit_tui.i18n import N_, _

__all__ = [
    "EXIT_APPLICATION_ERROR",
    "EXIT_BAD_INPUT",
    "EXIT_CODES",
    "EXIT_DAMAGED",
    "EXIT_NOTHING_MATCHED",
    "EXIT_NOT_KEPT",
    "EXIT_OK",
    "EXIT_REFUSED",
    "EXIT_STDOUT_CLOSED",
    "exit_codes_epilog",
]

# D135: the exit codes of every command.
EXIT_OK = 0
EXIT_REFUSED = 1
EXIT_BAD_INPUT = 2
EXIT_APPLICATION_ERROR = 3
EXIT_NOTHING_MATCHED = 4
EXIT_NOT_KEPT = 5
EXIT_DAMAGED = 6
EXIT_STDOUT_CLOSED = 141  # 128 + SIGPIPE, as a C program stopped by `| head` ends

EXIT_CODES: tuple[tuple[int, str], ...] = (
    (EXIT_OK, N_("done")),
    (
        EXIT_REFUSED,
        N_(
            "the service refused or failed, or the cache or a file could not be used "
            "(one line on standard error says which)"
        ),
    ),
    (EXIT_BAD_INPUT, N_("bad usage or input (one line, before any call)")),
    (
        EXIT_APPLICATION_ERROR,
        N_(
            "the service answered, but only with application errors (secrecy, not found "
            "at the court, credentials...)"
        ),
    ),
    (
        EXIT_NOTHING_MATCHED,
        N_(
            "nothing matched what was named or searched (a search without a hit, an id the "
            "service does not know, export --request-id of a request not cached)"
        ),
    ),
    (
        EXIT_NOT_KEPT,
        N_(
            "done at the service (perhaps paid), but not all of it could be kept in the "
            "cache: the ids are on standard error and in the record of paid calls; "
            "'lawsuit-tui cache recover' brings them in"
        ),
    ),
    (
        EXIT_DAMAGED,
        N_(
            "done, but the cache had damaged files: this run found and set them aside, or "
            "(an export) they are not yet acknowledged and what they held may be missing; "
            "'lawsuit-tui cache verify' lists them"
        ),
    ),
    (
        EXIT_STDOUT_CLOSED,
        N_("standard output was closed by its reader (| head): the rest was not written"),
    ),
)


def exit_codes_epilog(width: int = 79) -> str:
    """The table of exit codes, for the end of ``--help``: one entry a code, wrapped to
    ``width`` columns under its text."""
    lines = [_("exit codes:")]
    for code, text in EXIT_CODES:
        lines.extend(
            textwrap.wrap(
                _(text),
                width=width,
                initial_indent=f"  {code}  ",
                subsequent_indent=" " * (len(str(code)) + 4),
                break_on_hyphens=False,
            )
        )
    return "\n".join(lines)
