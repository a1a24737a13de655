"""``POST /v1/<game>/moves``: the legal moves of a position, for every game with a ``moves``
query, the request model built from the game's ``moves_args`` (:class:`MoveArg`), the same
arguments ``capsa moves GAME`` builds its flags from (``solver/cli/moves.py``).

A game's route module calls :func:`add_moves_route` with the answer's model (what ``moves``
returns); the body is read against the model built here (400 when it breaks it), the game's
``moves`` takes its fields as keyword arguments (the fields of a group such as ``rules`` as
well, flat, as the CLI gives them) and refuses what it cannot play (422).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Annotated, Any

from flask import Blueprint
from pydantic import BaseModel, Field, create_model

from api.endpoint import Body, json_endpoint
from api.offload import run
from api.schemas import Cards, Int, card, cards, choice, pattern_choice
from solver.games import get_game
from solver.games.base import GameInfo, MoveArg

# (request model, group) -> the model of that group's object
_GROUPS: dict[tuple[type[BaseModel], str], type[Body]] = {}
_REQUESTS: dict[tuple[str, str], type[Body]] = {}


def _info(game: str) -> GameInfo:
    info = get_game(game)
    if info.moves is None:
        raise ValueError(f"{info.name} has no moves query")
    return info


def _typed(arg: MoveArg) -> tuple[Any, bool]:
    """The pydantic type of ``arg``'s HTTP field, and whether that type describes itself (a
    card field's description says how to write the cards)."""
    if arg.flag:
        return bool, False
    if arg.cards is not None:
        low, high = arg.cards
        if arg.plays is not None:
            one = Annotated[Cards, cards(low, high, jokers=arg.jokers, description="one play")]
            return Annotated[list[one], Field(max_length=arg.plays)], False
        return Annotated[Cards, cards(low, high, jokers=arg.jokers, description=arg.help)], True
    if arg.card:
        return Annotated[str, card(jokers=arg.jokers)], False
    if arg.choices is not None:
        return Annotated[str, choice(arg.name, arg.choices)], False
    if arg.pattern is not None:
        return Annotated[str, pattern_choice(arg.what or arg.name, arg.pattern,
                                             arg.allowed or arg.pattern, arg.help)], True
    if arg.type is int:
        if arg.minimum is None and arg.maximum is None:
            return Int, False
        return Annotated[Int, Field(ge=arg.minimum, le=arg.maximum)], False
    return str, False


def field_type(game: str, name: str) -> Any:
    """The type of the HTTP field ``name`` of ``game``'s moves query (for another route of the
    game that takes the same value, as Da Bai Fen's ``/trick`` its trump)."""
    for arg in _info(game).moves_args:
        if arg.name == name:
            return _typed(arg)[0]
    raise KeyError(f"{game} has no moves argument {name!r}")


def _field(arg: MoveArg) -> tuple[Any, Any]:
    """``(type, FieldInfo)`` of ``arg``'s HTTP field for ``create_model``."""
    typ, described = _typed(arg)
    if arg.positional or arg.required:
        return typ, Field(...) if described else Field(..., description=arg.help)
    if arg.plays is not None:
        return typ, Field(default_factory=list, description=arg.help)
    if arg.flag:
        return typ, Field(default=bool(arg.default), description=arg.help)
    if arg.default is None:
        return typ | None, Field(default=None, description=arg.help)
    return typ, Field(default=arg.default, description=arg.help)


def moves_request(game: str, name: str, groups: Mapping[str, str] | None = None) -> type[Body]:
    """The request model of ``game``'s moves query, named ``name`` in the OpenAPI document, its
    fields in the order of ``moves_args``; the arguments of a group (``MoveArg.group``) make
    one optional object, a model named by ``groups`` (default: the group's name titled), at
    the place of the group's first argument. Built once per game and name."""
    key = (game, name)
    if key in _REQUESTS:
        return _REQUESTS[key]
    groups = dict(groups or {})
    fields: dict[str, Any] = {}
    members: dict[str, dict[str, Any]] = {}
    for arg in _info(game).moves_args:
        if arg.group is None:
            fields[arg.name] = _field(arg)
        else:
            if arg.group not in members:
                members[arg.group] = {}
                fields[arg.group] = None  # its place, filled below
            members[arg.group][arg.name] = _field(arg)
    models: dict[str, type[Body]] = {}
    for group, group_fields in members.items():
        models[group] = create_model(
            groups.get(group) or group.title(), __base__=Body, __module__=__name__,
            **group_fields)
        fields[group] = (models[group] | None, None)
    model: type[Body] = create_model(
        name, __base__=Body, __module__=__name__, **fields)
    for group, group_model in models.items():
        _GROUPS[(model, group)] = group_model
    _REQUESTS[key] = model
    return model


def group_model(request: type[BaseModel], group: str) -> type[Body]:
    """The model of the object ``group`` of a request model built by :func:`moves_request`
    (for another route of the game that takes the same options, as Big Two's ``/classify``
    its ``rules``)."""
    return _GROUPS[(request, group)]


def moves_kwargs(info: GameInfo, request: type[BaseModel], body: BaseModel) -> dict[str, Any]:
    """The keyword arguments of ``info.moves`` from a request body: every argument by its
    name, those of a group taken from its object (their defaults when it is left out)."""
    out: dict[str, Any] = {}
    dumped: dict[str, dict[str, Any]] = {}
    for arg in info.moves_args:
        if arg.group is None:
            out[arg.name] = getattr(body, arg.name)
            continue
        if arg.group not in dumped:
            given = getattr(body, arg.group)
            dumped[arg.group] = (given if given is not None
                                 else group_model(request, arg.group)()).model_dump()
        out[arg.name] = dumped[arg.group][arg.name]
    return out


def add_moves_route(bp: Blueprint, game: str, request: type[BaseModel],
                    response: type[BaseModel], *, summary: str, rule: str = "/moves",
                    offloaded: bool = False,
                    answer: Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]] | None
                    = None) -> None:
    """Register ``POST <prefix><rule>`` on ``bp``: ``game``'s moves query, its body read
    against ``request`` (:func:`moves_request`), its answer ``moves``'s (passed through
    ``answer(kwargs, result)`` when the HTTP answer says more) checked against ``response``.
    ``offloaded``: run it in the compute pool (a listing that can take tens of
    milliseconds)."""
    info = _info(game)
    endpoint = rule.strip("/").replace("/", "_")

    def view(body: BaseModel) -> dict[str, Any]:
        moves = get_game(game).moves
        assert moves is not None  # only games with a moves query get the route
        kwargs = moves_kwargs(info, request, body)
        result = run(moves, costly=offloaded, **kwargs)
        return answer(kwargs, result) if answer is not None else result

    view.__name__ = view.__qualname__ = endpoint
    view.__module__ = bp.import_name
    json_endpoint(bp, rule, request, response, summary=summary)(view)
