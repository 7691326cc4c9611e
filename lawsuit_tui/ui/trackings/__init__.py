"""Trackings: the list, one tracking's detail, its form, and the notices of new movements."""
