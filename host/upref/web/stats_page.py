"""The page `/stats`: who wins what, drawn for the TV and the phone, beside the live page.

Pure: the stats as data in (what `upref stats --json` prints, `upref.stats.report`), one HTML
page out, every text escaped, no script, no `style` attribute (the page's content security
policy allows only its own style sheet). The charts are inline SVG drawn here, 18 units to the
em as the table's pictures are (`upref.views.svg`): wins per player per game, each player's
rating game after game with its uncertainty, and the latest evening's results. Each drawn mark
carries what it shows as `data-*` attributes, so that a test reads the charts' data back.

Nothing private: names, games and results only (no file names, no inputs of a log).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from html import escape
from typing import Any

from upref.stats.said import evening_words, state_words
from upref.text import ENGLISH, Msg, Plural, and_join, in_lang
from upref.views.svg import CHAR_W, NOTE_LINE, UNIT

__all__ = ["render_stats", "render_stats_error"]

SHOWN_GAMES = 60
"""A rating chart draws the ratings after the latest this many games of its game: enough to see
who is rising, few enough for a phone (the JSON and the table keep every game)."""
BAR_H = 28
BAR_W = 360
PLOT_W, PLOT_H, PAD = 420, 200, 24


def _doc(body: str, lang: str) -> str:
    title = escape(in_lang(Msg("upref — who wins what"), lang))
    return (
        f"<!doctype html>\n<html lang=\"{lang}\"><head><meta charset=\"utf-8\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        f"<title>{title}</title><link rel=\"stylesheet\" href=\"/static/scoreboard.css\">"
        f"</head><body class=\"stats\">{body}</body></html>\n"
    )


def _say(text: str, lang: str) -> str:
    """A sentence said in `lang`, escaped for the page."""
    return escape(in_lang(text, lang))


def _home(lang: str) -> str:
    """The way back to the live page, in the page's language."""
    href = "/" if lang == ENGLISH else f"/?lang={lang}"
    return f'<p class="back"><a href="{href}">{_say(BACK, lang)}</a></p>'


TITLE = Msg("Who wins what")
BACK = Msg("Back to the table")


def _svg(w: float, h: float, inner: str, label: str) -> str:
    return (
        f'<svg class="pc chart" viewBox="0 0 {w:g} {h:g}" width="{w / UNIT:.4g}em" '
        f'height="{h / UNIT:.4g}em" role="img" aria-label="{escape(label)}" '
        f'xmlns="http://www.w3.org/2000/svg">{inner}</svg>'
    )


def _data(**fields: object) -> str:
    return "".join(f' data-{k.replace("_", "-")}="{escape(str(v))}"' for k, v in fields.items())


def render_stats_error(why: str, lang: str = ENGLISH) -> str:
    """The page when the stats cannot be made (a merge of two players of one table), in `lang`."""
    said = Msg("The stats cannot be drawn: {why}", why=why)
    return _doc(f'<header class="big"><p class="turn">{_say(TITLE, lang)}</p></header>'
                f'<p class="empty">{_say(said, lang)}</p>'
                + _home(lang), lang)


def render_stats(data: Mapping[str, Any], lang: str = ENGLISH) -> str:
    """The page of the stats `data` (`Stats.as_json()`), in `lang`."""
    colour = _colours(data)
    counted = int(data.get("counted", 0))
    counted_words = Plural("{n} game counted", "{n} games counted", n=counted)
    head = (f'<header class="big"><p class="turn">{_say(TITLE, lang)}</p><p class="last">'
            f'{_say(counted_words, lang)}</p></header>'
            + _home(lang))
    if not counted:
        empty = Msg("No finished game in the logs yet: play one, and its result shows here.")
        return _doc(head + f'<p class="empty">{_say(empty, lang)}</p>' + _unread(data, lang), lang)
    parts = [head, _evening(data, colour, lang), _wins(data, colour, lang), _ratings(data, colour, lang),
             _table(data, lang), _unread(data, lang)]
    return _doc("".join(parts), lang)


