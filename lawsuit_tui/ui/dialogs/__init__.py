"""Dialogs: a yes/no question, a folder to save into, a long text, the keys of a screen."""
