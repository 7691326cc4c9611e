"""The app shell's parts: opening the services, the status line's state, following requests."""