def _colours(data: Mapping[str, Any]) -> dict[str, int]:
    """One colour per player on every chart."""
    names = sorted({x["player"] for x in data.get("lines", ())})
    return {n: i % 8 for i, n in enumerate(names)}


def _by_game(data: Mapping[str, Any]) -> dict[str, list[Mapping[str, Any]]]:
    out: dict[str, list[Mapping[str, Any]]] = {}
    for x in data.get("lines", ()):
        if x["game"] is not None:
            out.setdefault(x["game"], []).append(x)
    titles = {g: k["title"] for g, k in data.get("games", {}).items()}
    return dict(sorted(out.items(), key=lambda kv: titles.get(kv[0], kv[0])))


def _section(title: str, cls: str, inner: str, lang: str) -> str:
    return f'<section class="box {cls}"><h2>{_say(title, lang)}</h2>{inner}</section>'


def _won_words(x: Mapping[str, Any], lang: str) -> str:
    if x["shared"]:
        said = Msg("{won} won, {shared} shared of {played}", won=x["won"], shared=x["shared"], played=x["played"])
    else:
        said = Msg("{won} won of {played}", won=x["won"], played=x["played"])
    return in_lang(said, lang)


def _wins(data: Mapping[str, Any], colour: dict[str, int], lang: str) -> str:
    figures = []
    for game, rows in _by_game(data).items():
        rows = sorted(rows, key=lambda x: (-(x["won"] + x["shared"]), x["player"]))
        room = max(len(x["player"]) for x in rows) * CHAR_W + 12
        tail = max(len(_won_words(x, lang)) for x in rows) * CHAR_W + 12
        top = max(max(x["won"] + x["shared"] for x in rows), 1)
        out = []
        for i, x in enumerate(rows):
            y = i * (BAR_H + 8)
            w = max((x["won"] + x["shared"]) * BAR_W / top, 2)
            out.append(
                f'<text class="note" x="{room - 8:g}" y="{y + BAR_H - 8}" text-anchor="end">{escape(x["player"])}</text>'
                f'<rect class="bar s{colour[x["player"]]}" x="{room:g}" y="{y}" width="{w:.1f}" height="{BAR_H}"'
                f'{_data(chart="wins", game=game, player=x["player"], won=x["won"], shared=x["shared"], played=x["played"])}/>'
                f'<text class="note" x="{room + w + 8:.1f}" y="{y + BAR_H - 8}">{escape(_won_words(x, lang))}</text>'
            )
        title = rows[0]["title"]
        label = in_lang(Msg("wins in {title}", title=title), lang)
        svg = _svg(room + BAR_W + tail, len(rows) * (BAR_H + 8), "".join(out), label)
        figures.append(f'<figure class="picture"><figcaption>{escape(title)}</figcaption>{svg}</figure>')
    return _section(Msg("Wins per player"), "m-wins", "".join(figures), lang)


def _ratings(data: Mapping[str, Any], colour: dict[str, int], lang: str) -> str:
    per_game: dict[str, list[Mapping[str, Any]]] = {}
    for r in data.get("ratings", ()):
        per_game.setdefault(r["game"], []).append(r)
    titles = {g: k["title"] for g, k in data.get("games", {}).items()}
    figures = [
        f'<figure class="picture"><figcaption>{escape(titles.get(g, g))}</figcaption>'
        f'{_rating_chart(g, rs, colour, in_lang(_ratings_in(titles.get(g, g)), lang))}</figure>'
        for g, rs in sorted(per_game.items(), key=lambda kv: titles.get(kv[0], kv[0]))
    ]
    note = Msg("A rating is shown as its value ± its uncertainty, which shrinks with every game; the "
               "band around each point spans it. Each chart shows the latest {shown} games of its game "
               "at most.", shown=SHOWN_GAMES)
    return _section(Msg("Ratings, game after game"), "m-ratings",
                    f'<p class="empty">{_say(note, lang)}</p>' + "".join(figures), lang)


