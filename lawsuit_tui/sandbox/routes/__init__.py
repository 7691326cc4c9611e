"""Route modules of the sandbox, one ``router`` each (included by ``app.create_app``)."""
