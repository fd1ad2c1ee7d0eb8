"""Atomic output: a file or a whole directory appears complete or not at all."""

from __future__ import annotations

__all__ = ["MARKER", "OutputError", "atomic_dir", "atomic_file", "check_output_dir", "check_output_file", "clean_stale",
           "key_lines", "made_by_sick", "output_policy", "prepare_outputs", "sha256_file", "write_json", "write_tsv"]

import contextlib
import contextvars
import errno
import glob
import hashlib
import html
import json
import os
import shutil
import tempfile
import time
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Iterator, Sequence

import yaml

from pipeline.common.errors import SickError

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


class OutputError(SickError):
    """An output path that sick refuses to write (it would replace a user's file or folder, or an input of the
    run), or cannot write (a parent is a file, no permission). Raised before anything is written."""

    def __init__(self, path: str | Path, problem: str) -> None:
        self.path = str(path)
        self.problem = problem
        super().__init__(f"{self.path}: {problem}")


# Written into every directory atomic_dir makes: such a directory may be replaced by the next run with the same
# --out; any other directory holds a user's work and is replaced only with --force.
MARKER = ".sick-output"
MARKER_TEXT = "Written by sick-pipeline. The next `sick` run with this --out replaces this whole directory.\n"
STALE_SECONDS = 600  # a temp dir of a dead process older than this is left-over from a killed run

# The command line's choice for the run (``--force`` and the input paths): the library's writers
# (build, tasks export, aggregate, report, pyramid build) call atomic_dir without knowing the options.
_policy: contextvars.ContextVar[tuple[bool, tuple[Path, ...]]] = contextvars.ContextVar(
    "sick_output_policy", default=(False, ()))


@contextlib.contextmanager
def output_policy(force: bool = False, inputs: Iterable[str | Path] = ()) -> Iterator[None]:
    """Within the block, :func:`atomic_dir` and :func:`check_outputs` called without ``force``/``inputs``
    use these (set by the command line from ``--force`` and the command's input paths)."""
    token = _policy.set((force, tuple(Path(p) for p in inputs)))
    try:
        yield
    finally:
        _policy.reset(token)


def made_by_sick(path: str | Path) -> bool:
    """True when directory ``path`` holds :data:`MARKER`, or a ``manifest.json`` of sick-pipeline (directories
    written before the marker existed)."""
    path = Path(path)
    if (path / MARKER).is_file():
        return True
    try:
        return json.loads((path / "manifest.json").read_text(encoding="utf-8")).get("tool") == "sick-pipeline"
    except (OSError, ValueError, AttributeError):
        return False


def _inside(child: Path, parent: Path) -> bool:
    return child == parent or parent in child.parents


def _check_parent(out: Path) -> None:
    """The first existing ancestor of ``out`` must be a writable directory."""
    for anc in out.parents:
        if anc.exists():
            if not anc.is_dir():
                raise OutputError(out, f"cannot write here: {anc} is a file, not a directory")
            if not os.access(anc, os.W_OK | os.X_OK):
                raise OutputError(out, f"cannot write here: no permission to write in {anc}")
            return


def check_output_dir(out: str | Path, inputs: Iterable[str | Path] | None = None, force: bool | None = None) -> None:
    """Refuse an output directory that sick must not replace; nothing is written.

    ``out`` may not exist, or be a directory sick made (:func:`made_by_sick`), or any directory with
    ``force``; it may never be a file, the current directory or one of its ancestors, or a directory holding one
    of ``inputs`` (the run's input files). ``force``/``inputs`` default to the :func:`output_policy`.

    Raises:
        OutputError: naming ``out`` and the reason.
    """
    pol_force, pol_inputs = _policy.get()
    force = pol_force if force is None else force
    inputs = pol_inputs if inputs is None else tuple(Path(p) for p in inputs)
    out = Path(out)
    real = out.resolve()
    if _inside(Path.cwd().resolve(), real):
        raise OutputError(out, "is the current directory or one of its parents; name a new directory for the output")
    for inp in inputs:
        if _inside(Path(inp).resolve(), real):
            raise OutputError(out, f"holds an input of this run ({inp}); the output would replace it. "
                                   "Write the output to another directory")
    _check_parent(out)
    while (before := _ino(out)) is not None:
        is_dir = out.is_dir()
        if is_dir and (force or made_by_sick(out)):
            break
        if _ino(out) != before:  # a concurrent sick writer swapped its directory in while we looked: look again
            continue
        if not is_dir:
            raise OutputError(out, "is a file; an output directory is needed here")
        raise OutputError(out, f"exists and was not made by sick (no {MARKER}); it would be replaced. "
                               "Choose a new directory, or pass --force to replace it")


