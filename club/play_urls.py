"""Addresses of the practice games against the computer, under /play/."""

from django.urls import path

from club import play_views

app_name = "play"

urlpatterns = [
    path("", play_views.index, name="index"),
    path("new/", play_views.start, name="start"),
    path("stats/", play_views.stats, name="stats"),
    path("deck/", play_views.deck, name="deck"),
    path("<int:pk>/", play_views.game, name="game"),
    path("<int:pk>/move/", play_views.move, name="move"),
    path("<int:pk>/replay/", play_views.replay, name="replay"),
]
