"""The completion notice (D69): the form of "every response of this request was delivered"
shown by the Portuguese callbacks page, a response of its own::

    {"response_type": "application_info",
     "response_data": {"code": 600, "message": "REQUEST_COMPLETED"}}

It completes its request and is not a result. Plain Python (no models): the webhook receiver
tests deliveries with it before anything else is imported.
"""

from __future__ import annotations

__all__ = ["COMPLETION_CODE", "COMPLETION_MESSAGE", "COMPLETION_TYPE", "is_completion_notice"]

COMPLETION_TYPE = "application_info"
COMPLETION_CODE = 600
COMPLETION_MESSAGE = "REQUEST_COMPLETED"


def is_completion_notice(response_type: object, response_data: object) -> bool:
    """Whether a response is the completion notice: ``application_info`` with ``code`` 600
    (integer or string) or ``message`` ``REQUEST_COMPLETED`` (any case)."""
    if str(response_type or "").strip().casefold() != COMPLETION_TYPE:
        return False
    if isinstance(response_data, dict):
        code, message = response_data.get("code"), response_data.get("message")
    else:
        code = getattr(response_data, "code", None)
        message = getattr(response_data, "message", None)
    numbered = isinstance(code, int | str) and not isinstance(code, bool)
    if numbered and str(code).strip() == str(COMPLETION_CODE):
        return True
    return isinstance(message, str) and message.strip().upper() == COMPLETION_MESSAGE