def prepare_outputs(dirs: Iterable[str | Path] = (), files: Iterable[str | Path | None] = (),
                    inputs: Iterable[str | Path] = (), force: bool = False) -> None:
    """Check every output of a command before it computes or writes anything, and set the :func:`output_policy`
    (``force``, ``inputs``) for the :func:`atomic_dir` calls that follow in the current context.

    ``dirs`` are output directories (:func:`check_output_dir`), ``files`` output files (:func:`check_output_file`;
    None entries, unset options, are skipped).

    Raises:
        OutputError: the first output that may not or cannot be written.
    """
    paths = tuple(Path(p) for p in inputs)
    for d in dirs:
        check_output_dir(d, paths, force)
    for f in files:
        if f is not None:
            check_output_file(f)
    _policy.set((force, paths))


def check_output_file(path: str | Path) -> None:
    """Refuse an output file path that is a directory or lies under a file; nothing is written.

    Raises:
        OutputError: naming ``path`` and the reason.
    """
    path = Path(path)
    if path.is_dir():
        raise OutputError(path, "is a directory; a file name is needed here")
    _check_parent(path)


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True
    return True


def clean_stale(parent: str | Path, name: str, max_age: float = STALE_SECONDS) -> list[Path]:
    """Remove ``.NAME.tmp-PID-*`` and ``.NAME.old-PID-*`` left in ``parent`` by killed runs: those whose
    process is gone and that are older than ``max_age`` seconds. Returns the paths removed."""
    removed = []
    now = time.time()
    for kind in ("tmp", "old"):
        for p in Path(parent).glob(f".{glob.escape(name)}.{kind}-*"):
            pid_text = p.name[len(f".{name}.{kind}-"):].split("-", 1)[0]
            if not pid_text.isdigit() or _pid_alive(int(pid_text)):
                continue
            try:
                if now - p.lstat().st_mtime < max_age:
                    continue
                if p.is_dir() and not p.is_symlink():
                    shutil.rmtree(p, ignore_errors=True)
                else:
                    p.unlink(missing_ok=True)
            except OSError:
                continue
            removed.append(p)
    return removed


def _ino(path: Path) -> int | None:
    try:
        return os.lstat(path).st_ino
    except (FileNotFoundError, NotADirectoryError):
        return None


def _move_aside(out: Path) -> Path | None:
    """Rename the current ``out`` to a unique ``.NAME.old-PID-*`` name; None when another writer took it first."""
    old = out.with_name(f".{out.name}.old-{os.getpid()}-{uuid.uuid4().hex[:8]}")
    try:
        os.rename(out, old)
    except FileNotFoundError:
        return None
    return old


