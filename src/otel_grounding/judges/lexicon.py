"""English words, to tell a name an agent writes in lower case ("traefik", "losartan",
"pyarrow") from a word of the language: a word no dictionary holds is a name, and a name the
evidence never writes is a fact without support.

The dictionary is `pyspellchecker`'s English word list (about 160,000 words), read once on
first use (about 0.2 s, 20 MB held); British spellings (endings and inside a word),
inflections, common prefixes, two words run together and a few words of the trade it lacks
are read here as words too.
"""

from __future__ import annotations

from collections.abc import Container
from functools import cache

from otel_grounding.sentences import word_list

#: Words agents use that the dictionary lacks (read with their inflections: "repos").
_TRADE_WORDS = frozenset(word_list(
    "repo regex config virtualenv venv env auth async localhost webhook matinee onboard deps "
    "segfault transcode inbox tech cert tuple tokenizer webinar uplink downlink gzip dyno "
    "lidar millicore symlink"
))
#: Endings an inflected word adds to its dictionary form.
_INFLECTIONS = (
    "s", "es", "ed", "d", "ing", "ly", "er", "ers", "or", "ors", "est", "able", "ness"
)
#: British endings and their American forms (the dictionary's): "litre", "analysed", "favour".
_BRITISH = (
    ("our", "or"), ("ours", "ors"), ("ourite", "orite"), ("ourites", "orites"),
    ("re", "er"), ("res", "ers"), ("tre", "ter"), ("tres", "ters"),
    ("ise", "ize"), ("ised", "ized"), ("ises", "izes"), ("ising", "izing"),
    ("isation", "ization"), ("iser", "izer"), ("isers", "izers"),
    ("yse", "yze"), ("ysed", "yzed"), ("ence", "ense"), ("ogue", "og"),
    ("lled", "led"), ("lling", "ling"), ("que", "ck"), ("mme", "m"), ("mmes", "ms"),
    ("ium", "um"), ("ellery", "elry"),
)
#: British spellings inside a word and their American forms: "paediatric", "oestrogen",
#: "mould", "moult", "sulphide". Only words this long are read so ("moe" stays a name).
_BRITISH_INSIDE = (("ae", "e"), ("oe", "e"), ("ould", "old"), ("oult", "olt"), ("ulph", "ulf"))
_BRITISH_INSIDE_MIN = 5
#: Prefixes a word may take ("unflagged", "repointed", "megalitres").
_PREFIXES = (
    "un", "re", "sub", "de", "non", "pre", "auto", "multi", "over", "under", "out", "co", "mis",
    "dis", "mega", "kilo", "micro", "inter", "post",
)
#: Words of two letters that end a word run together ("lookup", "signup").
_PARTICLES = ("up", "in", "on")
#: The shortest stem left once an ending is taken off, and the shortest of two words run
#: together ("subkey", "timesheet"); the shortest word left once a prefix is taken off.
_STEM_MIN = 3
_PREFIXED_MIN = 4


@cache
def _dictionary() -> Container[str]:
    from spellchecker import SpellChecker  # imported with the word list, on first use

    return SpellChecker(language="en", distance=1).word_frequency.dictionary


def _listed(word: str) -> bool:
    return word in _dictionary() or word in _TRADE_WORDS


def is_word(word: str) -> bool:
    """Whether a lower-case word is a word of English rather than a name."""
    if _inflected(word):
        return True
    if any(
        word.startswith(prefix) and len(word) - len(prefix) >= _PREFIXED_MIN
        and _inflected(word[len(prefix):])
        for prefix in _PREFIXES
    ):
        return True
    return any(
        _listed(word[:cut]) and _inflected(word[cut:])
        for cut in range(_STEM_MIN, len(word) - _STEM_MIN + 1)
    ) or any(
        word.endswith(particle) and len(word) - len(particle) >= _STEM_MIN
        and _listed(word[: -len(particle)])
        for particle in _PARTICLES
    )


def is_prefix(part: str) -> bool:
    """Whether a part of a hyphened word is a prefix of the language ("multi-factor")."""
    return part in _PREFIXES


def _inflected(word: str) -> bool:
    """The word, or an inflection or a British spelling of a dictionary word."""
    if _listed(word):
        return True
    for ending in _INFLECTIONS:
        if word.endswith(ending) and len(word) - len(ending) >= _STEM_MIN:
            base = word[: -len(ending)]
            if (_listed(base) or _listed(base + "e")
                    or (base[-1] == "i" and _listed(base[:-1] + "y"))  # "emptied"
                    or (base[-1] == base[-2] and _listed(base[:-1]))):  # "flagged"
                return True
    if any(
        word.endswith(british) and _listed(word[: -len(british)] + american)
        for british, american in _BRITISH
    ):
        return True
    return len(word) >= _BRITISH_INSIDE_MIN and any(
        british in word and _inflected(word.replace(british, american))
        for british, american in _BRITISH_INSIDE
    )
