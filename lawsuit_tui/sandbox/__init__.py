"""The sandbox: the service itself, as an ASGI app over a generated world. It is the other side
of the wire: of the client's code it uses only ``domain/`` (and ``assets_dir`` for its data).

Its modules import one way, top to bottom (tests/sandbox/test_imports.py keeps it so):

- ``app``: ``create_app`` puts it together; ``ROUTE_MODULES`` lists the route families.
  ``middleware``: body limit, clock pumping, faults, rate-limit headers.
- ``routes/<family>``: one ``router`` per family of documented routes.
- ``auth``: route guards (API key, feature, bearer token, rate limit).
- ``dependencies``: how a route gets the state and the engines (``State``, ``Requests``,
  ``Trackings``), and ``sandbox_state(app)`` outside a route.
- ``tracking_engine`` -> ``request_engine``: what trackings and requests do over time.
- ``state``: ``SandboxState``, the one place for what the sandbox holds, and its
  transactions; ``persistence`` -> ``state_file``: the state kept on disk (D180), shared by
  every process that opens the file.
- below it, the parts it is made of, which import only each other: ``records``, ``counts``,
  ``searches``, ``keys``, ``background``, ``timed`` (when records are due), ``tables``,
  ``webhooks``, ``ratelimit``, ``tokens``, ``stats``, ``faults``, ``ids``, ``clock``,
  ``vault``, ``schemas``, ``errors``, ``pagination``, ``lawsuit_filters`` and ``world/`` (the
  generated data, from ``assets/sandbox``).
"""
