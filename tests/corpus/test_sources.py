"""Source readers: formats, sampling, and errors that name file, line and field."""

from __future__ import annotations

import pytest

from pipeline.common.errors import InputError
from pipeline.corpus.sources import SourceSpec, caption_flaws, read_source, sample


def write(tmp_path, name, data: bytes | str):
    p = tmp_path / name
    p.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return str(p)


FLICKR = (
    "img1.jpg#0\tA dog runs on the beach .\n"
    "img1.jpg#1\tA brown dog is running near the sea .\n"
    "img1.jpg#2\tA dog plays in the sand .\n"
    "img2.jpg#0\tTwo girls are laughing .\n"
    "img2.jpg#1\tTwo kids laugh together .\n"
    "img3.jpg#0\tA lonely caption .\n"
)


def test_flickr8k_pairs_two_captions_of_one_image(tmp_path):
    path = write(tmp_path, "captions.txt", FLICKR)
    pairs, bad = read_source(SourceSpec.parse(f"flickr8k:{path}"), seed=3)
    assert bad == []
    assert [p.source_id.split("#")[0] for p in pairs] == ["img1.jpg", "img2.jpg"]  # img3 has one caption
    by_image = {}
    for line in FLICKR.splitlines():
        key, caption = line.split("\t")
        by_image.setdefault(key.split("#")[0], []).append(caption)
    for p in pairs:
        assert p.dataset == "FLICKR" and p.s0_a != p.s0_b
        assert {p.s0_a, p.s0_b} <= set(by_image[p.source_id.split("#")[0]])
    # seeded: same seed, same captions
    again, _ = read_source(SourceSpec.parse(f"flickr8k:{path}"), seed=3)
    assert again == pairs


def test_sts_reads_gold_beside_input(tmp_path):
    path = write(tmp_path, "STS.input.demo.txt", "A man is singing.\tA man sings.\nA cat sleeps.\tA dog barks.\n")
    write(tmp_path, "STS.gs.demo.txt", "4.8\n\n")
    pairs, _ = read_source(SourceSpec.parse(f"sts:{path}"))
    assert [p.score for p in pairs] == [4.8, None]
    assert pairs[1].s0_b == "A dog barks." and pairs[1].line == 2 and pairs[0].dataset == "SEMEVAL"


def test_stsb_quoting_off_and_filter(tmp_path):
    rows = ("main-captions\tMSRvid\t2012test\t0001\t5.000\tA \"plane is taking off.\tAn air plane is taking off.\n"
            "main-news\theadlines\t2013\t0002\t1.0\tMarkets fall.\tRain expected.\tlicence\textra\n")
    path = write(tmp_path, "sts-demo.csv", rows)
    pairs, _ = read_source(SourceSpec.parse(f"stsb:{path}", (("genre", "main-captions"),)))
    assert len(pairs) == 1 and pairs[0].s0_a == 'A "plane is taking off.' and pairs[0].score == 5.0
    all_pairs, _ = read_source(SourceSpec.parse(f"stsb:{path}"))
    assert len(all_pairs) == 2


def test_tsv_header_and_dataset_column(tmp_path):
    path = write(tmp_path, "pairs.tsv", "sentence_A\tsentence_B\nA man walks.\tA man is walking.\tMINE\nA b.\tC d.\n")
    pairs, _ = read_source(SourceSpec.parse(f"tsv:{path}"))
    assert [p.dataset for p in pairs] == ["MINE", "TSV"] and [p.line for p in pairs] == [2, 3]


@pytest.mark.parametrize("content,line,needle", [
    ("img1.jpg#0\tA dog runs .\nimg1.jpg#1 no tab here\n", 2, "no tab"),
    ("img1.jpg#0\tA dog runs .\nimg1.jpg#1\t   \n", 2, "empty caption"),
    ("img1.jpg#0\tA dog runs .\nimg1.jpg#x\tA dog .\n", 2, "bad caption id"),
    (b"img1.jpg#0\tA dog runs .\nimg1.jpg#1\tA caf\xe9 .\n", 2, "UTF-8"),
])
def test_bad_lines_name_file_and_line(tmp_path, content, line, needle):
    path = write(tmp_path, "bad.txt", content)
    with pytest.raises(InputError) as err:
        read_source(SourceSpec.parse(f"flickr8k:{path}"))
    assert err.value.line == line and needle in str(err.value) and path in str(err.value)
    pairs, bad = read_source(SourceSpec.parse(f"flickr8k:{path}"), skip_bad_lines=True)
    assert [b.line for b in bad] == [line] and pairs == []


def test_unknown_kind_and_missing_file(tmp_path):
    with pytest.raises(InputError, match="unknown source kind 'flickr'"):
        SourceSpec.parse("flickr:x.txt")
    with pytest.raises(InputError, match="file not found"):
        read_source(SourceSpec.parse(f"sts:{tmp_path / 'nope.txt'}"))


