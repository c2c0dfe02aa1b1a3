"""Safe YAML loading that remembers line numbers and reports duplicate keys.

Mappings load as :class:`LineDict` and sequences as :class:`LineList`; both are the plain
builtin types underneath (pydantic validates them as such) with the 1-based line of each key
or item alongside, so a validation error's ``loc`` can be turned back into a line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from partpicker.errors import InputError


class LineDict(dict[Any, Any]):
    """A dict with the line of the mapping (``line``) and of each key (``key_lines``)."""

    line: int = 0
    key_lines: dict[Any, int]


class LineList(list[Any]):
    """A list with the line of the sequence (``line``) and of each item (``item_lines``)."""

    line: int = 0
    item_lines: list[int]


@dataclass
class Duplicate:
    """A key that appears twice in one mapping."""

    key: str
    line: int
    first_line: int


@dataclass
class Loaded:
    """A parsed YAML document and the duplicate keys seen while parsing it."""

    data: Any
    duplicates: list[Duplicate] = field(default_factory=list)


class _Loader(yaml.SafeLoader):
    duplicates: list[Duplicate]


def _construct_mapping(loader: _Loader, node: yaml.MappingNode) -> LineDict:
    loader.flatten_mapping(node)
    out = LineDict()
    out.line = node.start_mark.line + 1
    out.key_lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        line = key_node.start_mark.line + 1
        try:
            hash(key)
        except TypeError:
            raise yaml.constructor.ConstructorError(
                None, None, "found an unhashable key", key_node.start_mark
            ) from None
        if key in out:
            loader.duplicates.append(Duplicate(str(key), line, out.key_lines[key]))
        out[key] = loader.construct_object(value_node, deep=True)
        out.key_lines[key] = line
    return out


def _construct_sequence(loader: _Loader, node: yaml.SequenceNode) -> LineList:
    out = LineList(loader.construct_object(child, deep=True) for child in node.value)
    out.line = node.start_mark.line + 1
    out.item_lines = [child.start_mark.line + 1 for child in node.value]
    return out


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_sequence)


def parse(text: str, path: str | Path) -> Loaded:
    """Parse YAML text safely; a syntax error becomes an :class:`InputError` with its line."""
    loader = _Loader(text)
    loader.duplicates = []
    try:
        data = loader.get_single_data()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        problem = exc.problem or exc.context or "malformed YAML"
        raise InputError(f"malformed YAML: {problem}", path=path, line=line, hint="fix the YAML syntax") from None
    except yaml.YAMLError as exc:
        raise InputError(f"malformed YAML: {exc}", path=path, hint="fix the YAML syntax") from None
    finally:
        loader.dispose()
    return Loaded(data, loader.duplicates)


def read(path: str | Path) -> Loaded:
    """Read and parse a YAML file; a missing or unreadable file is an :class:`InputError`."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError("file not found", path=p, hint="check the path") from None
    except IsADirectoryError:
        raise InputError("is a folder, not a file", path=p, hint="name a YAML file") from None
    except UnicodeDecodeError:
        raise InputError("not UTF-8 text", path=p, hint="save the file as UTF-8") from None
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", path=p) from None
    return parse(text, p)


def line_of(data: Any, loc: Sequence[int | str]) -> int | None:
    """The line of the deepest element of ``loc`` that can be found in ``data``."""
    line = getattr(data, "line", None) or None
    node = data
    for step in loc:
        if isinstance(node, LineDict) and step in node:
            line = node.key_lines.get(step, line)
            node = node[step]
        elif isinstance(node, LineList) and isinstance(step, int) and 0 <= step < len(node):
            line = node.item_lines[step]
            node = node[step]
        else:
            break
    return line
