"""The pages' message catalogs: English, Bahasa Indonesia and Tiếng Việt.

A language's catalog is the union of the flat JSON files in its folder (``api/i18n/<lang>/``,
``key -> text`` with ``{name}`` placeholders); one file per area so that each page's strings
sit together, and a key in two files is refused at load, since which text won would depend on
the order the files were read. The catalogs are read once, on first use, and kept: they are
part of the package, not data that changes while the service runs.

The API's JSON stays English; only the pages and the rules help read these catalogs.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from solver.errors import InputError

LANGUAGES = ("en", "id", "vi")
DEFAULT = "en"
# What each language calls itself, for the picker (a player looks for their own language's name).
NATIVE_NAMES = MappingProxyType({"en": "English", "id": "Bahasa Indonesia", "vi": "Tiếng Việt"})
COOKIE = "lang"
ROOT = Path(__file__).resolve().parent
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


@dataclass(frozen=True)
class Catalog:
    """One language's messages and the file each key came from."""

    lang: str
    messages: Mapping[str, str]
    origin: Mapping[str, str]


def placeholders(text: str) -> frozenset[str]:
    """The ``{name}`` placeholders of a message.

    >>> sorted(placeholders("{who} plays {cards}"))
    ['cards', 'who']
    """
    return frozenset(_PLACEHOLDER.findall(text))


def read_catalog(folder: Path, lang: str) -> Catalog:
    """Merge the JSON files of ``folder``; a file that is not a flat object of strings, or a key
    found in two files, is an error naming the file."""
    messages: dict[str, str] = {}
    origin: dict[str, str] = {}
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            raise ValueError(f"{path.name} ({lang}): a catalog is a JSON object")
        for key, text in data.items():
            if not isinstance(text, str):
                raise ValueError(f"{path.name} ({lang}): {key!r} is not a string")
            if key in origin:
                raise ValueError(f"{lang}: key {key!r} is in both {origin[key]} and {path.name}")
            messages[key] = text
            origin[key] = path.name
    return Catalog(lang, MappingProxyType(messages), MappingProxyType(origin))


@functools.cache
def catalog(lang: str) -> Catalog:
    """The catalog of ``lang`` (one of :data:`LANGUAGES`), read once."""
    return read_catalog(ROOT / check_language(lang), lang)


@functools.cache
def messages(lang: str) -> Mapping[str, str]:
    """What a page of ``lang`` shows: its catalog over the English one, so that a key not yet
    translated shows English rather than nothing (the catalog test refuses such a key)."""
    merged = dict(catalog(DEFAULT).messages)
    merged.update(catalog(lang).messages)
    return MappingProxyType(merged)


def check_language(lang: str) -> str:
    if lang not in LANGUAGES:
        raise InputError(f"unknown language {lang!r}: one of {', '.join(LANGUAGES)}")
    return lang


def t(lang: str, key: str, **params: object) -> str:
    """The message ``key`` in ``lang`` with its placeholders filled; an unknown key is an error
    (a typo, not something to show a player)."""
    try:
        text = messages(lang)[key]
    except KeyError:
        raise KeyError(f"no message {key!r}") from None
    return _PLACEHOLDER.sub(lambda m: str(params.get(m.group(1), m.group(0))), text)


def _accepted(header: str) -> list[str]:
    """The languages of an ``Accept-Language`` header, most wanted first (``q=0`` dropped).

    >>> _accepted("vi-VN,vi;q=0.9,en-US;q=0.8,en;q=0.7")
    ['vi-vn', 'vi', 'en-us', 'en']
    """
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate(header.split(",")):
        tag, *params = part.strip().split(";")
        q = 1.0
        for param in params:
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0  # a weight that cannot be read is no wish for the language
        if tag and q > 0:
            ranked.append((-q, i, tag.strip().lower()))
    return [tag for _, _, tag in sorted(ranked)]


def from_accept_language(header: str | None) -> str | None:
    """The first language of ``header`` that there is a catalog for (``in`` is the old code
    of Indonesian, still sent by some phones).

    >>> from_accept_language("fr;q=1, id-ID;q=0.8, en;q=0.5")
    'id'
    >>> from_accept_language("fr") is None
    True
    """
    for tag in _accepted(header or ""):
        base = tag.split("-")[0]
        base = "id" if base == "in" else base
        if base in LANGUAGES:
            return base
    return None


def choose(query: str | None, cookie: str | None, accept: str | None) -> str:
    """The page language: ``?lang=`` first (a link that names one), then the player's choice
    (the ``lang`` cookie the picker sets), then the browser's ``Accept-Language``, then
    English. Unknown values are passed over, not refused: a stale cookie must not break a page.

    >>> choose(None, "id", "vi")
    'id'
    >>> choose("xx", None, "vi-VN,vi;q=0.9")
    'vi'
    >>> choose(None, None, None)
    'en'
    """
    for value in (query, cookie):
        if value and value.lower() in LANGUAGES:
            return value.lower()
    return from_accept_language(accept) or DEFAULT
