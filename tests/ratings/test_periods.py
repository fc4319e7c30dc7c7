"""Using the ratings: a player's chance to win before a match (`ratings.win_chance`) and seeds by
rating (`ratings.seed_order`). Values worked out by hand from the paper's formulas."""

import pytest

from ratings.glicko2 import Rating
from ratings.periods import SeedCandidate, seed_order, win_chance


@pytest.mark.parametrize("deviations", [(350, 350), (50, 50), (350, 30)])
def test_equal_ratings_give_even_chances_whatever_the_deviations(deviations):
    low, high = deviations
    assert win_chance(Rating(1500, low), Rating(1500, high)) == 0.5
    assert win_chance(Rating(1830, high), Rating(1830, low)) == 0.5


def test_1700_against_1500_both_well_known():
    # Glicko-2 scale: mu - mu_j = 200 / 173.7178 = 1.151294; combined phi =
    # sqrt(50^2 + 50^2) / 173.7178 = 0.407045, phi^2 = 0.165686;
    # g = 1 / sqrt(1 + 3 * 0.165686 / pi^2) = 1 / sqrt(1.050362) = 0.975732;
    # E = 1 / (1 + exp(-0.975732 * 1.151294)) = 1 / (1 + exp(-1.123355)) = 1 / 1.325187.
    assert win_chance(Rating(1700, 50), Rating(1500, 50)) == pytest.approx(0.75461, abs=1e-5)
    assert win_chance(Rating(1500, 50), Rating(1700, 50)) == pytest.approx(0.24539, abs=1e-5)


def test_uncertain_ratings_pull_the_chance_towards_even():
    # Deviations 300 each: phi = sqrt(2) * 300 / 173.7178 = 2.442275, phi^2 = 5.964706;
    # g = 1 / sqrt(1 + 3 * 5.964706 / pi^2) = 1 / sqrt(2.813086) = 0.596224;
    # E = 1 / (1 + exp(-0.596224 * 1.151294)) = 1 / (1 + exp(-0.686428)) = 0.6652.
    assert win_chance(Rating(1700, 300), Rating(1500, 300)) == pytest.approx(0.6652, abs=1e-4)


def test_the_two_chances_add_up_to_one():
    a, b = Rating(1612.5, 140), Rating(1488, 75)
    assert win_chance(a, b) + win_chance(b, a) == pytest.approx(1, abs=1e-12)


def test_seeds_by_rating_then_deviation_then_name_and_the_unrated_last_by_name():
    order = seed_order([
        SeedCandidate(1, "Мария", 1600, 100),
        SeedCandidate(2, "Явор"),  # never rated
        SeedCandidate(3, "Иван", 1700, 80),
        SeedCandidate(4, "Борис", 1600, 60),  # same rating as Мария, better known
        SeedCandidate(5, "анна"),  # never rated; lower case sorts with "А"
        SeedCandidate(6, "Георги", 1600, 100),  # same rating and deviation as Мария
        SeedCandidate(7, "Васил", 1400, 350),
    ])
    assert order == [3, 4, 6, 1, 7, 5, 2]


def test_seeds_of_nobody_rated_go_by_name():
    assert seed_order([SeedCandidate(9, "Петър"), SeedCandidate(8, "Петър"),
                       SeedCandidate(1, "Цветан")]) == [8, 9, 1]
    assert seed_order([]) == []
