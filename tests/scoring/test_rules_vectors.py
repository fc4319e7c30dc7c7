"""The rule vectors (docs/rules.md §5): every case of ``deal_vectors.jsonl`` must pass.

The file lives next to this test, in the project, so a lone clone runs every case: a missing
or empty file is a failure, never a skip.
"""

import json
from pathlib import Path

import pytest

from scoring.rules import DealRecord, HouseRules, InvalidDeal, score_deal

VECTORS = Path(__file__).resolve().with_name("deal_vectors.jsonl")


def load_cases() -> list:
    cases = []
    with VECTORS.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            if line.strip():
                case = json.loads(line)
                case["_line"] = number
                cases.append(pytest.param(case, id=case["case"]))
    return cases


CASES = load_cases()


@pytest.mark.parametrize("case", CASES)
def test_vector(case):
    rules = HouseRules.from_dict(case["rules"])
    record = DealRecord(**case["deal"])
    expect = case["expect"]
    if expect["valid"]:
        score = score_deal(record, rules)
        assert (score.winner, score.game_points) == (expect["winner"], expect["game_points"])
    else:
        with pytest.raises(InvalidDeal) as caught:
            score_deal(record, rules)
        assert caught.value.code == expect["error"]


def test_the_vectors_are_in_the_project_and_their_names_unique():
    assert VECTORS.is_relative_to(Path(__file__).resolve().parents[2])
    names = [param.values[0]["case"] for param in CASES]
    assert len(names) >= 36
    assert len(names) == len(set(names))
