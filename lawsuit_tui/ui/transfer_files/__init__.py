"""The provider's transfer files: list, download with progress, mark used or broken (D123)."""