@contextlib.contextmanager
def atomic_dir(out: str | Path, inputs: Iterable[str | Path] | None = None,
               force: bool | None = None) -> Iterator[Path]:
    """Yield a temporary directory beside ``out``; on success it replaces ``out``, on error it is removed.

    ``out`` is checked first (:func:`check_output_dir`): an existing directory is replaced only if sick made it
    or with ``force``, never when it is a file or holds one of ``inputs``. Every directory made holds
    :data:`MARKER`. The old ``out`` is moved aside only once the new one is complete. Writers running at once
    do not fail: each retries until its directory is in place, so the last complete one wins and ``out`` is never
    partial. Temp directories of killed runs (dead PID, older than :data:`STALE_SECONDS`) are removed.

    Raises:
        OutputError: before anything is written, when ``out`` may not or cannot be written.
    """
    out = Path(out)
    force = _policy.get()[0] if force is None else force
    check_output_dir(out, inputs, force)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        clean_stale(out.parent, out.name)
        tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-{os.getpid()}-", dir=out.parent))
    except OSError as exc:
        raise OutputError(out, f"cannot write here: {exc.strerror or exc}") from None
    try:
        (tmp / MARKER).write_text(MARKER_TEXT, encoding="utf-8")
        yield tmp
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    os.chmod(tmp, 0o777 & ~_umask())  # mkdtemp makes the directory private (0700)
    olds: list[Path] = []
    try:
        while True:
            before = _ino(out)
            if before is not None:
                if not out.is_dir() or not (force or made_by_sick(out)):
                    if _ino(out) != before:
                        continue  # another writer moved it while we looked: look again
                    # someone put a file or their own folder at ``out`` while we wrote: leave it alone
                    raise OutputError(out, "appeared while sick was writing and was not made by sick; not replaced")
                old = _move_aside(out)
                if old is not None:
                    olds.append(old)
            try:
                os.rename(tmp, out)  # fails when another writer put its directory at ``out`` meanwhile: retry
                break
            except OSError as exc:
                if exc.errno not in (errno.ENOTEMPTY, errno.EEXIST):
                    raise OutputError(out, f"cannot write here: {exc.strerror or exc}") from None
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        if olds and not out.exists():
            with contextlib.suppress(OSError):
                os.rename(olds.pop(), out)  # put the previous output back
        raise
    for old in olds:
        shutil.rmtree(old, ignore_errors=True)


@contextlib.contextmanager
def atomic_file(path: str | Path) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; renamed to ``path`` on success, removed on error.

    Raises:
        OutputError: before anything is written, when ``path`` is a directory, lies under a file, or its
            directory cannot be written.
    """
    path = Path(path)
    check_output_file(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        clean_stale(path.parent, path.name)
        fd, name = tempfile.mkstemp(prefix=f".{path.name}.tmp-{os.getpid()}-", dir=path.parent)
    except OSError as exc:
        raise OutputError(path, f"cannot write here: {exc.strerror or exc}") from None
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes the file private (0600); give it a normal file's mode
    try:
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise OutputError(path, f"cannot write here: {exc.strerror or exc}") from None


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

    def walk(node: yaml.Node | None, path: tuple) -> None:
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


# ------------------------------------------------------------------ cells of files a spreadsheet or a web page shows

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""A cell that starts with one of these is a formula to a spreadsheet (OWASP, "CSV Injection")."""


def spreadsheet_cell(text: str) -> str:
    """``text`` made safe for a CSV that a spreadsheet opens: a cell that would start a formula gets a leading
    ``'`` (OWASP's advice), which :func:`unguard_cell` removes again on import."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def html_cell(text: str) -> str:
    """``text`` for a batch CSV whose values a web page shows raw (MTurk puts ``${column}`` into the page as it
    is): HTML-escaped, quotes included, so that no value can add markup or leave an attribute; a leading formula
    character is written as its character reference, so that the CSV cell starts no formula while the page
    shows the character itself. :func:`unguard_cell` returns the text."""
    escaped = html.escape(text, quote=True)
    return f"&#{ord(escaped[0])};{escaped[1:]}" if escaped.startswith(FORMULA_STARTS) else escaped


def unguard_cell(text: str) -> str:
    """The text of a cell written by :func:`spreadsheet_cell` or :func:`html_cell`, as it was before."""
    if "&" in text:
        text = html.unescape(text)
    return text[1:] if text[:1] == "'" and text[1:2] in FORMULA_STARTS and text[1:2] != "" else text
