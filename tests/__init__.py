"""The test suite. Bytecode caches are written even where PYTHONDONTWRITEBYTECODE=1 is set (this
machine's shells set it): otherwise every run, in every pytest-xdist worker, compiles the package
and rewrites the test modules afresh. They go to the checkout's __pycache__ folders (ignored by git)."""

import sys

sys.dont_write_bytecode = False