def test_sample_is_seeded_and_keeps_file_order(tmp_path):
    lines = "".join(f"Sentence number {i} here.\tAnother sentence {i}.\n" for i in range(50))
    pairs, _ = read_source(SourceSpec.parse(f"sts:{write(tmp_path, 'STS.input.x.txt', lines)}"))
    a = sample(pairs, 10, seed=5, key="k")
    assert a == sample(pairs, 10, seed=5, key="k") and a != sample(pairs, 10, seed=6, key="k")
    assert [p.line for p in a] == sorted(p.line for p in a) and len(set(a)) == 10
    assert sample(pairs, 500, seed=5, key="k") == pairs


def test_real_flickr8k_and_msrvid(shared_data):
    path = shared_data / "flickr8k" / "Flickr8k.token.txt"
    images = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        key = line.split("\t")[0]
        images.setdefault(key.rsplit("#", 1)[0], 0)
        images[key.rsplit("#", 1)[0]] += 1
    pairs, bad = read_source(SourceSpec.parse(f"flickr8k:{path}"))
    assert bad == [] and len(pairs) == sum(n >= 2 for n in images.values())
    sts = shared_data / "sts2012_msrvid" / "train" / "STS.input.MSRvid.txt"
    gold = (shared_data / "sts2012_msrvid" / "train" / "STS.gs.MSRvid.txt").read_text().split()
    pairs, _ = read_source(SourceSpec.parse(f"sts:{sts}"))
    assert len(pairs) == len(gold) and all(p.score == float(g) for p, g in zip(pairs, gold))


# ------------------------------------------------------------------ issue 13: fields, gold values, empty inputs

def _spec(tmp_path, kind, text, name="in.txt", filters=()):
    from pipeline.corpus.sources import SourceSpec

    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return SourceSpec.parse(f"{kind}:{path}", filters)


def test_extra_tab_fields_are_errors_not_dropped(tmp_path):
    from pipeline.common.errors import InputError
    from pipeline.corpus.sources import read_sentences, read_source

    with pytest.raises(InputError, match="found 4 tab-separated fields") as err:
        read_source(_spec(tmp_path, "tsv", "A dog runs\tA cat sits\tTSV\textra\n"))
    assert err.value.line == 1
    with pytest.raises(InputError, match="found 3 tab-separated fields"):
        read_source(_spec(tmp_path, "sts", "A dog runs\tA cat sits\tmore\n", name="STS.input.x.txt"))
    norm = tmp_path / "norm.tsv"
    norm.write_text("id\tsentence\n1\tA dog runs\n2\tA cat\tsits\n", encoding="utf-8")
    with pytest.raises(InputError, match="expected 2 tab-separated fields") as err:
        read_sentences(str(norm))
    assert err.value.line == 3
    norm.write_text("sentence_A\tsentence_B\nA dog runs\tA cat sits\n", encoding="utf-8")
    with pytest.raises(InputError, match="needs a 'sentence' column"):
        read_sentences(str(norm))


@pytest.mark.parametrize("gold, words", [("nan", "outside"), ("inf", "outside"), ("7", "outside"), ("-1", "outside")])
def test_sts_gold_values_are_checked(tmp_path, gold, words):
    from pipeline.common.errors import InputError
    from pipeline.corpus.sources import read_source

    (tmp_path / "STS.gs.x.txt").write_text(f"3.5\n{gold}\n", encoding="utf-8")
    with pytest.raises(InputError, match=words) as err:
        read_source(_spec(tmp_path, "sts", "A dog runs\tA cat sits\nA man eats\tA man cooks\n",
                          name="STS.input.x.txt"))
    assert err.value.line == 2 and err.value.path.endswith("STS.gs.x.txt")


def test_sts_gold_shorter_than_input_and_stsb_range(tmp_path):
    from pipeline.common.errors import InputError
    from pipeline.corpus.sources import read_source

    (tmp_path / "STS.gs.x.txt").write_text("3.5\n", encoding="utf-8")
    with pytest.raises(InputError, match="gold file has 1 lines"):
        read_source(_spec(tmp_path, "sts", "A dog runs\tA cat sits\nA man eats\tA man cooks\n",
                          name="STS.input.x.txt"))
    row = "main-captions\tMSRvid\t2012test\t0001\t{}\tA dog runs\tA cat sits\n"
    with pytest.raises(InputError, match="outside 0.0-5.0"):
        read_source(_spec(tmp_path, "stsb", row.format("5.5"), name="sts.csv"))
    pairs, _ = read_source(_spec(tmp_path, "stsb", row.format("5.0"), name="sts.csv"))
    assert pairs[0].score == 5.0


