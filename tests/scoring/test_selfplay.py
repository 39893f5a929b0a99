"""Computer against computer: fair pairs of games, valid records, honest intervals."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from scoring.rules.replay import game_from_record
from scoring.tools import selfplay
from scoring.tools.selfplay import Tally, game_seed, paired_interval, run, wilson


def test_games_come_in_pairs_with_the_same_cards_and_the_other_first_dealer() -> None:
    outcomes = list(run(("easy", "standard"), games=4, seed=3))
    assert [o.index for o in outcomes] == [0, 1, 2, 3]
    first, second = outcomes[0].record, outcomes[1].record
    assert game_seed(3, 0) == game_seed(3, 1) != game_seed(3, 2)
    assert (first["first_dealer"], second["first_dealer"]) == (0, 1)
    # Each deal gives the same two sixes; the players swap them.
    assert first["deals"][0]["hands"] == second["deals"][0]["hands"][::-1]


def test_records_replay_under_the_rules() -> None:
    for outcome in run(("easy", "expert"), games=2, seed=5):
        record = outcome.record
        assert record["players"] == ["easy", "expert"]
        assert record["winner"] == outcome.winner
        assert max(record["final_scores"]) == 121
        replayed = game_from_record(json.loads(json.dumps(record)))
        assert replayed.winner == outcome.winner


def test_the_same_seed_gives_the_same_run_with_any_number_of_jobs() -> None:
    alone = [o.record for o in run(("easy", "standard"), games=4, seed=8)]
    shared = [o.record for o in run(("easy", "standard"), games=4, seed=8, jobs=2)]
    assert alone == shared


def test_matches_are_played_to_a_winner() -> None:
    for outcome in run(("easy", "standard"), games=2, seed=2, best_of=3):
        record = outcome.record
        assert record["best_of"] == 3
        assert max(record["wins"]) == 2
        assert record["winner"] == outcome.winner
        assert len(record["games"]) == outcome.games in (2, 3)


@pytest.mark.parametrize(
    ("wins", "trials", "low", "high"),
    [(50, 100, 0.4038, 0.5962), (0, 10, 0.0, 0.2775), (1100, 2000, 0.5281, 0.5717)],
)
def test_the_wilson_interval(wins: int, trials: int, low: float, high: float) -> None:
    assert wilson(wins, trials) == pytest.approx((low, high), abs=1e-4)


def test_the_paired_interval_is_the_normal_interval_of_the_pair_shares() -> None:
    mean, low, high = paired_interval([1.0, 0.5, 0.5, 0.0, 1.0, 0.5])
    assert mean == pytest.approx(0.5833, abs=1e-4)
    assert high - mean == pytest.approx(mean - low)
    assert 0.2 < low < mean


def test_the_tally_counts_from_player_0s_side() -> None:
    tally = Tally(("standard", "expert"))
    for outcome in run(("standard", "expert"), games=2, seed=1):
        tally.add(outcome)
    assert tally.units == tally.games == 2
    assert len(tally.pair_shares) == 1
    text = tally.summary(unit="games", seconds=1.0)
    assert "expert" in text
    assert "95% Wilson CI" in text


def test_the_command_writes_one_record_a_line(tmp_path: Path) -> None:
    target = tmp_path / "games.jsonl"
    out = io.StringIO()
    argv = ["--games", "3", "--seed", "4", "--levels", "easy,standard", "--jsonl", str(target)]
    assert selfplay.main(argv, stdout=out) == 0
    lines = target.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 3
    for line in lines:
        record = json.loads(line)
        assert record["skunk"] in ("none", "skunk", "double")
        assert {"players", "first_dealer", "winner", "final_scores", "deals"} <= set(record)
    assert "standard" in out.getvalue()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--games", "2", "--levels", "easy,master"], "'master' is not a level"),
        (["--games", "2", "--levels", "easy"], "two levels"),
        (["--games", "0"], "at least 1"),
        (["--games", "2", "--match", "4"], "1, 3, 5 or 7"),
    ],
)
def test_bad_input_exits_2_with_a_message(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert selfplay.main(argv) == 2
    assert message in capsys.readouterr().err
