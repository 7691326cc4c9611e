"""Requests: the list, a request's responses, and the form that creates one."""
