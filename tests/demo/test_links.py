"""``seed_demo`` prints private links that let a newcomer play both sides of a report."""

from __future__ import annotations

import io
import re
import shlex

import pytest
from django.core.management import call_command
from django.test import Client

from tournaments.models import Entry, Match

pytestmark = pytest.mark.django_db


def test_seed_demo_prints_working_links_of_both_players_of_a_match_left_to_report(
    demo: str,
) -> None:
    """The links as ``seed_demo`` prints them, run again where the demo is (it adds nothing)."""
    out = io.StringIO()
    call_command("seed_demo", base_url="http://club.test:8123/", stdout=out)
    printed = re.findall(r"table +(\d+) +(.+?) +http://club\.test:8123/p/(\w+)/", out.getvalue())
    tables = [table for table, _name, _key in printed]
    assert printed
    assert all(tables.count(table) == 2 for table in tables)
    assert any(name == "Anna Berg (Uppsala)" for _table, name, _key in printed)

    first, second = (Entry.objects.get(private_key=key) for _t, _n, key in printed[:2])
    match = Match.objects.get(seats__entry=first, round__status="playing")
    assert match.seats.filter(entry=second).exists()
    reporter, confirmer = Client(), Client()
    assert first.player.name in reporter.get(f"/p/{first.private_key}/").content.decode()
    confirmer.get(f"/p/{second.private_key}/")
    seat = match.seats.get(entry=first).seat
    report = {"first_dealer": "0", "game_1_winner": str(seat), "game_1_loser_score": "70"}
    report |= {"game_2_winner": str(seat), "game_2_loser_score": "99"}
    reporter.post(f"/t/{match.round.tournament.slug}/match/{match.pk}/report/", report)
    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED
    confirm = f"/t/{match.round.tournament.slug}/match/{match.pk}/confirm/"
    confirmer.post(confirm, {"version": match.report_version})
    match.refresh_from_db()
    assert match.status == Match.Status.FINAL


def test_seed_demo_names_a_command_to_paste_for_every_players_link(demo: str) -> None:
    """The last line of ``make run``'s demo: a command that runs as printed, in the
    project's virtualenv (not a bare ``python``), for the links of the base URL served."""
    out = io.StringIO()
    call_command("seed_demo", base_url="http://club.test:8123", stdout=out)
    hint = out.getvalue().splitlines()[-1]
    label, command = hint.split(": ", 1)
    assert label == "Every player's link"
    python, script, *arguments = shlex.split(command)
    assert (python, script) == (".venv/bin/python", "manage.py")
    assert arguments[-2:] == ["--base-url", "http://club.test:8123"]
    links = io.StringIO()
    call_command(*arguments, stdout=links)
    printed = re.findall(r"^Anna Berg\thttp://club\.test:8123/p/(\w+)/$", links.getvalue(), re.M)
    assert len(printed) == 1
