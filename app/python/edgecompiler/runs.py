"""The run history every `edgecompile compile` and `bench` records: list, show, compare.

Each returns the dict the matching `edgecompile runs ... --json` prints.
"""
from ._core import runs as _runs

list = _runs.list  # noqa: A001 (the CLI's name)
show = _runs.show
compare = _runs.compare

__all__ = ["list", "show", "compare"]
