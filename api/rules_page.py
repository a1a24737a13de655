"""The rules help pages: each game's rules file (``docs/rules/<game>.md``, or its translation
``docs/rules/<lang>/<game>.md``) as an HTML page in the player's language.

The Markdown is the small part of it the rules files use (headings, paragraphs, lists with
continuation lines, tables, ``code`` and ``**bold**``), rendered here: every character of the
file is HTML-escaped first, so a rules file can hold no markup of its own, and no package
is needed for it.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from pathlib import Path

from api import i18n

RULES_DIR = Path(__file__).resolve().parents[1] / "docs" / "rules"
# the rules file of each game: registry name and file name alike
GAMES = {"capsa": "capsa-susun", "capsa-susun": "capsa-susun", "big-two": "big-two",
         "da-san": "da-san", "da-bai-fen": "da-bai-fen"}
ORDER = ("capsa-susun", "big-two", "da-san", "da-bai-fen")
_HEADING = re.compile(r"^(#{1,4})\s+(.*)$")
_ITEM = re.compile(r"^( *)[-*]\s+(.*)$")
_ORDERED = re.compile(r"^( *)\d+[.)]\s+(.*)$")


def inline(text: str) -> str:
    """One line's inline marks, on escaped text.

    >>> inline("a **b** `<c>` & d")
    'a <strong>b</strong> <code>&lt;c&gt;</code> &amp; d'
    """
    parts = re.split(r"(`[^`]*`)", text)
    out = []
    for part in parts:
        if len(part) >= 2 and part.startswith("`") and part.endswith("`"):
            out.append(f"<code>{html.escape(part[1:-1])}</code>")
        else:
            esc = html.escape(part, quote=False)
            out.append(re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", esc))
    return "".join(out)


def _table(rows: list[str]) -> str:
    cells = [[c.strip() for c in r.strip().strip("|").split("|")] for r in rows]
    body = [r for r in cells if not all(re.fullmatch(r":?-+:?", c) for c in r)]
    if not body:
        return ""
    head, *rest = body
    out = ["<div class=\"table-scroll\"><table class=\"returns\"><thead><tr>",
           *(f"<th scope=\"col\">{inline(c)}</th>" for c in head), "</tr></thead><tbody>"]
    for r in rest:
        out.append("<tr>" + "".join(f"<td>{inline(c)}</td>" for c in r) + "</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)


def render(markdown: str) -> str:
    """The HTML of a rules file.

    >>> render("# T\\n\\nSome *text* <b>.\\n- one\\n  more\\n  - two\\n- three")
    '<h1>T</h1>\\n<p>Some *text* &lt;b&gt;.</p>\\n<ul><li>one more<ul><li>two</li></ul></li><li>three</li></ul>'
    """
    blocks: list[str] = []
    para: list[str] = []
    table: list[str] = []
    # the open lists: (indent, tag) and whether an item is open at that depth
    stack: list[tuple[int, str]] = []
    item: list[str] = []

    def flush_item() -> None:
        if item:
            blocks.append(inline(" ".join(item)))
            item.clear()

    def close_lists(indent: int = -1) -> None:
        flush_item()
        while stack and stack[-1][0] > indent:
            blocks.append(f"</li></{stack.pop()[1]}>")

    def flush_para() -> None:
        if para:
            blocks.append(f"<p>{inline(' '.join(para))}</p>\n")
            para.clear()
        if table:
            blocks.append(_table(table) + "\n")
            table.clear()

    for raw in markdown.splitlines():
        line = raw.rstrip()
        heading, bullet = _HEADING.match(line), _ITEM.match(line) or _ORDERED.match(line)
        if not line.strip():
            flush_para()
            flush_item()
            continue
        if heading:
            flush_para()
            close_lists()
            level = len(heading.group(1))
            blocks.append(f"<h{level}>{inline(heading.group(2))}</h{level}>\n")
        elif line.lstrip().startswith("|"):
            if para:
                flush_para()
            close_lists()
            table.append(line)
        elif bullet:
            flush_para()
            indent = len(bullet.group(1))
            tag = "ol" if _ORDERED.match(line) else "ul"
            if stack and indent == stack[-1][0]:
                flush_item()
                blocks.append("</li><li>")
            elif stack and indent < stack[-1][0]:
                close_lists(indent)
                if stack:
                    blocks.append("</li><li>")
                else:
                    blocks.append(f"<{tag}><li>")
                    stack.append((indent, tag))
            else:
                flush_item()
                blocks.append(f"<{tag}><li>")
                stack.append((indent, tag))
            item.append(bullet.group(2))
        elif stack and raw.startswith(" "):
            item.append(line.strip())  # a continuation of the open item
        else:
            close_lists()
            para.append(line.strip())
    flush_para()
    close_lists()
    return "".join(blocks).strip()


@dataclass(frozen=True)
class RulesFile:
    game: str  # the file's name: capsa-susun, big-two, ...
    lang: str  # the language it is written in (English where no translation exists)
    path: Path


def rules_file(game: str, lang: str, root: Path = RULES_DIR) -> RulesFile | None:
    """The rules of ``game`` in ``lang``, else in English; None for a game without rules."""
    name = GAMES.get(game)
    if name is None:
        return None
    for code in (lang, i18n.DEFAULT):
        path = root / name if code == i18n.DEFAULT else root / code / name
        path = path.with_suffix(".md")
        if path.is_file():
            return RulesFile(name, code, path)
    return None
