"""A name's key: what two spellings of one player's name have in common.

Typed at the door, Иван Петров comes in as "иван петров", "ИВАН  ПЕТРОВ" or "Ivan Petrov".
Each of these has the key ``"ivan petrov"``, and the register proposes Иван Петров for it
instead of making a second player (`club.services.players_like`).

The key of a name is the name:

1. in Unicode's composed form (NFC: an "й" typed as "и" and a combining breve is "й"),
   case-folded (`str.casefold`), with surrounding whitespace dropped and every run of
   whitespace made one space;
2. with its Bulgarian Cyrillic letters written in Latin letters by the official system of
   the Transliteration Act (Закон за транслитерацията, State Gazette no. 19 of 13 March 2009,
   art. 4 and 5), `TRANSLITERATION`: а a, б b, в v, г g, д d, е e, ж zh, з z, и i, й y, к k,
   л l, м m, н n, о o, п p, р r, с s, т t, у u, ф f, х h, ц ts, ч ch, ш sh, щ sht, ъ a,
   ь y, ю yu, я ya; and "ия" at the end of a word as "ia" (Мария, Maria; but Марияна,
   Mariyana).

So these have one key: "Георги" and "Georgi", "Живко" and "Zhivko", "Христо" and "Hristo",
"Йорданка" and "Yordanka", "Стоянова" and "Stoyanova", "Мария" and "Maria", a name and the
same name in capitals or with two spaces, a name with a Latin "e" or "o" slipped among its
Cyrillic letters and the name itself.

Not matched, on purpose: other ways of writing Bulgarian in Latin letters ("Petroff",
"Mariya", "Georgy", "Khristo", "Jordanka", "Tzvetan", "Dimiter": only the official system
is), accents ("José" and "Jose" differ), hyphens and apostrophes as they are typed
("Петрова-Иванова" and "Петрова Иванова" differ), letters of other Cyrillic alphabets (the
Russian ы, э, ё, the Ukrainian і, ї, є, ґ: kept as they are), and the word order ("Петров
Иван" is another key). The country's name, which art. 6 of the Act writes "Bulgaria", is no
one's name and follows the table. A club that knows a player by another Latin spelling
writes it in the register as the player's name in Latin letters, whose key counts too.

The key is for proposing a player, never for telling two players apart: the system writes
both ъ and а as "a", both ь and й as "y", and ш and сх alike as "sh", so "Ъглев" and "Аглев"
have one key. The organiser is asked, and may add a new player all the same.

Pure Python: no Django.
"""

import re
import unicodedata

TRANSLITERATION: dict[str, str] = {
    "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "е": "e", "ж": "zh", "з": "z",
    "и": "i", "й": "y", "к": "k", "л": "l", "м": "m", "н": "n", "о": "o", "п": "p",
    "р": "r", "с": "s", "т": "t", "у": "u", "ф": "f", "х": "h", "ц": "ts", "ч": "ch",
    "ш": "sh", "щ": "sht", "ъ": "a", "ь": "y", "ю": "yu", "я": "ya",
}
"""The Bulgarian letters (small) in Latin letters: the Transliteration Act, art. 4."""

WORD_FINAL_IA = re.compile(r"ия(?![^\W\d_])")
"""The letters "ия" at the end of a word (followed by no letter), written "ia" (the Act, art.
5)."""

_TABLE = str.maketrans(TRANSLITERATION)


def name_key(name: str) -> str:
    """The key of `name` for matching (see the module's docstring): case-folded, its
    whitespace one space between words, in Latin letters by the official system."""
    folded = unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).casefold())
    spaced = " ".join(folded.split())
    return WORD_FINAL_IA.sub("ia", spaced).translate(_TABLE)