def _ratings_in(title: str) -> str:
    return Msg("ratings in {title}", title=title)


def _rating_chart(game: str, series: Sequence[Mapping[str, Any]], colour: dict[str, int], label: str) -> str:
    moments = sorted({(h["t"], h["log"], h["number"]) for s in series for h in s["history"]})[-SHOWN_GAMES:]
    at = {m: i for i, m in enumerate(moments)}
    series = [{**s, "history": [h for h in s["history"] if (h["t"], h["log"], h["number"]) in at]}
              for s in series]
    series = [s for s in series if s["history"]]
    lows = [h["mu"] - h["sigma"] for s in series for h in s["history"]]
    highs = [h["mu"] + h["sigma"] for s in series for h in s["history"]]
    low, high = min(lows), max(highs)
    span = (high - low) or 1.0
    names = [f"{s['player']} {s['history'][-1]['mu']:.1f} ± {s['history'][-1]['sigma']:.1f}" for s in series]
    room = max(len(n) for n in names) * CHAR_W + 12

    def xy(h: Mapping[str, Any], v: float) -> tuple[float, float]:
        x = PAD + at[(h["t"], h["log"], h["number"])] * (PLOT_W - 2 * PAD) / max(len(moments) - 1, 1)
        return x, PLOT_H - PAD - (v - low) * (PLOT_H - 2 * PAD) / span

    out = [f'<line class="axis" x1="{PAD}" y1="{PLOT_H - PAD}" x2="{PLOT_W - PAD}" y2="{PLOT_H - PAD}"/>']
    ends = []
    for s, name in zip(series, names, strict=True):
        c = colour.get(s["player"], 0)
        pts = [xy(h, h["mu"]) for h in s["history"]]
        out.append(f'<polyline class="series s{c}" fill="none" points="{" ".join(f"{x:.1f},{y:.1f}" for x, y in pts)}"/>')
        for h, (x, y) in zip(s["history"], pts, strict=True):
            y0, y1 = xy(h, h["mu"] - h["sigma"])[1], xy(h, h["mu"] + h["sigma"])[1]
            out.append(f'<line class="spread s{c}" x1="{x:.1f}" y1="{y0:.1f}" x2="{x:.1f}" y2="{y1:.1f}"/>')
            out.append(f'<circle class="series s{c}" cx="{x:.1f}" cy="{y:.1f}" r="4"'
                       f'{_data(chart="rating", game=game, player=s["player"], mu=h["mu"], sigma=h["sigma"], log=h["log"], number=h["number"])}/>')
        ends.append((pts[-1][1], name))
    below = 0.0
    for y, name in sorted(ends):  # each name at its line's end, never on top of the one above
        below = max(y + UNIT / 3, below + NOTE_LINE, UNIT)
        out.append(f'<text class="note" x="{PLOT_W + 4}" y="{below:.1f}">{escape(name)}</text>')
    return _svg(PLOT_W + room, max(PLOT_H, below + 4), "".join(out), label)


def _evening(data: Mapping[str, Any], colour: dict[str, int], lang: str) -> str:
    evenings = data.get("evenings") or []
    if not evenings:
        return ""
    e = evenings[0]
    items = [_result_item(r, colour, lang) for r in e["results"]]
    items += [
        f'<li class="open"{_data(chart="evening", game=n["game"], state=n["state"])}>'
        + _say(Msg("{title} ({players}): {state}, not counted", title=n["title"], players=", ".join(n["players"]),
                   state=state_words(n["state"])), lang) + "</li>"
        for n in e["not_counted"]
    ]
    day = date.fromisoformat(e["evening"])
    return _section(Msg("The evening of {day}", day=evening_words(day)), "m-winner",
                    f'<ol class="evening">{"".join(items)}</ol>', lang)


