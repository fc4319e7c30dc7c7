"""A name's key (`club.name_matching`): case, spacing and the official transliteration never
tell two spellings of one name apart; other spellings do. No database."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from club.name_matching import TRANSLITERATION, name_key

# The Transliteration Act (Закон за транслитерацията, ДВ бр. 19 от 13.03.2009), art. 4, typed
# here again from the Act's table, capitals as the Act writes them, independently of the
# module's own table.
ACT = """
А а A a | Б б B b | В в V v | Г г G g | Д д D d | Е е E e | Ж ж Zh zh | З з Z z | И и I i
Й й Y y | К к K k | Л л L l | М м M m | Н н N n | О о O o | П п P p | Р р R r | С с S s
Т т T t | У у U u | Ф ф F f | Х х H h | Ц ц Ts ts | Ч ч Ch ch | Ш ш Sh sh | Щ щ Sht sht
Ъ ъ A a | Ь ь Y y | Ю ю Yu yu | Я я Ya ya
"""
LATIN_OF = {}
for row in ACT.replace("\n", " | ").split("|"):
    if row.strip():
        capital, small, latin_capital, latin_small = row.split()
        LATIN_OF[capital], LATIN_OF[small] = latin_capital, latin_small

BULGARIAN = "".join(sorted(LATIN_OF))
LATIN = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
SPACES = [" ", "  ", "\t", "\u00a0", "\u2003", " \n "]


def by_the_act(word: str) -> str:
    """`word` (Bulgarian letters only) in Latin letters as the Act writes it: letter by
    letter, and a final "ия" as "ia" (art. 5)."""
    if word.lower().endswith("ия"):
        return by_the_act(word[:-2]) + ("I" if word[-2].isupper() else "i") + (
            "A" if word[-1].isupper() else "a")
    return "".join(LATIN_OF[letter] for letter in word)


bulgarian_words = st.text(alphabet=BULGARIAN, min_size=1, max_size=12)
words = st.text(alphabet=BULGARIAN + LATIN + "-'", min_size=1, max_size=12)


def test_the_modules_table_is_the_acts():
    from_the_act = {small: latin for small, latin in LATIN_OF.items() if small.islower()}
    assert from_the_act == TRANSLITERATION
    assert len(TRANSLITERATION) == 30  # the Bulgarian alphabet's letters


@pytest.mark.parametrize(("name", "key"), [
    # Worked out by hand from the Act's table, letter by letter.
    ("Иван Петров", "ivan petrov"),
    ("иван петров", "ivan petrov"),
    ("ИВАН  ПЕТРОВ", "ivan petrov"),
    ("Ivan Petrov", "ivan petrov"),
    ("  Иван\tПетров\n", "ivan petrov"),
    ("Георги Димитров", "georgi dimitrov"),
    ("Живко", "zhivko"),
    ("Христо", "hristo"),
    ("Йорданка Христова", "yordanka hristova"),
    ("Елена Стоянова", "elena stoyanova"),
    ("Щерю Цветков", "shteryu tsvetkov"),
    ("Жельо Чавдаров", "zhelyo chavdarov"),
    ("Ъгъл", "agal"),
    ("Юлия", "yulia"),          # word-final "ия": "ia" (art. 5)
    ("Мария Георгиева", "maria georgieva"),
    ("Марияна", "mariyana"),    # "ия" inside the word: "iya"
    ("Юлия-Мария", "yulia-maria"),
    ("Джорджева", "dzhordzheva"),
    ("Пe\u0442ров", "petrov"),  # a Latin "e" among Cyrillic letters
    ("Ст\u0438\u0306ков", "stykov"),  # "й" typed as "и" and a combining breve
    ("José", "josé"),
])
def test_keys_worked_out_by_hand(name, key):
    assert name_key(name) == key


@pytest.mark.parametrize(("typed", "registered"), [
    ("Georgi", "Георги"), ("Zhivko", "Живко"), ("Hristo", "Христо"),
    ("Yordanka", "Йорданка"), ("Stoyanova", "Стоянова"), ("Maria", "Мария"),
    ("ivan petrov", "Иван Петров"), ("ИВАН  ПЕТРОВ", "Иван Петров"),
    ("Svetla Ivanova", "Светла Иванова"), ("Nikolay Todorov", "Николай Тодоров"),
])
def test_official_spellings_match(typed, registered):
    assert name_key(typed) == name_key(registered)


@pytest.mark.parametrize(("typed", "registered"), [
    ("Ivan Petroff", "Иван Петров"), ("Mariya", "Мария"), ("Georgy", "Георги"),
    ("Khristo", "Христо"), ("Jordanka", "Йорданка"), ("Tzvetan", "Цветан"),
    ("Dimiter", "Димитър"), ("Jose", "José"), ("Петрова-Иванова", "Петрова Иванова"),
    ("Петров Иван", "Иван Петров"), ("Иван Петрова", "Иван Петров"),
])
def test_other_spellings_do_not_match(typed, registered):
    assert name_key(typed) != name_key(registered)


@given(st.lists(words, min_size=1, max_size=4))
def test_case_never_changes_the_key(parts):
    name = " ".join(parts)
    key = name_key(name)
    assert name_key(name.upper()) == name_key(name.lower()) == name_key(name.swapcase()) == key


@given(st.lists(words, min_size=1, max_size=4), st.data())
def test_spacing_never_changes_the_key(parts, data):
    spaced = [data.draw(st.sampled_from(SPACES)) for _ in range(len(parts) + 1)]
    name = spaced[0] + "".join(part + space for part, space in zip(parts, spaced[1:], strict=True))
    assert name_key(name) == name_key(" ".join(parts))


@given(st.lists(bulgarian_words, min_size=1, max_size=4))
def test_a_cyrillic_name_and_its_official_transliteration_have_one_key(parts):
    cyrillic = " ".join(parts)
    latin = " ".join(by_the_act(part) for part in parts)
    assert name_key(cyrillic) == name_key(latin) == latin.lower()


@given(st.text(max_size=30))
def test_a_key_is_its_own_key(name):
    assert name_key(name_key(name)) == name_key(name)
