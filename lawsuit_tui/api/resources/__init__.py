"""The client's routes, one module per resource of the service (see ``base``)."""
