"""The shared rule vectors (RULES.md §5): every case of ``deal_vectors.jsonl`` must pass.

The file lives outside the repository, in ``shared/rules/`` next to the checkout; set
``RULES_VECTORS`` to another path to use a copy. When the file is missing the test is skipped,
except on CI (``CI=true``), where a missing file is a failure.
"""

import json
import os
from pathlib import Path

import pytest

from scoring.rules import DealRecord, HouseRules, InvalidDeal, score_deal

DEFAULT_VECTORS = Path(__file__).resolve().parents[2].parent / "shared/rules/deal_vectors.jsonl"


def vectors_path() -> Path:
    return Path(os.environ.get("RULES_VECTORS") or DEFAULT_VECTORS)


def load_cases() -> list:
    path = vectors_path()
    if not path.is_file():
        return [pytest.param(None, id="vectors-file-missing")]
    cases = []
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            if line.strip():
                case = json.loads(line)
                case["_line"] = number
                cases.append(pytest.param(case, id=case["case"]))
    return cases


CASES = load_cases()


def skip_or_fail_if_missing(case):
    if case is not None:
        return
    reason = (
        f"Rule vectors not found at {vectors_path()}; "
        "set RULES_VECTORS to the path of deal_vectors.jsonl."
    )
    if os.environ.get("CI") == "true":
        pytest.fail(reason)
    pytest.skip(reason)


@pytest.mark.parametrize("case", CASES)
def test_vector(case):
    skip_or_fail_if_missing(case)
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


def test_vector_case_names_are_unique():
    cases = [param.values[0] for param in CASES]
    skip_or_fail_if_missing(cases[0])
    names = [case["case"] for case in cases]
    assert len(names) == len(set(names))
