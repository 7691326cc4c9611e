"""The sandbox's route families, one module with one ``router`` each, mounted by
``app.create_app`` in the order of ``app.ROUTE_MODULES``."""