def test_empty_sources_and_filters_that_match_nothing_are_errors(tmp_path):
    from pipeline.common.errors import InputError
    from pipeline.corpus.sources import read_source

    with pytest.raises(InputError, match="no sentence pairs"):
        read_source(_spec(tmp_path, "tsv", ""))
    with pytest.raises(InputError, match="no sentence pairs"):
        read_source(_spec(tmp_path, "tsv", "sentence_A\tsentence_B\n"))
    row = "main-captions\tMSRvid\t2012test\t0001\t2.5\tA dog runs\tA cat sits\n"
    with pytest.raises(InputError, match="found genre=main-captions"):
        read_source(_spec(tmp_path, "stsb", row, name="sts.csv", filters=(("genre", "main-news"),)))


def test_a_one_megabyte_line_is_an_error_or_a_skip(tmp_path):
    from pipeline.common.errors import InputError
    from pipeline.corpus.sources import read_source

    text = "A dog runs\tA cat sits\n" + "a " * 500_000 + "\tA cat\n"
    with pytest.raises(InputError, match="too long") as err:
        read_source(_spec(tmp_path, "tsv", text))
    assert err.value.line == 2
    pairs, bad = read_source(_spec(tmp_path, "tsv", text), skip_bad_lines=True)
    assert len(pairs) == 1 and [b.line for b in bad] == [2]


def test_flickr8k_takes_the_two_captions_needing_least_repair(tmp_path):
    captions = ["A man throwing a can int a trashcan .",  # typo "int"
                "A man is throwing a can into a trash can .",
                "an asian man doing exercised , outside",  # lower-case nationality, comma, no "is V-ing"
                "A man is throwing garbage away .",
                "Man and and can ."]  # doubled word, short
    path = write(tmp_path, "captions.txt", "".join(f"img9.jpg#{n}\t{c}\n" for n, c in enumerate(captions)))
    for seed in (1, 2, 3):
        pairs, _ = read_source(SourceSpec.parse(f"flickr8k:{path}"), seed=seed)
        assert (pairs[0].s0_a, pairs[0].s0_b) == (captions[1], captions[3])
        assert pairs[0].source_id == "img9.jpg#1-3"


def test_caption_flaws_scores_surface_errors():
    from pipeline.corpus.sources import caption_flaws

    clean = caption_flaws("A dog is running on the beach .")
    assert clean == 0
    for bad in ("A boy is trying to catch and orange Frisbee .", "A man's arm is touching another mans arm .",
                "A tomatoe is being sliced .", "An asian man is running in the park .",
                "A dog is running running on the beach ."):
        assert caption_flaws(bad) > clean, bad
    assert caption_flaws("A dog is running in and out of the water .") == clean  # "in and out" is no typo


