"""Safe YAML loading that remembers line numbers and reports duplicate keys.

Mappings load as :class:`LineDict` and sequences as :class:`LineList`; both are the plain
builtin types underneath (pydantic validates them as such) with the 1-based line of each key
or item alongside, so a validation error's ``loc`` can be turned back into a line.
"""

from __future__ import annotations

import importlib
import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import yaml

from partpicker.errors import InputError, excerpt, printable

if TYPE_CHECKING:
    from pydantic import BaseModel

M = TypeVar("M", bound="BaseModel")


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

    @property
    def message(self) -> str:
        return f"key {self.key!r} appears twice (first on line {self.first_line})"


@dataclass
class Loaded:
    """A parsed YAML document and the duplicate keys seen while parsing it."""

    data: Any
    duplicates: list[Duplicate] = field(default_factory=list)


LIMITS = {"file_bytes": 1024 * 1024, "depth": 64, "alias_nodes": 100_000, "string_chars": 20_000}
"""The input boundary: a file larger, nested deeper, expanding more nodes through aliases, or
holding a longer string than this is refused before (size) or while (the rest) it is parsed, so
no input can exhaust memory or time. 1 MB is eight times the largest catalog file (cpu.yaml,
130 kB) and parses in about ten seconds on a loaded machine; a larger catalog is split by file."""


def _c_parser() -> Any:
    try:
        return importlib.import_module("yaml._yaml").CParser
    except (ImportError, AttributeError):  # PyYAML without libyaml
        return None


_Parser = _c_parser()

if TYPE_CHECKING or _Parser is None:
    _Base = yaml.SafeLoader
else:

    class _Base(yaml.composer.Composer, _Parser, yaml.constructor.SafeConstructor, yaml.resolver.Resolver):
        """PyYAML's safe loader with libyaml's scanner and parser (ten times faster: a 500 kB
        catalog file parses in a second, not fifteen) and PyYAML's own composer and constructor,
        which :class:`_Loader` extends with the limits and line numbers."""

        def __init__(self, stream: str) -> None:
            _Parser.__init__(self, stream)
            yaml.composer.Composer.__init__(self)
            yaml.constructor.SafeConstructor.__init__(self)
            yaml.resolver.Resolver.__init__(self)


class _Loader(_Base):
    duplicates: list[Duplicate]
    _depth: int
    _sizes: dict[int, int]
    _alias_nodes: int

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()  # type: ignore[no-untyped-call]
            node = super().compose_node(parent, index)
            self._count_alias(node, event.start_mark)
            return node
        self._depth += 1
        if self._depth > LIMITS["depth"]:
            mark = self.peek_event().start_mark  # type: ignore[no-untyped-call]
            raise yaml.composer.ComposerError(None, None, f"nested deeper than {LIMITS['depth']} levels", mark)
        try:
            node = super().compose_node(parent, index)
        finally:
            self._depth -= 1
        if node is not None:
            self._sizes[id(node)] = _size(node, self._sizes)
        return node

    def compose_scalar_node(self, anchor: Any) -> yaml.ScalarNode:
        node = super().compose_scalar_node(anchor)
        if len(node.value) > LIMITS["string_chars"]:
            raise yaml.composer.ComposerError(
                None, None, f"a value longer than {LIMITS['string_chars']:,} characters", node.start_mark
            )
        return node

    def _count_alias(self, node: yaml.Node | None, mark: yaml.Mark) -> None:
        size = self._sizes.get(id(node)) if node is not None else None
        if size is None:
            raise yaml.composer.ComposerError(None, None, "an alias refers to its own anchor", mark)
        self._alias_nodes += size
        if self._alias_nodes > LIMITS["alias_nodes"]:
            raise yaml.composer.ComposerError(
                None, None, f"aliases expand to more than {LIMITS['alias_nodes']:,} values", mark
            )

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        # A bad `!!int`, `!!float`, `!!bool` or `!!timestamp` value (or an impossible date such
        # as 2018-02-30) raises ValueError or KeyError inside PyYAML: give it the node's line.
        try:
            return super().construct_object(node, deep=deep)
        except yaml.MarkedYAMLError:
            raise
        except (ValueError, KeyError, TypeError, AttributeError, OverflowError, IndexError) as exc:
            tag = node.tag.rsplit(":", 1)[-1]
            problem = f"{_excerpt(node)} is not a valid {tag}"
            if isinstance(exc, ValueError) and "day is out of range" in str(exc):
                problem = f"{_excerpt(node)} is not a real date ({exc})"
            raise BadValue(None, None, problem, node.start_mark) from None


class BadValue(yaml.constructor.ConstructorError):
    """Well-formed YAML whose value is not one of its type (``!!int x``, the date 2018-02-30)."""


def _size(node: yaml.Node, sizes: dict[int, int]) -> int:
    """How many values ``node`` stands for once its aliases are expanded."""
    if isinstance(node, yaml.SequenceNode):
        return 1 + sum(sizes.get(id(child), 1) for child in node.value)
    if isinstance(node, yaml.MappingNode):
        return 1 + sum(sizes.get(id(k), 1) + sizes.get(id(v), 1) for k, v in node.value)
    return 1


def _excerpt(node: yaml.Node) -> str:
    value = node.value if isinstance(node, yaml.ScalarNode) else f"a {getattr(node, 'id', 'node')}"
    return excerpt(value)


