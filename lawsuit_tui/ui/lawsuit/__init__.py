"""The lawsuit: its header and tree, the texts that sum it up, its export."""