def test_caption_flaws_garbles_lose_to_clean_captions_of_the_same_image():
    # captions of Flickr 8K images whose garble the readers found copied into S1 (issue 11, r3-r5), each against
    # a clean caption of the same image that used to tie with it or beat it
    for garbled, clean in (
            ("a small dog with a blue color fetching a yellow ball", "A puppy playing with a ball ."),
            ("a woman in a black overcoat and red hair with man in white walking behind her",
             "A woman wears sunglasses and a black coat as she walks ."),
            ("One man kissing another man on the check and both are in white shirts with black vests .",
             "One man in a vest and tie plants a kiss on the cheek of another happy man ."),
            ("Three boy teenagers and two female teenagers are making excited facial expressions .",
             "five teenagers cheering in a living room"),
            ("a large woman sits in a port a john .", "A woman who cleans out port-a-potties rests ."),
            ("The man in the tan shirt gives to the man in the wheelchair and hat .",
             "a man donates to a panhandler ."),
            ("The little girl is riding in a brown horse .", "A girl in a helmet rides a horse ."),
            ("A young dark haired girl with her hands raised over her head .",
             "A girl in a grey shirt puts her hands over her head in a gesture ."),
            ("A girl in a gray shit is throwing her hands up .",
             "A young girl in a grey illustrated shirt is holding her hands over her head ."),
            ("kids are playing ball in front of a , big fancy building",
             "Three kids play on a wall with a green ball ."),
            ("A blond woman is guessing a brown-haired man on the cheek .",
             "a blond woman kissing the cheek of a brown haired man ."),
            ("A person in a blue biking uniform is ridding a dirt bike on a grassy track .",
             "A person in a biking suit rides a bike down a hill ."),
            ("A dog leaps over a man in a white cap to catch and orange Frisbee .",
             "Several people are standing and sitting on a grassy field watching a dog jump over a man to catch an "
             "orange Frisbee ."),
            # r6: a run-on, "is" for "in" before a garment, people coordinated with a place
            ("Two young men on bicycles one is doing a flip while the other watches",
             "Two young men do cycle figures on ramp ."),
            ("A person is a red hat and winter jacket is looking into the distance .",
             "A person with gray hair wears a red hat and watches it snow ."),
            ("Two boys in blue shirts fighting behind a grey car and two other children .",
             "two boys in blue shirts fighting in a parking lot"),
            # r9: "and" before a participle with no verb before it, three stacked participles, "sprinklers" for
            # "sparklers", "it" after a plural
            ("Three children and playing and laughing on the floor .", "Three children wrestle on a floral carpet ."),
            ("Person wearing black and white striped shirt holding a red skateboard standing on sidewalk with stars .",
             "A skateboarder in a striped shirt is holding his skateboard ."),
            ("A little boy holds fire sprinklers out in front of him .",
             "A small boy holding two fireworks sparklers ."),
            ("There are two motorcycles with a man and a woman on it .",
             "Two motorcycles and four riders are on the road ."),
            ("Beautiful scenery with a boat on the lake .", "A person paddles a boat on a lake ."),
            ("Smiling girl with brown hair blowing in air .", "A girl is smiling in the wind ."),
            ("Two girls playing on the", "Two girls are playing on the beach ."),
            ("Hooded women at event , one seated next to a table with large glasses on it .",
             "People shopping at an outdoor marketplace ."),
            ("Two woman wearing black shoes stand together while a person sits behind them .",
             "Two women in black coats standing in front of a person sitting on a box on the ground ."),
            ("Two little boys in tuxedos .", "Two boys are standing on a stage ."),
            ("A girls plays in the surf .", "A girl is playing in the surf ."),
            ("Two tan dogs smell each others faces .", "Two dogs are sniffing each other .")):
        assert caption_flaws(garbled) > caption_flaws(clean), garbled
    # the patterns leave ordinary captions alone
    for fine in ("A dog wearing a red collar is running .", "A girl with red hair is smiling .",
                 "Two boys are playing and both are laughing .", "A man is riding in a boat on the water .",
                 "A boy is sleeping with his eyes closed .",
                 "A young boy slides down a water slide with his eyes closed .",
                 "Two dogs , one is running .", "A man is wearing a red hat .", "A man is a dress designer .",
                 "A boy plays with a ball and other children .", "Two dogs running and playing in the grass .",
                 "A man in a hat and running shoes is jogging .", "A man wearing a hat is holding a bag .",
                 "Children are running through a water sprinkler .",
                 "Two dogs are playing with a toy with a bell on it .",
                 "A girl with her hair blowing in the wind is running .", "A man is sitting in the shade .",
                 "A three dog sled team is running .", "A few girls are playing .",
                 "A girl in a white dress is dancing ."):
        # (0.5 for a caption not yet in the present continuous, 1 more without any "is/are"; a comma costs 1)
        assert caption_flaws(fine) <= (0.5 if " is " in fine or " are " in fine else 1.5) + 0.5 * fine.count(","), \
            fine


def test_caption_flaws_prefer_captions_with_is_are():
    """Readers of seeds 2-8 found 4 % of the S1s made from "is/are V-ing" captions bad and 10 % of those from
    captions without "is/are": a caption with no "is/are" costs 1.5, one with "is/are" not before an -ing form
    0.5."""
    assert caption_flaws("A dog is running on the beach .") == 0
    assert caption_flaws("A dog is on the beach .") == 0.5
    assert caption_flaws("A dog runs on the beach .") == 1.5
    assert caption_flaws("A dog running on the beach .") == 1.5


def test_caption_flaws_bare_subjects_and_commas():
    """Readers of seeds 14-29 found 43 % of the Flickr 8K S1s made by adding a bare subject's article bad
    ("Boy and white dog running in grassy field": the caption leaves out its other articles too), and 35 % of
    those from captions with a comma: a bare start costs 1.5, a comma 1 (was 0.5)."""
    clean = caption_flaws("A dog is running on the beach .")
    for bare in ("Man is running on the beach .", "Young boy is running on the beach .",
                 "Black dog is running on the beach ."):
        assert caption_flaws(bare) == clean + 1.5, bare
    for fine in ("Dogs are running on the beach .", "People are running on the beach .",
                 "Two dogs are running on the beach .", "The dog is running on the beach .",
                 "Children are running on the beach ."):
        assert caption_flaws(fine) == clean, fine
    assert caption_flaws("A dog is running on the beach , fast .") == clean + 1


def test_flickr8k_prefers_captions_with_modifiers_among_equally_clean_ones(tmp_path):
    from pipeline.common.resources import RULES_DIR
    from pipeline.corpus.rules import load_rules

    captions = ["A dog is running on the beach .",
                "A black dog is running on the beach with a red ball .",  # two modifiers
                "A dog is running by the sea .",
                "A big dog is running near the water .",  # one modifier
                "A dog is running on the sand ."]
    assert len({caption_flaws(c) for c in captions}) == 1  # equally clean: only the modifiers decide
    adjectives = load_rules(RULES_DIR).lexicon("adjective_classes")
    modifiers = frozenset(w for words in adjectives.values() for w in words)
    path = write(tmp_path, "captions.txt", "".join(f"img9.jpg#{n}\t{c}\n" for n, c in enumerate(captions)))
    for seed in (1, 2, 3):
        pairs, _ = read_source(SourceSpec.parse(f"flickr8k:{path}"), seed=seed, modifiers=modifiers)
        assert pairs[0].source_id == "img9.jpg#1-3"
    # without the lexicon the seed alone decides among them
    drawn = {read_source(SourceSpec.parse(f"flickr8k:{path}"), seed=s)[0][0].source_id for s in range(8)}
    assert len(drawn) > 1


