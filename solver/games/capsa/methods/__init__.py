"""The three opponent models of :func:`solver.games.capsa.arrange.arrange`, one module each:
``table`` (the self-play row tables), ``montecarlo`` (sampled deals of the unseen cards) and
``known`` (given opponents); ``exact`` is the exact scoring the last two share."""
