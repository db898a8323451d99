"""What the page looks like in Chromium, measured in the page after every picture
(`page_watch` runs it in each tab): the TV read from the sofa, the phone that breaks no word.

`MEASURE` defines `window.__measure(mode, fold, least)`, which returns a report of the page as
laid out now:

- `small` (TV): every visible text, HTML or SVG, whose rendered size is under `least` px (an
  SVG label's size is its font size scaled by its drawing: `getScreenCTM`);
- `fold` (TV): what a player needs (the turn and the last verdict, the picture, the result,
  what is to fix, what the referee waits for) ending below `fold` px;
- `overlap`: two SVG labels in sight whose boxes overlap (a label under a card drawn after it,
  in a pile or a fanned hand, is not in sight);
- `outside`: an SVG label not inside its drawing;
- `broken` (phone): a word whose letters stand on more than one line (each word's Range and
  its client rects);
- `clipped` (phone): an element that hides part of its content (scrollWidth over clientWidth
  where overflow is not visible), or text beyond the window's edges;
- `width`: [the document's width, the window's].

`WATCH` (run after `MEASURE`, with the mode) keeps [the picture's version, its report] in
`window.__layout` after every change of the board.
"""

from __future__ import annotations

__all__ = ["FOLD", "LEAST", "MEASURE", "WATCH", "problems"]

FOLD = 1080
"""A 1920 × 1080 TV: what a player needs ends above this."""
LEAST = 24
"""No visible text on the TV smaller than this, in px (read at 3 m)."""

MEASURE = r"""
const NEEDED = ['header.big .turn', 'header.big .last', 'figure.picture', '.words section.box.m-winner',
                '.m-waiting', '.m-fix'];
window.__measure = function (mode, fold, least) {
  const report = {height: document.documentElement.scrollHeight, small: [], fold: [], overlap: [],
                  broken: [], clipped: [], outside: []};
  const say = (el, text) => (el.tagName.toLowerCase() + (el.getAttribute('class') ? '.' + el.getAttribute('class').trim().split(/\s+/).join('.') : '')) + ' "' + (text || el.textContent).trim().slice(0, 40) + '"';
  const shown = r => r.width > 0 && r.height > 0;
  // an SVG label lies under a card drawn after it (a pile, a fanned hand): not in sight
  const covered = (el, box) => {
    const x = (box.left + box.right) / 2, y = (box.top + box.bottom) / 2;
    const mine = el.closest('g.card');
    for (const card of el.closest('svg').querySelectorAll('g.card')) {
      if (card === mine || !(el.compareDocumentPosition(card) & Node.DOCUMENT_POSITION_FOLLOWING)) continue;
      const face = card.querySelector('rect');
      const r = face && face.getBoundingClientRect();
      if (r && shown(r) && x > r.left && x < r.right && y > r.top && y < r.bottom) return true;
    }
    return false;
  };
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.data.trim()) continue;
    const el = node.parentElement;
    if (el.closest('title, script, style')) continue;
    const cs = getComputedStyle(el);
    if (cs.visibility !== 'visible') continue;
    const svg = el.closest('svg');
    if (svg) {
      const box = el.getBoundingClientRect();
      if (!shown(box) || covered(el, box)) continue;
      const m = el.getScreenCTM();
      texts.push({node, el, svg, box, size: parseFloat(cs.fontSize) * Math.hypot(m.a, m.b)});
    } else {
      const range = document.createRange();
      range.selectNodeContents(node);
      const rects = Array.from(range.getClientRects()).filter(shown);
      if (!rects.length) continue;
      texts.push({node, el, svg: null, box: range.getBoundingClientRect(), size: parseFloat(cs.fontSize)});
    }
  }
  if (mode === 'tv') {
    for (const t of texts) if (t.size < least - 0.05) report.small.push(say(t.el, t.node.data) + ' ' + t.size.toFixed(1) + ' px');
    for (const sel of NEEDED) {
      for (const el of document.querySelectorAll(sel)) {
        const r = el.getBoundingClientRect();
        if (shown(r) && r.bottom + window.scrollY > fold + 0.5) report.fold.push(sel + ' ends at ' + Math.round(r.bottom + window.scrollY) + ' px');
      }
    }
  }
  const labels = texts.filter(t => t.svg);
  for (let i = 0; i < labels.length; i++) {
    const a = labels[i].box;
    const s = labels[i].svg.getBoundingClientRect();
    if (a.left < s.left - 1 || a.right > s.right + 1 || a.top < s.top - 1 || a.bottom > s.bottom + 1)
      report.outside.push(say(labels[i].el));
    for (let j = i + 1; j < labels.length; j++) {
      const b = labels[j].box;
      const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (w > 1 && h > 1) report.overlap.push(say(labels[i].el) + ' / ' + say(labels[j].el));
    }
  }
  if (mode === 'phone') {
    for (const t of texts) {
      if (t.svg) continue;
      const re = /[^\s\-\u2010-\u2014\/]+/g;
      for (let m = re.exec(t.node.data); m; m = re.exec(t.node.data)) {
        const range = document.createRange();
        range.setStart(t.node, m.index);
        range.setEnd(t.node, m.index + m[0].length);
        const tops = new Set(Array.from(range.getClientRects()).filter(shown).map(r => Math.round(r.top / 3)));
        if (tops.size > 1) report.broken.push(say(t.el, m[0]));
      }
    }
    for (const el of document.body.querySelectorAll('*')) {
      if (el.closest('svg')) continue;
      const cs = getComputedStyle(el);
      if (cs.overflowX !== 'visible' && el.scrollWidth > el.clientWidth + 1) report.clipped.push(say(el));
    }
    for (const t of texts) if (!t.svg && (t.box.right > innerWidth + 1 || t.box.left < -1)) report.clipped.push(say(t.el, t.node.data) + ' off the window');
  }
  report.width = [document.documentElement.scrollWidth, innerWidth];
  return report;
};
"""

WATCH = """
const board = document.getElementById('board');
const mode = arguments[0];
window.__layout = [];
const measure = () => window.__layout.push([board.getAttribute('data-version') || '',
  window.__measure(mode, FOLD, LEAST)]);
new MutationObserver(measure).observe(board, {childList: true, subtree: true});
measure();
""".replace("FOLD", str(FOLD)).replace("LEAST", str(LEAST))


def problems(report: dict[str, object]) -> list[str]:
    """What a person would notice in one report, in words (none: the page is right)."""
    said = {
        "small": f"text smaller than {LEAST} px on the TV",
        "fold": f"below the fold of a {FOLD} px TV",
        "overlap": "labels on top of one another",
        "outside": "a label outside its drawing",
        "broken": "a word broken across lines",
        "clipped": "clipped",
    }
    out = []
    for key, what in said.items():
        items = report.get(key) or []
        assert isinstance(items, list)
        if items:
            out.append(f"{what}: " + "; ".join(str(i) for i in items[:6]))
    return out