def test_flickr8k_modifiers_offset_half_a_flaw_point_each(tmp_path):
    """Two modifiers outweigh a caption's comma (1), not its typo (2): S4 keeps Table 5's share."""
    from pipeline.common.resources import RULES_DIR
    from pipeline.corpus.rules import load_rules

    captions = ["A dog is running on the beach .",
                "A black dog is running with a red ball , wet from the sea .",  # a comma (1), 2 modifiers
                "A dog is running by the sea .",
                "A big brown dog is runnning near the watter .",  # a typo ("runnning": 2), 2 modifiers
                "A dog is running on the sand ."]
    adjectives = load_rules(RULES_DIR).lexicon("adjective_classes")
    modifiers = frozenset(w for words in adjectives.values() for w in words)
    path = write(tmp_path, "captions.txt", "".join(f"img9.jpg#{n}\t{c}\n" for n, c in enumerate(captions)))
    for seed in (1, 2, 3):
        pairs, _ = read_source(SourceSpec.parse(f"flickr8k:{path}"), seed=seed, modifiers=modifiers)
        assert captions[1] in (pairs[0].s0_a, pairs[0].s0_b) and captions[3] not in (pairs[0].s0_a, pairs[0].s0_b)


def test_caption_flaws_r11_garbles_lose_to_clean_captions_of_the_same_image():
    # captions written after the garbles readers found in S1 (r9 verdicts), each against a clean caption of the
    # same scene
    for garbled, clean in (
            ("A man in a yellow and yellow shirt hugs a friend .", "A man in a yellow shirt hugs a friend ."),
            ("A black and a black dog are running .", "Two black dogs are running ."),
            ("Two girls are wading in the sea wearing shorts and gym shorts .", "Two girls are wading in the sea ."),
            ("A brown dog is chasing a ping ball .", "A brown dog is chasing a pink ball ."),
            ("A duck is landing on pond water .", "A duck is landing on the pond ."),
            ("A tall man playing tennis with white shoes", "A tall man is playing tennis ."),
            ("A woman in a cap with long sleeves walks on a hill .", "A woman in a cap walks on a hill ."),
            ("Three girls standing holding their shoes .", "Three girls are holding their shoes ."),
            ("A horse is clearing a 4 foot high fence .", "A horse is clearing a fence ."),
            ("A BMX rider is jumping on his motorcycle .", "A man is jumping on his motorcycle ."),
            ("A small dog catching Frisbee .", "A small dog is catching a Frisbee ."),
            ("A cat is a puddle .", "A cat is in a puddle ."),
            ("Two kids jump over a wall over the river .", "Two kids are jumping over a wall ."),
            ("A girl sitting i front of a shop .", "A girl is sitting in front of a shop ."),
            ("Two dogs are playing ; one has a stick .", "Two dogs are playing with a stick ."),
            ("This man is riding a horse .", "A man is riding a horse ."),
            ("A cat being chased in a garden .", "A cat is being chased in a garden ."),
            ("A cat is starring at a bird .", "A cat is staring at a bird ."),
            ("Four are sitting on a bench .", "Four men are sitting on a bench ."),
            ("Two boys playing in the park one in red and the other in blue .",
             "Two boys are playing in the park ."),
            # q5-q8 readers: a colour after a person with no "in", a picture as the scene, typos of real words
            ("A boy in red and a girl pink are walking .", "A boy in red and a girl in pink are walking ."),
            ("In this picture all men are jumping .", "All the men are jumping ."),
            ("Two dogs are swimming in water whist carrying a stick .", "Two dogs are swimming in water ."),
            ("A rock climber is repelling .", "A rock climber is climbing ."),
            ("A man is sitting outside a door and his head on his chin .", "A man is sitting outside a door ."),
            ("A little boy in a red shirt and a dirty face is smiling .",
             "A little boy in a red shirt is smiling ."),
            ("A white dog is swimming and carrying a tennis .", "A white dog is swimming and carrying a tennis ball ."),
            ("A hiker in a red on a snowy peak .", "A hiker in red is on a snowy peak ."),
            ("A man is lying the green grass .", "A man is lying on the green grass ."),
            ("A small brown puddle is running through a grassy yard .",
             "A small brown poodle is running through a grassy yard ."),
            ("A white ad brown dog is running on brown grass .", "A white and brown dog is running on brown grass ."),
            ("A small brown or white dog is running .", "A small brown and white dog is running ."),
            ("A girl is swimming in a clear water .", "A girl is swimming in clear water ."),
            ("A man is holding a sign with a very small writing .",
             "A man is holding a sign with very small writing ."),
            ("People are walking with a mountain the background .",
             "People are walking with a mountain in the background ."),
            ("A man is walking near a group a of protesters .", "A man is walking near a group of protesters ."),
            ("Three women are riding a boat through along a canal .", "Three women are riding a boat along a canal ."),
            ("Four judges sit at a table with the center left one speaking .",
             "Four judges sit at a table and one of them is speaking ."),
            ("A dog is backlit buy the sun as he jumps .", "A dog is jumping to catch a ball ."),
            ("A large dog is leaping through the hair .", "A large dog is leaping through the air ."),
            ("A boy in a blue shirt and white shirts plays tennis .", "A boy in a blue shirt plays tennis ."),
            ("A grey and white puddle are fighting next to another dog .", "Two dogs are fighting on a bed ."),
            ("The man wearing a red jacket with glass is looking at another man .",
             "The man wearing a red jacket is looking at another man ."),
            ("A child poses with a funny by for the camera .", "A child poses for the camera by the water ."),
            ("A person is hugging a big white dog and on a red recliner .",
             "A woman is hugging a fluffy white dog ."),
            ("The blond gear with a pink shirt blows on a dandelion .", "A blond girl blows on a dandelion ."),
            ("A woman wearing a white swim holds a small boy .", "A woman is holding a boy in a swimming pool ."),
            # q25 readers
            ("A boy is wearing a red shirt with the word zumba on it .", "A boy is wearing a red shirt ."),
            ("A girl is resting he feet on a bench .", "A girl is resting her feet on a bench ."),
            ("Four soccer players and two are running for the ball .", "Four soccer players are running ."),
            ("A girl runs from two boys chasing her dressed in blue .", "A girl runs from two boys in blue ."),
            ("A girl in blue short and a cap is running .", "A girl in blue shorts and a cap is running ."),
            ("The woman is with a phone looking at a map .", "The woman with a phone is looking at a map ."),
            ("A boy is wearing a green coat sitting on a bench .",
             "A boy wearing a green coat is sitting on a bench ."),
            ("A boy wearing a blue cap and carry a bag .", "A boy wearing a blue cap is carrying a bag ."),
            ("A girl is kicking a ball nearby spectators .", "A girl is kicking a ball near spectators ."),
            ("Three blog dogs are running .", "Three big dogs are running ."),
            # q26 readers
            ("A woman is smiling as other men and woman walk past .", "A woman is smiling as other people walk past ."),
            ("A pair of shoes are worn by a girl .", "A girl is wearing a pair of shoes ."),
            ("A white dog shakes the water of himself .", "A white dog shakes the water off himself ."),
            ("A group of young man sunbathing is field .", "A group of young men are sunbathing in a field ."),
            ("A group of woman in red shirts are singing .", "A group of women in red shirts are singing ."),
            ("Two boys on a swing and a house is behind them .", "Two boys are on a swing in front of a house ."),
            ("Two men are playing at a pool place .", "Two men are playing pool ."),
            # q27 readers
            ("Two monks dressed in orange ropes are walking .", "Two monks dressed in orange robes are walking ."),
            ("A girl on beside a lake is reading .", "A girl beside a lake is reading ."),
            ("A woman reported in a red coat is talking .", "A woman reporter in a red coat is talking ."),
            ("A boy is riding a trails bike .", "A boy is riding a trail bike ."),
            ("Fans are holding up on a player in victory .", "Fans are holding up a player in victory ."),
            ("A cat is jumping playing with a string .", "A cat is jumping and playing with a string ."),
            # q30 readers
            ("Two men are doing exercised in a park .", "Two men are doing exercises in a park ."),
            ("A man is walking past something called the red bar .", "A man is walking past a red bar ."),
            ("A man in red and blue ice climbing with an axe .",
             "A man in red and blue is climbing ice with an axe ."),
            ("A dog is running with across a field .", "A dog is running across a field ."),
            ("A dog is swimming in natural water .", "A dog is swimming in a pond ."),
            ("A boy is causing a water to spray .", "A boy is causing water to spray ."),
            ("A skater is doing a trick in a metal rail .", "A skater is doing a trick on a metal rail ."),
            ("Two men dressed in a black stand on a hill .", "Two men dressed in black stand on a hill ."),
            ("A dog is rolling in a yard of grass .", "A dog is rolling in a grassy yard ."),
            ("A man is sitting on a hit boat .", "A man is sitting on a fishing boat ."),
            ("The small brown down is wearing a tutu .", "The small brown dog is wearing a tutu .")):
        assert caption_flaws(garbled) > caption_flaws(clean), garbled
    # what the new patterns leave alone
    for fine in ("A boy is playing ping pong .", "A man is playing ping-pong with a friend .",
                 "A black dog and a brown dog are running .", "A man in a shirt with long sleeves is walking .",
                 "A man is standing and holding a sign .", "A woman is standing looking at the sea .",
                 "A girl is swimming in the lake water .", "A boy is taking a picture of a dog .",
                 "A boy is wearing a T-shirt .", "A man 's dog is running .", "There is a dog in the pool .",
                 "Two dogs are playing with one on top of the other .",
                 "A dog is running around a pond being watched by a boy .",
                 "A woman starring in a play is singing .", "Two men are standing on a hill .",
                 "A black man is walking .", "A man is white-water rafting .",
                 "A boat is going along a canal in the city .", "A boy is kicking a ball to the left .",
                 "A woman is going to buy the bread .", "A girl is brushing the hair of a doll .",
                 "A man in a shirt and tie is talking .", "A man is drinking from a glass .",
                 "A girl is holding a doll and a ball .", "A woman is holding a baby in a sling and a bag .",
                 "A girl in a white swimsuit is swimming .", "A boy in red swim trunks is jumping .",
                 "A woman is wearing running shoes on a track .", "A group of boys sits and two are smiling .",
                 "A girl wearing a red dress is smiling and holding a cup .", "A girl is with a friend .",
                 "A boy in red shorts is running .", "A sign with the words on it is red .",
                 "A dog is playing in a field with nearby cars .", "People are watching from nearby tents .",
                 "A man in a blue short-sleeved shirt is climbing .", "A dog is shaking water off of itself .",
                 "A group of boy scouts are resting .", "Two men and a woman are posing ."):
        assert caption_flaws(fine) <= 0.5, fine


