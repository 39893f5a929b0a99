"""``python -m scoring``: what each command prints, and exit status 2 for bad input."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from scoring.rules.cards import DECK, parse_cards
from scoring.rules.hand import score_hand
from scoring.tools.cli import main

ROOT = Path(__file__).resolve().parents[2]


def run(argv: list[str], stdin: str = "") -> tuple[int, str]:
    out = io.StringIO()
    status = main(argv, stdin=io.StringIO(stdin), stdout=out)
    return status, out.getvalue()


def test_score_prints_the_breakdown_and_the_total_last() -> None:
    status, out = run(["score", "5H", "5C", "5S", "JD", "--starter", "5D"])
    assert status == 0
    lines = out.splitlines()
    assert lines[-1] == "total 29"
    assert sum(line.split()[0] == "fifteen" for line in lines[1:-1]) == 8
    assert any(line.split()[0] == "nobs" for line in lines[1:-1])


def test_score_counts_a_crib_flush_only_with_the_starter() -> None:
    hand = ["2H", "4H", "6H", "8H"]
    assert run(["score", *hand, "--starter", "KS"])[1].splitlines()[-1] == "total 4"
    assert run(["score", *hand, "--starter", "KS", "--crib"])[1].splitlines()[-1] == "total 0"
    assert run(["score", *hand, "--starter", "TH", "--crib"])[1].splitlines()[-1] == "total 5"


def test_score_json() -> None:
    status, out = run(["score", "5H", "5C", "5S", "JD", "--starter", "5D", "--json"])
    data = json.loads(out)
    assert status == 0
    assert data["total"] == 29 == sum(item["points"] for item in data["items"])
    assert data["hand"] == ["5H", "5C", "5S", "JD"]
    assert data["starter"] == "5D"


def test_discard_json_lists_the_15_discards_best_first() -> None:
    six = ["5H", "5C", "5S", "JD", "4C", "4D"]
    status, out = run(["discard", *six, "--dealer", "--json"])
    assert status == 0
    rows = json.loads(out)
    assert len(rows) == 15
    assert {frozenset(row["discard"]) for row in rows} == {
        frozenset((a, b)) for i, a in enumerate(six) for b in six[i + 1 :]
    }
    totals = [row["total_ev"] for row in rows]
    assert totals == sorted(totals, reverse=True)
    assert set(rows[0]) == {"discard", "hand_ev", "crib_ev", "peg_ev", "total_ev"}
    for row in rows:
        assert row["total_ev"] == pytest.approx(row["hand_ev"] + row["crib_ev"] + row["peg_ev"])
    assert set(rows[0]["discard"]) == {"4C", "4D"}
    cards = parse_cards(six)
    for row in rows[:3]:
        kept = [card for card in cards if str(card) not in row["discard"]]
        starters = [card for card in DECK if card not in cards]
        mean = sum(score_hand(kept, starter).total for starter in starters) / 46
        assert row["hand_ev"] == pytest.approx(mean, abs=1e-12)


@pytest.mark.parametrize("level", ["easy", "standard", "expert"])
def test_discard_table_for_each_level(level: str) -> None:
    status, out = run(["discard", "5H", "5C", "5S", "JD", "4C", "4D", "--pone", "--level", level])
    assert status == 0
    lines = out.splitlines()
    assert len(lines) == 2 + 15
    assert lines[1].split() == ["discard", "hand", "crib", "peg", "total"]
    for line in lines[2:]:
        hand, crib, peg, total = map(float, line.split()[2:])
        assert total == pytest.approx(hand - crib + peg, abs=0.011)
        assert (peg != 0) == (level == "expert")


@pytest.mark.parametrize(
    ("argv", "token"),
    [
        (["score", "5H", "5X", "5S", "JD", "--starter", "5D"], "5X"),
        (["score", "5H", "5C", "5S", "JD", "--starter", "1D"], "1D"),
        (["discard", "5H", "5C", "5S", "JD", "4C", "ZZ", "--dealer"], "ZZ"),
    ],
)
def test_a_bad_card_exits_2_naming_the_token(
    argv: list[str], token: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(argv)[0] == 2
    err = capsys.readouterr().err
    assert f"'{token}'" in err
    assert err.startswith("error:")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["score", "5H", "5C", "5S", "JD", "--starter", "5H"], "the same card twice"),
        (["discard", "5H", "5C", "5S", "JD", "4C", "4C", "--pone"], "the same card twice"),
        (["discard", "5H", "5C", "5S", "JD", "4C", "4D", "--pone", "--level", "x"], "'x'"),
    ],
)
def test_other_bad_input_exits_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(argv)[0] == 2
    assert message in capsys.readouterr().err


def test_the_module_runs_as_a_program_with_status_2_for_a_bad_card() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "scoring", "score", "5H", "5C", "5S", "QQ", "--starter", "5D"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert "'QQ'" in done.stderr


def test_selfplay_writes_n_records(tmp_path: Path) -> None:
    target = tmp_path / "run.jsonl"
    argv = ["selfplay", "--games", "2", "--seed", "1", "--levels", "easy,easy"]
    status, _ = run([*argv, "--jsonl", str(target)])
    assert status == 0
    records = [json.loads(line) for line in target.read_text(encoding="utf-8").splitlines()]
    assert len(records) == 2
    assert all(record["winner"] in (0, 1) for record in records)


def test_play_quits_cleanly() -> None:
    status, out = run(["play", "--seed", "3"], stdin="q\n")
    assert status == 0
    assert out.rstrip().endswith("Game abandoned.")


def test_play_ends_cleanly_when_the_input_runs_out() -> None:
    status, out = run(["play", "--seed", "3", "--level", "easy"], stdin="1 2\n")
    assert status == 0
    assert "Game abandoned." in out


def test_a_whole_game_with_scripted_input() -> None:
    # Positions 1-4 in turn: a discard of "1 2" when due, then some card that fits.
    answers = "1 2\n" + "1\n2\n3\n4\n1 2\n" * 400
    status, out = run(["play", "--seed", "11", "--level", "standard", "--name", "Tester"], answers)
    assert status == 0
    assert " won, " in out
    assert "Game abandoned." not in out


def test_the_benchmarks_naive_scorer_counts_like_the_engine() -> None:
    from scoring.tools.bench import naive_score

    rng = random.Random(9)
    for _ in range(300):
        cards = rng.sample(DECK, 5)
        for crib in (False, True):
            expected = score_hand(cards[:4], cards[4], crib=crib).total
            assert naive_score(cards[:4], cards[4], crib=crib) == expected


def test_the_benchmark_table_marks_each_figure_against_its_target() -> None:
    from scoring.tools.bench import Figure, table

    text = table([Figure("fast", 0.002, 0.01, 5), Figure("slow", 2.0, 1.0, 3, "busy")])
    rows = text.splitlines()
    assert rows[2] == "| fast | 2.00 ms | < 10.00 ms | ok | 5 |  |"
    assert rows[3] == "| slow | 2.00 s | < 1.00 s | SLOW | 3 | busy |"
