"""Reads: queries on the read model, the downloadable game, and its verification."""