def test_real_flickr8k_r9_garbles_not_chosen(shared_data):
    path = shared_data / "flickr8k" / "Flickr8k.token.txt"
    pairs, _ = read_source(SourceSpec.parse(f"flickr8k:{path}"), seed=1)
    chosen = {p.source_id.split("#")[0]: (p.s0_a, p.s0_b) for p in pairs}
    # captions behind S1 errors of the r9 readings are no longer taken
    for image, garble in (("2054869561_ff723e9eab.jpg", "ping Frisbee"),
                          ("3321334180_8f764e0e0f.jpg", "on lake water"),
                          ("3154641421_d1b9b8c24c.jpg", "basketball with orange shoes"),
                          ("2089555297_95cf001fa7.jpg", "hat with long sleeves"),
                          ("2230067846_74046b89d3.jpg", "standing holding"),
                          ("3516935867_78cf63c69c.jpg", "rung high jump"),
                          ("3670907052_c827593564.jpg", "motorcycle"),
                          ("3500399969_f54ce5848f.jpg", "walk over blue"),
                          ("2277081067_d2b4c98bce.jpg", "sweat shorts"),
                          ("2504056718_25ded44ecb.jpg", "leaping for Frisbee"),
                          ("1388373425_3c72b56639.jpg", "This woman")):
        assert not any(garble in c for c in chosen[image]), (image, chosen[image])


