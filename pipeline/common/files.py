"""Atomic output: a file or a whole directory appears complete or not at all."""

from __future__ import annotations

__all__ = ["atomic_dir", "atomic_file", "key_lines", "sha256_file", "write_json", "write_tsv"]

import contextlib
import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Iterator, Sequence

import yaml

if TYPE_CHECKING:
    import pandas as pd


def sha256_file(path: str | Path) -> str:
    """Hex sha256 of a file's bytes (read in 1 MiB chunks), for manifests."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def atomic_dir(out: str | Path) -> Iterator[Path]:
    """Yield a temporary directory beside ``out``; on success it replaces ``out``, on error it is removed.

    An existing ``out`` is replaced only after the new one is complete.
    """
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=out.parent))
    try:
        yield tmp
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    os.chmod(tmp, 0o777 & ~_umask())  # mkdtemp makes the directory private (0700)
    old = None
    if out.exists():
        old = out.with_name(f".{out.name}.old-{os.getpid()}")
        os.replace(out, old)
    os.replace(tmp, out)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


@contextlib.contextmanager
def atomic_file(path: str | Path) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; renamed to ``path`` on success, removed on error."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.tmp-", dir=path.parent)
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes the file private (0600); give it a normal file's mode
    os.replace(tmp, path)


def write_tsv(path: str | Path, rows: Sequence[dict] | pd.DataFrame, columns: Sequence[str] | None = None) -> None:
    """Write rows (dicts, or a DataFrame) as a tab-separated file with a header (UTF-8, LF, pandas' minimal
    quoting, empty cells for missing values), the columns in the order of ``columns`` (default: the DataFrame's).

    Opens in pandas with ``pd.read_csv(path, sep="\\t", keep_default_na=False)`` and in a spreadsheet.
    """
    import pandas as pd  # deferred: the command line imports this module to build its parsers

    if isinstance(rows, pd.DataFrame):
        df = rows if columns is None else rows[list(columns)]
    else:
        df = pd.DataFrame(list(rows), columns=list(columns) if columns is not None else None)
    df.to_csv(path, sep="\t", index=False, lineterminator="\n", na_rep="")


def write_json(path: str | Path, data: object) -> None:
    Path(path).write_text(json.dumps(data, indent=2, ensure_ascii=False, sort_keys=False) + "\n", encoding="utf-8")


def key_lines(text: str) -> dict[tuple, int]:
    """The 1-based line of every mapping key and sequence item of a YAML document, by its path.

    A path is the tuple of keys (strings) and item indexes (ints, from 0) leading to it:
    ``("controls", 2, "answer_AB")`` is the ``answer_AB`` key of the third item of ``controls``, and
    ``("controls", 2)`` is the line where that item starts. Text that does not parse gives ``{}`` (the caller
    reports the YAML error itself).
    """
    lines: dict[tuple, int] = {}

    def walk(node: yaml.Node, path: tuple) -> None:
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                sub = path + (str(key.value),)
                lines[sub] = key.start_mark.line + 1
                walk(value, sub)
        elif isinstance(node, yaml.SequenceNode):
            for i, item in enumerate(node.value):
                lines[path + (i,)] = item.start_mark.line + 1
                walk(item, path + (i,))

    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return {}
    if root is not None:  # an empty document
        walk(root, ())
    return lines
