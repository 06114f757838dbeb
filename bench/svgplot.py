"""A small log-log line chart as standalone SVG (no plotting library needed)."""

from __future__ import annotations

import math
from html import escape
from pathlib import Path

COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f")


def _ticks(lo: float, hi: float) -> list[float]:
    return [10.0**e for e in range(math.floor(math.log10(lo)), math.ceil(math.log10(hi)) + 1)]


def _label(v: float) -> str:
    if v >= 1:
        return f"{v:g}" if v < 1e4 else f"1e{round(math.log10(v))}"
    return f"{v:g}"


def line_chart(
    path: Path,
    title: str,
    x_label: str,
    y_label: str,
    series: dict[str, list[tuple[float, float]]],
    dashed: frozenset[str] = frozenset(),
) -> Path:
    """Write a log-log chart of `series` (name -> [(x, y)]) to `path`; dashed series are estimates."""
    pts = [(x, y) for s in series.values() for x, y in s if x > 0 and y > 0]
    if not pts:
        path.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>')
        return path
    w, h, left, right, top, bottom = 640, 400, 70, 170, 40, 50
    xs, ys = (
        _ticks(min(p[0] for p in pts), max(p[0] for p in pts)),
        _ticks(min(p[1] for p in pts), max(p[1] for p in pts)),
    )
    lx0, lx1 = math.log10(xs[0]), math.log10(xs[-1]) if xs[-1] > xs[0] else math.log10(xs[0]) + 1
    ly0, ly1 = math.log10(ys[0]), math.log10(ys[-1]) if ys[-1] > ys[0] else math.log10(ys[0]) + 1

    def px(x: float) -> float:
        return left + (math.log10(x) - lx0) / (lx1 - lx0) * (w - left - right)

    def py(y: float) -> float:
        return h - bottom - (math.log10(y) - ly0) / (ly1 - ly0) * (h - top - bottom)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">',
        f'<rect width="{w}" height="{h}" fill="white"/>',
        f'<text x="{w / 2}" y="22" text-anchor="middle" font-size="15">{escape(title)}</text>',
    ]
    for x in xs:
        out.append(f'<line x1="{px(x):.1f}" y1="{top}" x2="{px(x):.1f}" y2="{h - bottom}" stroke="#ddd"/>')
        out.append(f'<text x="{px(x):.1f}" y="{h - bottom + 16}" text-anchor="middle">{_label(x)}</text>')
    for y in ys:
        out.append(f'<line x1="{left}" y1="{py(y):.1f}" x2="{w - right}" y2="{py(y):.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{left - 6}" y="{py(y) + 4:.1f}" text-anchor="end">{_label(y)}</text>')
    out.append(f'<text x="{(left + w - right) / 2}" y="{h - 12}" text-anchor="middle">{escape(x_label)}</text>')
    out.append(
        f'<text x="16" y="{(top + h - bottom) / 2}" text-anchor="middle" '
        f'transform="rotate(-90 16 {(top + h - bottom) / 2})">{escape(y_label)}</text>'
    )
    for i, (name, s) in enumerate(series.items()):
        colour = COLOURS[i % len(COLOURS)]
        s = sorted((x, y) for x, y in s if x > 0 and y > 0)
        if not s:
            continue
        dash = ' stroke-dasharray="6 4"' if name in dashed else ""
        d = " ".join(f"{'M' if j == 0 else 'L'}{px(x):.1f},{py(y):.1f}" for j, (x, y) in enumerate(s))
        out.append(f'<path d="{d}" fill="none" stroke="{colour}" stroke-width="2"{dash}/>')
        out += [f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3.5" fill="{colour}"/>' for x, y in s]
        ly = top + 16 + 18 * i
        out.append(
            f'<line x1="{w - right + 12}" y1="{ly - 4}" x2="{w - right + 32}" y2="{ly - 4}" '
            f'stroke="{colour}" stroke-width="2"{dash}/>'
        )
        out.append(f'<text x="{w - right + 38}" y="{ly}">{escape(name)}</text>')
    out.append("</svg>")
    path.write_text("\n".join(out), encoding="utf-8")
    return path
