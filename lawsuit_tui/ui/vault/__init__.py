"""The credential vault: the status grid and the credential form."""
