"""The inbox of movements (F7): screen, virtual list, filters and export forms."""