def _construct_mapping(loader: _Loader, node: yaml.Node) -> LineDict:
    if not isinstance(node, yaml.MappingNode):
        raise yaml.constructor.ConstructorError(None, None, f"{_excerpt(node)} is not a mapping", node.start_mark)
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
            loader.duplicates.append(Duplicate(printable(str(key))[:100], line, out.key_lines[key]))
        out[key] = loader.construct_object(value_node, deep=True)
        out.key_lines[key] = line
    return out


def _construct_sequence(loader: _Loader, node: yaml.Node) -> LineList:
    if not isinstance(node, yaml.SequenceNode):
        raise yaml.constructor.ConstructorError(None, None, f"{_excerpt(node)} is not a list", node.start_mark)
    out = LineList(loader.construct_object(child, deep=True) for child in node.value)
    out.line = node.start_mark.line + 1
    out.item_lines = [child.start_mark.line + 1 for child in node.value]
    return out


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_sequence)

_HINT = "fix the YAML syntax"
_VALUE_HINT = "write a real value there (a date as YYYY-MM-DD)"


def parse(text: str, path: str | Path) -> Loaded:
    """Parse YAML text safely within :data:`LIMITS`; any loader error (reader, scanner, parser,
    composer, constructor, nesting) becomes an :class:`InputError` with its line."""
    try:
        loader = _Loader(text)
    except yaml.reader.ReaderError as exc:
        raise InputError(
            f"malformed YAML: {_reader_problem(exc)}", path=path, line=_line_at(text, exc.position), hint=_HINT
        ) from None
    loader.duplicates, loader._depth, loader._sizes, loader._alias_nodes = [], 0, {}, 0
    try:
        data = loader.get_single_data()
    except yaml.reader.ReaderError as exc:
        raise InputError(
            f"malformed YAML: {_reader_problem(exc)}", path=path, line=_line_at(text, exc.position), hint=_HINT
        ) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        problem = printable(exc.problem or exc.context or "malformed YAML")[:300]
        if isinstance(exc, BadValue):  # the syntax is fine; the value is not
            raise InputError(problem, path=path, line=line, hint=_VALUE_HINT) from None
        raise InputError(f"malformed YAML: {problem}", path=path, line=line, hint=_HINT) from None
    except yaml.YAMLError as exc:
        raise InputError(f"malformed YAML: {printable(str(exc))[:300]}", path=path, hint=_HINT) from None
    except RecursionError:
        raise InputError("malformed YAML: nested too deeply", path=path, hint=_HINT) from None
    finally:
        loader.dispose()
    return Loaded(data, loader.duplicates)


def _reader_problem(exc: yaml.reader.ReaderError) -> str:
    char = exc.character
    code = f"#x{char:04x}" if isinstance(char, int) else repr(char)
    return f"a control or special character ({code}) is not allowed"


def _line_at(text: str, position: int) -> int:
    """The line of a reader error's position: a byte offset into the UTF-8 text for libyaml,
    a character offset for the pure-Python reader."""
    if _Parser is not None:
        return text.encode("utf-8", "surrogatepass")[: max(position, 0)].count(b"\n") + 1
    return text.count("\n", 0, max(position, 0)) + 1


def read_text(path: str | Path, *, limit: int | None = None) -> str:
    """The UTF-8 text of a regular file of at most ``limit`` bytes (default
    :data:`LIMITS` ``file_bytes``); anything else is an :class:`InputError`."""
    p = Path(path)
    data = read_bytes(p, limit=limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError("not UTF-8 text", path=p, line=line, hint="save the file as UTF-8") from None


def read_bytes(path: str | Path, *, limit: int | None = None) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; a missing, special (FIFO, device),
    folder, oversized or unreadable path is an :class:`InputError`. Never blocks on a FIFO."""
    p = Path(path)
    limit = LIMITS["file_bytes"] if limit is None else limit
    check_regular(p)
    try:
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise InputError("not a regular file", path=p, hint="name a YAML file")
            data = handle.read(limit + 1)
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", path=p) from None
    if len(data) > limit:
        raise InputError(
            f"larger than {limit:,} bytes", path=p, hint="split the file, or check that it is the right one"
        )
    return data


def check_regular(p: Path) -> None:
    """An :class:`InputError` unless ``p`` is (a link to) a regular file."""
    try:
        mode = p.stat().st_mode
    except FileNotFoundError:
        if p.is_symlink():
            raise InputError("broken symbolic link", path=p, hint="point it at a file, or remove it") from None
        raise InputError("file not found", path=p, hint="check the path") from None
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", path=p) from None
    if stat.S_ISDIR(mode):
        raise InputError("is a folder, not a file", path=p, hint="name a YAML file")
    if not stat.S_ISREG(mode):
        raise InputError("not a regular file (a device, FIFO or socket)", path=p, hint="name a YAML file")


def read(path: str | Path) -> Loaded:
    """Read and parse a YAML file within :data:`LIMITS`; any problem is an :class:`InputError`."""
    p = Path(path)
    return parse(read_text(p), p)


def read_model(path: Path, model: type[M], *, what: str, hint: str) -> M:
    """A YAML data file validated as the pydantic ``model``: a duplicate key, or the first schema
    problem (as "invalid {what}: field.path: message", with its line and ``hint``), is an
    :class:`InputError`."""
    from pydantic import ValidationError

    loaded = read(path)
    if loaded.duplicates:
        dup = loaded.duplicates[0]
        raise InputError(dup.message, path=path, line=dup.line)
    try:
        return model.model_validate(loaded.data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(map(str, err["loc"])) or "the file"
        raise InputError(
            f"invalid {what}: {loc}: {err['msg']}", path=path, line=line_of(loaded.data, err["loc"]), hint=hint
        ) from None


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
