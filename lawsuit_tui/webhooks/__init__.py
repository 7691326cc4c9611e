"""The webhook receiver: takes the service's callbacks and stores each one exactly once.

- :mod:`lawsuit_tui.webhooks.receiver`: ``create_receiver(...)``, the ASGI app (status rules,
  answering 2xx only once the delivery is durable in the cache).
- :mod:`lawsuit_tui.webhooks.server`: serving it with uvicorn, ``EmbeddedReceiver`` (inside
  the TUI's loop) and ``ThreadedServer`` (in a thread of its own).
- :mod:`lawsuit_tui.webhooks.token`: the secret path token (generated, saved, masked).
- :mod:`lawsuit_tui.webhooks.allowlist`: the sender allow-list (CIDRs).

What a delivery becomes in the cache is decided in :mod:`lawsuit_tui.services.webhooks`.
The standalone command is ``lawsuit-tui webhooks serve`` (:mod:`lawsuit_tui.commands.webhooks`).
"""
