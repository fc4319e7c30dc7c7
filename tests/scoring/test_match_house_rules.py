"""A match's house rules come from its snapshot (`Match.house_rules`), built once a process for
each snapshot: the same snapshot gives the same frozen object, another snapshot its own rules,
and a snapshot with an unknown option is still refused."""

import pytest

from scoring import rules
from scoring.models import Match


def test_the_same_snapshot_gives_the_same_rules_object_on_every_match():
    first = Match(house_rules_snapshot={"game_target": 7, "last_trick": "wins_deal"})
    second = Match(house_rules_snapshot={"last_trick": "wins_deal", "game_target": 7})
    assert first.house_rules() is second.house_rules()
    assert first.house_rules().game_target == 7
    assert first.house_rules().last_trick == "wins_deal"


def test_a_changed_snapshot_gives_its_own_rules():
    match = Match(house_rules_snapshot={"game_target": 7})
    assert match.house_rules().game_target == 7
    match.house_rules_snapshot["game_target"] = 11  # changed in place, as a form could
    assert match.house_rules().game_target == 11


def test_an_empty_snapshot_is_the_default_rules():
    assert Match(house_rules_snapshot={}).house_rules() == rules.HouseRules()


def test_an_unknown_option_is_refused_every_time():
    match = Match(house_rules_snapshot={"trumps": "always"})
    for _ in range(2):
        with pytest.raises(ValueError, match="trumps"):
            match.house_rules()
