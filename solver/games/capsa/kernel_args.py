"""How a set of rules becomes the scalar arguments the Capsa kernels take."""

from __future__ import annotations

import numpy as np

from solver.games.capsa import kernels as K
from solver.games.capsa.lookup import TABLES
from solver.games.capsa.rules import Rules

SCORING_CODE = {"one-six": K.ONE_SIX, "two-four": K.TWO_FOUR, "scoop-one": K.SCOOP_ONE,
                "basic": K.BASIC}


def kernel_params(rules: Rules) -> tuple[int, float, bool, bool]:
    """(scoring code, scoop bonus, net royalties, single royalty) as the kernels take them."""
    return (SCORING_CODE[rules.scoring], float(rules.scoop_bonus), rules.royalty_mode == "net",
            rules.single_royalty)


def royalties_grow(rules: Rules) -> bool:
    """True when each row's royalty never falls as the row gets stronger."""
    roy = rules.royalty_array
    front = TABLES[rules.wheel].is_front
    return all(bool(np.all(np.diff(roy[r][front if r == 0 else ~front]) >= 0)) for r in range(3))
