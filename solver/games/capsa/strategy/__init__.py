"""Opponent models: the self-play row tables of the ``table`` strategy, and their training."""
