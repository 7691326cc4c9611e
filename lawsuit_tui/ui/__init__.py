"""The user interface (Textual), organised by feature; see ``app.py`` for the shell."""
