"""Addresses of the practice games against the computer, under /play/."""

from django.urls import path

from play import views

app_name = "play"

urlpatterns = [
    path("", views.index, name="index"),
    path("new/", views.start, name="start"),
    path("stats/", views.stats, name="stats"),
    path("deck/", views.deck, name="deck"),
    path("<int:pk>/", views.game, name="game"),
    path("<int:pk>/move/", views.move, name="move"),
    path("<int:pk>/replay/", views.replay, name="replay"),
]