def test_sibling_slips_finds_real_word_typos_by_the_other_captions():
    from pipeline.corpus.sources import sibling_slips

    dogs = ["A brown and white dog leaps", "A dog running with a Frisbee", "A fit dog leaps with a disc",
            "A dog is jumping"]
    assert sibling_slips("The brown and white bog has a red item in its mouth", dogs) == 1
    # forms of one word and words the siblings share are no slips
    assert sibling_slips("Two dogs are leaping", dogs) == 0
    assert sibling_slips("A dog runs on a grassy field", ["A dog on the grass"] * 3 + ["A dog"]) == 0
    # a word only two siblings use is no evidence
    assert sibling_slips("The bog is running", ["A dog", "A dog", "A puppy", "A pet"]) == 0


def test_real_flickr8k_r13_real_word_typos_not_chosen(shared_data):
    path = shared_data / "flickr8k" / "Flickr8k.token.txt"
    pairs, _ = read_source(SourceSpec.parse(f"flickr8k:{path}"), seed=1)
    chosen = {p.source_id.split("#")[0]: (p.s0_a, p.s0_b) for p in pairs}
    # r13 readers: "The bog, which is brown and white" (four siblings say "dog")
    assert not any(" bog " in c for c in chosen["428408242_b32faf2240.jpg"]), chosen["428408242_b32faf2240.jpg"]


def test_corpus_slips_find_real_word_typos_by_the_whole_file():
    from collections import Counter

    from pipeline.corpus.sources import corpus_slips

    counts = Counter({"dog": 500, "dogs": 200, "a": 900, "is": 900, "white": 300, "over": 150, "doge": 1, "gover": 1,
                      "tan": 2, "man": 400, "holding": 120, "holds": 1})
    assert corpus_slips("A man is holding a white doge", counts) == 1
    assert corpus_slips("A dog is running gover rocky ground", counts) == 1
    # a form of the common word is no slip ("holds" beside "holding"); nor is a word the file uses often enough
    assert corpus_slips("A man holds a white dog", counts) == 0
    counts["doge"] = 3
    assert corpus_slips("A man is holding a white doge", counts) == 0
    assert corpus_slips("A man is holding a white doge", Counter()) == 0


