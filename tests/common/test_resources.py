"""Language resources load faster without changing what they answer (issue 11's speed target): NLTK's WordNet
lemma index read back from its pickle, inflect imported without typeguard's instrumentation."""

from __future__ import annotations

import shutil
import warnings

import nltk
from nltk.corpus.reader.wordnet import WordNetCorpusReader

from pipeline.common import resources
from pipeline.corpus.wordforms import inflect_engine, plural


def test_wordnet_index_pickle_is_what_nltk_builds_and_goes_stale_with_its_inputs(tmp_path):
    root = resources.ensure_wordnet()
    cached = resources.wordnet()  # also puts the corpus on NLTK's data path, which NLTK requires of a reader
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fresh = WordNetCorpusReader(str(root), None)  # NLTK's own reader, no pickle involved
    assert cached.satellite_offsets == fresh.satellite_offsets
    assert list(cached._lemma_pos_offset_map.items()) == list(fresh._lemma_pos_offset_map.items())
    assert cached.synsets("dog") == fresh.synsets("dog")
    assert cached.synsets("fast", "s") == fresh.synsets("fast", "s")

    for name in resources._INDEX_FILES:
        shutil.copy(root / name, tmp_path / name)
    version = nltk.__version__
    assert resources._wordnet_index(tmp_path, version) is None  # no pickle yet
    resources._save_wordnet_index(tmp_path, version, fresh.satellite_offsets, fresh._lemma_pos_offset_map)
    satellites, index = resources._wordnet_index(tmp_path, version)
    assert satellites == fresh.satellite_offsets and index == fresh._lemma_pos_offset_map
    assert index.default_factory is dict  # NLTK indexes it as a defaultdict
    assert resources._wordnet_index(tmp_path, version + ".1") is None  # another NLTK
    with open(tmp_path / "index.adv", "a") as f:
        f.write("zzz r 1 0 1 0 00000000\n")
    assert resources._wordnet_index(tmp_path, version) is None  # other data
    (tmp_path / resources._INDEX_PICKLE).write_bytes(b"not a pickle")
    assert resources._wordnet_index(tmp_path, version) is None


def test_inflect_without_typeguard_answers_the_same_and_leaves_typeguard_as_it_was():
    import typeguard

    engine = inflect_engine()
    assert typeguard.typechecked is not None and typeguard.typechecked.__module__.startswith("typeguard")
    assert [plural(w) for w in ("woman", "sheep", "child", "bus", "person")] == \
        ["women", "sheep", "children", "buses", "people"]
    assert engine.a("hour") == "an hour" and engine.a("university") == "a university"
    assert engine.number_to_words(21) == "twenty-one"


def test_symspell_pickle_is_what_symspellpy_builds_and_a_broken_one_is_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setenv("SICK_CACHE_DIR", str(tmp_path))
    resources.symspell.cache_clear()
    try:
        built = resources.symspell()  # no pickle yet: built from the dictionary file, then saved
        assert len(list(tmp_path.glob("symspell-*.pickle"))) == 1
        resources.symspell.cache_clear()
        loaded = resources.symspell()
        assert loaded is not built
        assert loaded._words == built._words and loaded._deletes == built._deletes
        assert loaded._max_length == built._max_length
        for p in tmp_path.glob("symspell-*.pickle"):
            p.write_bytes(b"not a pickle")
        resources.symspell.cache_clear()
        assert resources.symspell()._words == built._words
    finally:
        resources.symspell.cache_clear()


def test_body_parts_of_people_and_animals_but_not_owned_things():
    # the words SICK keeps a possessive before ("his hands", "its mouth") and words it does not
    for word in ("hand", "mouth", "teeth", "hair", "paw", "beak", "tail", "head", "leg"):
        assert resources.body_part(word), word
    for word in ("dog", "baby", "shirt", "bike", "ball", "toy", "belongings", "grass"):
        assert not resources.body_part(word), word


def test_wordnet_loads_nltk_without_scipy_and_scipy_still_imports_afterwards():
    import subprocess
    import sys

    code = ("import sys; from pipeline.common import resources; resources.wordnet(); "
            "assert 'scipy' not in sys.modules and 'sklearn' not in sys.modules, 'scipy loaded'; "
            "assert resources.synsets('dog', 'n')[0].name() == 'dog.n.01'; "
            "from scipy.stats import rankdata; assert list(rankdata([3, 1])) == [2.0, 1.0]")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=resources.PROJECT_ROOT)
