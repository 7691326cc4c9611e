"""`lawsuit-tui response ID [--json]`: one response by its id (D90), from a script.

The response is read from the service and kept in the cache. Exit codes as every command:
0 shown; 1 the service refused (an unknown id is a 404: "Not found ... RESPONSE_NOT_FOUND");
2 bad input (an empty id), before any call.
"""

from __future__ import annotations

import argparse
import sys

import orjson

from lawsuit_tui.commands.lookup import lawsuit_line
from lawsuit_tui.commands.output import EXIT_BAD_INPUT, EXIT_OK, error_line
from lawsuit_tui.commands.request import response_line
from lawsuit_tui.commands.session import nothing_named, run_with_context
from lawsuit_tui.config import Settings
from lawsuit_tui.domain.formatting import format_datetime
from lawsuit_tui.domain.vocabulary import RESPONSE_TYPE_WORDS, word
from lawsuit_tui.i18n import _
from lawsuit_tui.services.context import ServiceContext
from lawsuit_tui.services.errors import NotFound

# Response ids are UUIDs (D3); anything this long or with spaces inside was pasted wrong.
_MAX_ID = 200


def run(args: argparse.Namespace, settings: Settings) -> int:
    response_id = str(args.response_id).strip()
    if not response_id or len(response_id) > _MAX_ID or any(c.isspace() for c in response_id):
        error_line(_("a response id is one word, as the service gave it (a UUID)"))
        return EXIT_BAD_INPUT

    async def use_case(ctx: ServiceContext) -> int:
        try:
            response = await ctx.requests.response(response_id)
        except NotFound as exc:  # D90: RESPONSE_NOT_FOUND
            return nothing_named(exc)
        if args.json:
            payload = response.to_json_dict()
            sys.stdout.write(orjson.dumps(payload, option=orjson.OPT_INDENT_2).decode() + "\n")
            return EXIT_OK
        print(response_line(response))
        kind = word(RESPONSE_TYPE_WORDS, response.response_type)
        print(_("kind: {kind}").format(kind=kind))
        if response.request_id:
            print(_("request: {id}").format(id=response.request_id))
        if response.created_at:
            print(_("received: {when}").format(when=format_datetime(response.created_at)))
        if response.lawsuit is not None:
            print(lawsuit_line(response.lawsuit))
        return EXIT_OK

    return run_with_context(settings, use_case)
