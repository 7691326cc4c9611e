"""`lawsuit-tui request KEY [...] [--wait] [--json]`: create a request, optionally follow it."""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any

import orjson
from pydantic import ValidationError

from lawsuit_tui.commands.output import (
    EXIT_APPLICATION_ERROR,
    EXIT_BAD_INPUT,
    EXIT_OK,
    ProgressPrinter,
    bad_input_message,
    error_line,
)
from lawsuit_tui.commands.session import run_with_context
from lawsuit_tui.config import Settings
from lawsuit_tui.domain.bodies import CreateRequestBody, SearchBody
from lawsuit_tui.domain.identifiers import InvalidSearchKey, parse_search_key
from lawsuit_tui.domain.requests import CredentialRef, RequestRecord, SearchParams
from lawsuit_tui.domain.responses import ResponseRecord
from lawsuit_tui.i18n import _
from lawsuit_tui.services.context import ServiceContext
from lawsuit_tui.services.results import Completed, ResponseArrived, StatusChanged


def search_key(args: argparse.Namespace) -> tuple[str, str]:
    """(search_type, key to send): told by ``--search-type`` or by the key's shape (D115).
    Raises InvalidSearchKey or ValueError with a message for the person who typed it."""
    chosen = getattr(args, "search_type", None)
    text = str(args.key).strip()
    if chosen == "custom":
        return chosen, text
    if chosen == "name":
        if len(text) < 3:
            raise ValueError(_("a name needs at least 3 letters"))
        return chosen, text
    if chosen == "rji":
        digits = "".join(ch for ch in text if ch.isdigit())
        if not digits or any(ch.isalpha() for ch in text):
            raise ValueError(
                _("an RJI is the BNMP's number: digits only, not {key!r}").format(key=text)
            )
        return chosen, digits
    key = parse_search_key(text)
    if chosen in ("lawsuit_attachment", "execution_attachment"):
        if key.search_type != "lawsuit_cnj":
            raise ValueError(_("{kind} takes a CNJ number").format(kind=chosen))
        return chosen, key.key
    if chosen is not None and key.search_type != chosen:
        raise ValueError(
            _("{key} is a {found}, not a {wanted}").format(
                key=text, found=key.search_type, wanted=chosen
            )
        )
    return key.search_type, key.key


def build_body(args: argparse.Namespace, settings: Settings) -> CreateRequestBody:
    """The create body from the command line; raises InvalidSearchKey, ValueError or
    ValidationError."""
    search_type, key = search_key(args)
    customer_key = args.customer_key or settings.default_customer_key
    params = None
    attachment_id = getattr(args, "attachment_id", None)
    if args.customer_key is not None or customer_key != "*" or attachment_id:
        params = SearchParams(
            credential=CredentialRef(customer_key=customer_key)
            if args.customer_key is not None or customer_key != "*"
            else None,
            attachment_id=attachment_id,
        )
    search = SearchBody(
        search_type=search_type,
        search_key=key,
        response_type=args.response_type,
        on_demand=True if args.on_demand else None,
        cache_ttl_in_days=args.cache_ttl_days,
        search_params=params,
    )
    return CreateRequestBody(
        search=search,
        with_attachments=True if args.with_attachments else None,
        judit_ia=["summary"] if getattr(args, "ai_summary", False) else None,  # D80
    )


def response_line(response: ResponseRecord) -> str:
    kind = _("provisional") if response.is_cached else _("definitive")
    subject = ""
    if response.lawsuit is not None:
        subject = response.lawsuit.code
    elif response.application_error is not None:
        error = response.application_error
        said = error.details if isinstance(error.details, str) and error.details else error.message
        subject = str(error.code) if not said or said == error.code else f"{error.code}: {said}"
    elif isinstance(response.response_data, dict):
        data = response.response_data
        subject = str(data.get("code") or data.get("name") or "")
    return "  ".join(
        p
        for p in (response.response_id or "", str(response.response_type or ""), kind, subject)
        if p
    )


def record_line(record: RequestRecord) -> str:
    search = record.search
    what = f"{search.search_type} {search.search_key}" if search else ""
    return "  ".join(p for p in (record.request_id, str(record.status or ""), what) if p)


def run(args: argparse.Namespace, settings: Settings) -> int:
    try:
        body = build_body(args, settings)
    except (InvalidSearchKey, ValidationError, ValueError) as exc:
        error_line(bad_input_message(exc))
        return EXIT_BAD_INPUT

    async def use_case(ctx: ServiceContext) -> int:
        records = await ctx.requests.create(body)
        if not args.wait:
            if args.json:
                payload: Any = {"requests": [r.to_json_dict() for r in records]}
                sys.stdout.write(orjson.dumps(payload, option=orjson.OPT_INDENT_2).decode() + "\n")
            else:
                for record in records:
                    print(record_line(record))
            return EXIT_OK
        printer = ProgressPrinter()
        finals: dict[str, RequestRecord] = {r.request_id: r for r in records}
        responses: list[ResponseRecord] = []

        async def follow(request_id: str) -> None:
            said = ""  # the request's last line: its completion often repeats its last status
            async for event in ctx.requests.follow(request_id):
                if isinstance(event, StatusChanged | Completed):
                    line = record_line(event.record)
                    if line != said:
                        printer.line(line)
                        said = line
                    if isinstance(event, Completed):
                        finals[request_id] = event.record
                elif isinstance(event, ResponseArrived):
                    responses.append(event.response)
                    printer.line(response_line(event.response))

        await asyncio.gather(*(follow(r.request_id) for r in records))
        printer.finish()
        if args.json:
            payload = {
                "requests": [r.to_json_dict() for r in finals.values()],
                "responses": [r.to_json_dict() for r in responses],
            }
            sys.stdout.write(orjson.dumps(payload, option=orjson.OPT_INDENT_2).decode() + "\n")
        else:
            for record in finals.values():
                print(record_line(record))
            for response in responses:
                print(response_line(response))
        if responses and all(r.application_error is not None for r in responses):
            # D135: answered, but only with errors (secrecy, credentials...): not a success.
            return EXIT_APPLICATION_ERROR
        return EXIT_OK

    # A request is paid: it is not sent when nothing could keep it (session.py).
    return run_with_context(settings, use_case, needs_cache=True)
