"""Addresses of the tournament pages: stable public ones under /t/<slug>/."""

from django.urls import path

from tournaments.printing import views as printing
from tournaments.views import entries, links, manage, public, results

app_name = "tournaments"

urlpatterns = [
    path("", public.tournament_list, name="list"),
    path("new/", manage.tournament_create, name="create"),
    path("<slug:slug>/", public.tournament_detail, name="detail"),
    path("<slug:slug>/edit/", manage.tournament_edit, name="edit"),
    path("<slug:slug>/entries/", entries.entries, name="entries"),
    path("<slug:slug>/entries/add/", entries.entry_add, name="entry_add"),
    path("<slug:slug>/entries/new/", entries.entry_add_new, name="entry_add_new"),
    path("<slug:slug>/entries/<int:pk>/", entries.entry_change, name="entry_change"),
    path("<slug:slug>/links/", links.private_links, name="private_links"),
    path(
        "<slug:slug>/links/<int:pk>/new/",
        links.private_link_change,
        {"change": "issue"},
        name="private_link_issue",
    ),
    path(
        "<slug:slug>/links/<int:pk>/revoke/",
        links.private_link_change,
        {"change": "revoke"},
        name="private_link_revoke",
    ),
    path("<slug:slug>/forbidden/", entries.forbidden_add, name="forbidden_add"),
    path(
        "<slug:slug>/forbidden/<int:pk>/remove/", entries.forbidden_remove, name="forbidden_remove"
    ),
    path("<slug:slug>/pair/", manage.round_pair, name="round_pair"),
    path("<slug:slug>/round/<int:number>/", public.round_detail, name="round"),
    path("<slug:slug>/round/<int:number>/repair/", manage.round_repair, name="round_repair"),
    path("<slug:slug>/round/<int:number>/swap/", manage.round_swap, name="round_swap"),
    path("<slug:slug>/round/<int:number>/publish/", manage.round_publish, name="round_publish"),
    path("<slug:slug>/round/<int:number>/close/", manage.round_close, name="round_close"),
    path("<slug:slug>/standings/", public.standings, name="standings"),
    path("<slug:slug>/standings.csv", public.standings_csv, name="standings_csv"),
    path("<slug:slug>/results.csv", public.results_csv, name="results_csv"),
    path("<slug:slug>/players/<int:entry_id>/", public.entry_detail, name="entry"),
    path("<slug:slug>/match/<int:pk>/", public.match_detail, name="match"),
    path("<slug:slug>/match/<int:pk>/game/<int:number>/", public.game_record, name="game_record"),
    path("<slug:slug>/match/<int:pk>/report/", results.match_report, name="match_report"),
    path("<slug:slug>/match/<int:pk>/confirm/", results.match_confirm, name="match_confirm"),
    path("<slug:slug>/match/<int:pk>/dispute/", results.match_dispute, name="match_dispute"),
    path("<slug:slug>/match/<int:pk>/settle/", results.match_settle, name="match_settle"),
    path("<slug:slug>/my-table/", results.my_table, name="my_table"),
    path("<slug:slug>/playoff/", public.playoff, name="playoff"),
    path("<slug:slug>/playoff/start/", manage.playoff_start, name="playoff_start"),
    path("<slug:slug>/finish/", manage.tournament_finish, name="finish"),
    path("<slug:slug>/round/<int:number>/pairings.pdf", printing.pairings_pdf, name="pairings_pdf"),
    path(
        "<slug:slug>/round/<int:number>/scoresheets.pdf",
        printing.scoresheets_pdf,
        name="scoresheets_pdf",
    ),
    path("<slug:slug>/standings.pdf", printing.standings_pdf, name="standings_pdf"),
    path("<slug:slug>/crosstable.pdf", printing.crosstable_pdf, name="crosstable_pdf"),
    path("<slug:slug>/playoff.pdf", printing.playoff_pdf, name="playoff_pdf"),
    path("<slug:slug>/slips.pdf", printing.slips_pdf, name="slips_pdf"),
]