def _winners_words(winners: list[str]) -> str:
    if len(winners) > 1:
        return Msg("{who} share the win", who=and_join(winners))
    return Msg("{who} wins", who=winners[0]) if winners else Msg("nobody wins")


def _result_item(r: Mapping[str, Any], colour: dict[str, int], lang: str) -> str:
    winners = list(r["winners"])
    said = _winners_words(winners)
    if r["stopped"]:
        said = Msg("{result} (stopped early)", result=said)
    scores = r["scores"] or {}
    bars = ""
    if scores:
        top = max(max(scores.values()), 1)
        room = max(len(p) for p in scores) * CHAR_W + 12
        out = []
        for i, (p, v) in enumerate(scores.items()):
            y, w = i * (BAR_H + 6), max(v * 200 / top, 2)
            win = " winner" if p in winners else ""
            out.append(f'<text class="note" x="{room - 8:g}" y="{y + BAR_H - 8}" text-anchor="end">{escape(p)}</text>'
                       f'<rect class="bar s{colour.get(p, 0)}{win}" x="{room:g}" y="{y}" width="{w:.1f}" height="{BAR_H}"'
                       f'{_data(player=p, score=v)}/><text class="note" x="{room + w + 8:.1f}" y="{y + BAR_H - 8}">{v}</text>')
        bars = _svg(room + 260, len(scores) * (BAR_H + 6), "".join(out),
                    in_lang(Msg("scores of {title}", title=r["title"]), lang))
    when = escape(str(r["ended"])[11:16])
    return (f'<li class="result"{_data(chart="evening", game=r["game"], log=r["log"], number=r["number"], winners=", ".join(winners))}>'
            f'<p class="line"><span class="label">{when} {escape(r["title"])}</span>{_say(said, lang)}</p>{bars}</li>')


HEADS = (Msg("player"), Msg("game"), Msg("played"), Msg("won"), Msg("shared"), Msg("run"),
         Msg("best run"), Msg("average"), Msg("rating"))
"""The table's heads (each cell's label on a phone)."""


def _score_words(x: Mapping[str, Any]) -> str:
    """What the line's score counts: as the game says it, in any language, when the data is the
    server's own (`Stats.as_json()` keeps the game's words); as the data has it otherwise."""
    return x["score"] if isinstance(x["score"], str) else str(x["score"])


def _cells(x: Mapping[str, Any], lang: str) -> tuple[str, ...]:
    avg = "" if x["average"] is None else Msg("{average:g} {score}", average=x["average"],
                                                 score=_score_words(x))
    rating = "" if x["rating"] is None else f"{x['rating']['mu']:.1f} ± {x['rating']['sigma']:.1f}"
    title = Msg("all games") if x["game"] is None else x["title"]
    cells = (x["player"], title, x["played"], x["won"], x["shared"], x["current_run"], x["longest_run"], avg, rating)
    return tuple(in_lang(c, lang) if isinstance(c, str) else str(c) for c in cells)


def _table(data: Mapping[str, Any], lang: str) -> str:
    head = [_say(h, lang) for h in HEADS]
    rows = []
    for x in data.get("lines", ()):
        rows.append("<tr>" + "".join(f'<td data-label="{h}">{escape(c)}</td>'
                                      for h, c in zip(head, _cells(x, lang), strict=True)) + "</tr>")
    th = "".join(f"<th>{h}</th>" for h in head)
    table = f'<table class="grid"><thead><tr>{th}</tr></thead><tbody>{"".join(rows)}</tbody></table>'
    return _section(Msg("Every player"), "m-table", table, lang)


def _unread(data: Mapping[str, Any], lang: str) -> str:
    n = len(data.get("skipped", ()))
    if not n:
        return ""
    said = Plural("{n} log could not be read and is left out: `upref stats` names them.",
                  "{n} logs could not be read and are left out: `upref stats` names them.", n=n)
    return f'<p class="empty">{_say(said, lang)}</p>'