def test_real_flickr8k_q8_corpus_slips_not_chosen(shared_data):
    path = shared_data / "flickr8k" / "Flickr8k.token.txt"
    pairs, _ = read_source(SourceSpec.parse(f"flickr8k:{path}"), seed=1)
    chosen = {p.source_id.split("#")[0]: (p.s0_a, p.s0_b) for p in pairs}
    # q5 and q8 readers: "holding a white doge", "running gover rocky ground" (no sibling caption shows the typo)
    for image, slip in (("3439982121_0afc6d5973.jpg", " doge "), ("359837950_9e22ffe6c2.jpg", " gover ")):
        assert not any(slip in c for c in chosen[image]), chosen[image]


def test_quoted_text_costs_two_points():
    # r13, seed-2 build: "signs offering ' free hugs '" became "offering' free hugs'", "reading a picture"
    plain = "Two girls are holding up signs offering free hugs"
    assert caption_flaws("Two girls are holding up signs offering ' free hugs '") == caption_flaws(plain) + 2
    assert caption_flaws('A man is holding a sign that says " Free Hugs "') == \
        caption_flaws("A man is holding a sign that says Free Hugs") + 2


# ------------------------------------------------------------------ clean source pairs first (issue 11)

def _images(n_clean: int, n_fragment: int) -> str:
    """Flickr 8K lines: ``n_clean`` images whose captions are "is V-ing" sentences, then ``n_fragment`` whose
    captions have no "is/are" (1.5 flaw points each, no modifier)."""
    verbs = ["running", "jumping", "sitting", "playing", "walking"]
    lines = []
    for k in range(n_clean):
        lines += [f"clean{k}.jpg#{j}\tA dog is {verbs[j]} on the beach .\n" for j in range(5)]
    for k in range(n_fragment):
        lines += [f"frag{k}.jpg#{j}\tA dog {verbs[j][:-3]}s on the beach .\n" for j in range(5)]
    return "".join(lines)


def test_sample_takes_clean_pairs_first_and_fills_with_flawed_ones(tmp_path):
    path = write(tmp_path, "captions.txt", _images(6, 20))
    pairs, _ = read_source(SourceSpec.parse(f"flickr8k:{path}"), seed=1)
    fragment = pairs[-1]
    assert fragment.source_id.startswith("frag") and fragment.flaws == 1.5  # no "is/are": 0.5 + 1
    for seed in (1, 2, 3):
        picked = sample(pairs, 5, seed, "k")
        # 6 clean of 26 images: a plain random draw of 5 would hold a fragment image about 99 % of the time
        assert len(picked) == 5 and all(p.source_id.startswith("clean") and p.flaws == 0 for p in picked)
        assert [p.line for p in picked] == sorted(p.line for p in picked)
        more = sample(pairs, 10, seed, "k")  # all 6 clean ones, then 4 flawed ones in draw order
        assert sum(p.source_id.startswith("clean") for p in more) == 6 and len(set(more)) == 10
    assert sample(pairs, 10, 1, "k") != sample(pairs, 10, 2, "k")


def test_sample_does_not_make_pairs_whose_floor_is_too_high(tmp_path):
    path = write(tmp_path, "captions.txt", _images(6, 20))
    pairs, _ = read_source(SourceSpec.parse(f"flickr8k:{path}"), seed=1)
    sample(pairs, 5, 1, "k")
    assert all(not pairs[k].source_id.startswith("frag") for k in pairs._made)  # fragments never scored


def test_real_flickr8k_flaw_floor_bounds_the_pairs_flaws(shared_data):
    from pipeline.common.resources import RULES_DIR
    from pipeline.corpus.rules import load_rules

    adjectives = load_rules(RULES_DIR).lexicon("adjective_classes")
    modifiers = frozenset(w for words in adjectives.values() for w in words)
    path = shared_data / "flickr8k" / "Flickr8k.token.txt"
    pairs, _ = read_source(SourceSpec.parse(f"flickr8k:{path}"), seed=1, modifiers=modifiers)
    floors = [(pairs.flaw_floor(k), pairs[k].flaws) for k in range(0, len(pairs), 8)]  # 1,000 images
    assert all(floor <= flaws for floor, flaws in floors)
    assert sum(floor == flaws for floor, flaws in floors) > 0.5 * len(floors)  # most are decided by the floor
    # and a 750-pair sample of the real file is all clean
    assert all(p.flaws <= 0.5 for p in sample(pairs, 750, 1, "real"))
