"""A registry of output formats whose modules are imported only when a format is used.

A command's ``--format`` choices need the names only; rendering one format should not pay for
importing the others (the HTML ones bring jinja2). Issue 14: each command imports only what
it needs.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Generic, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


class LazyFormats(Mapping[str, F], Generic[F]):
    """Format name -> the ``render`` function of a module of ``package`` (imported on first use)."""

    def __init__(self, package: str, modules: Mapping[str, str], attribute: str = "render") -> None:
        self._package, self._modules, self._attribute = package, dict(modules), attribute
        self._loaded: dict[str, F] = {}

    def __getitem__(self, name: str) -> F:
        if name not in self._loaded:
            module = importlib.import_module(f"{self._package}.{self._modules[name]}")
            self._loaded[name] = getattr(module, self._attribute)
        return self._loaded[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._modules)

    def __len__(self) -> int:
        return len(self._modules)
