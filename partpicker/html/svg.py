"""A few helpers over xml.etree for SVG that a reader can follow: one call per element.

ElementTree escapes text and attribute values; :func:`clean` also makes control and
bidirectional-override characters visible, so a hostile name cannot break or reorder a picture.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

_VISIBLE: dict[int, int] = {c: 0x2400 + c for c in range(32) if c not in (9, 10)}
_VISIBLE[0x7F] = 0x2421
_VISIBLE.update({c: 0xFFFD for c in range(0x80, 0xA0)})
_VISIBLE.update({c: 0xFFFD for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F)})


def clean(text: object) -> str:
    """``text`` as a string with control and bidi-override characters shown as symbols."""
    return str(text).translate(_VISIBLE)


def short(text: str, limit: int = 40) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis (the full text goes in a <title>)."""
    text = clean(text)
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def num(value: float) -> str:
    """A coordinate with at most two decimals."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _attrs(attrs: dict[str, object]) -> dict[str, str]:
    out = {}
    for key, value in attrs.items():
        if value is None:
            continue
        name = key.rstrip("_").replace("_", "-")
        out[name] = num(value) if isinstance(value, float) else clean(value)
    return out


def el(parent: ET.Element, tag: str, text: str | None = None, **attrs: object) -> ET.Element:
    """Append ``<tag attrs>text</tag>`` to ``parent``; ``class_`` -> class, ``data_x`` -> data-x."""
    child = ET.SubElement(parent, tag, _attrs(attrs))
    if text is not None:
        child.text = clean(text)
    return child


def figure(ident: str, width: float, height: float, title: str, desc: str, css_class: str) -> ET.Element:
    """An ``<svg>`` root with a <title> and <desc> that screen readers announce."""
    root = ET.Element(
        "svg",
        _attrs(
            {
                "id": ident,
                "class": css_class,
                "viewBox": f"0 0 {num(width)} {num(height)}",
                "width": num(width),
                "height": num(height),
                "role": "img",
                "aria-labelledby": f"{ident}-title {ident}-desc",
            }
        ),
    )
    el(root, "title", title, id=f"{ident}-title")
    el(root, "desc", desc, id=f"{ident}-desc")
    return root


def fit(root: ET.Element, height: float) -> None:
    """Grow the figure to at least ``height`` (for lists whose length is known only once drawn)."""
    width, old = float(root.get("width", "0")), float(root.get("height", "0"))
    if height > old:
        root.set("height", num(height))
        root.set("viewBox", f"0 0 {num(width)} {num(height)}")


def to_string(root: ET.Element) -> str:
    return ET.tostring(root, encoding="unicode", short_empty_elements=True)
