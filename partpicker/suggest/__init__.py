"""`suggest`: the provably cheapest valid build."""
