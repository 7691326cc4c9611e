"""Count: lawsuits matching a filter, for prospecting, and the history of counts."""
