"""Addresses of the practice games against the computer and of games between members,
under /play/."""

from django.urls import path

from play import online_views, review_views, views

app_name = "play"

urlpatterns = [
    path("", views.index, name="index"),
    path("new/", views.start, name="start"),
    path("stats/", views.stats, name="stats"),
    path("deck/", views.deck, name="deck"),
    path("<int:pk>/", views.game, name="game"),
    path("<int:pk>/move/", views.move, name="move"),
    path("<int:pk>/replay/", views.replay, name="replay"),
    path("<int:pk>/review/", review_views.practice_review, name="review"),
    # Games between members
    path("online/", online_views.lobby, name="lobby"),
    path("online/challenge/", online_views.challenge, name="challenge"),
    path("online/challenge/<int:pk>/", online_views.answer, name="challenge_answer"),
    path("online/<int:pk>/", online_views.game, name="online_game"),
    path("online/<int:pk>/table/", online_views.table, name="online_table"),
    path("online/<int:pk>/events/", online_views.events, name="online_events"),
    path("online/<int:pk>/move/", online_views.move, name="online_move"),
    path("online/<int:pk>/end/", online_views.end, name="online_end"),
    path("online/<int:pk>/replay/", online_views.replay, name="online_replay"),
    path("online/<int:pk>/review/", review_views.online_review, name="online_review"),
    # Tournament matches played on the site
    path("online/match/<int:match_pk>/", online_views.watch_match, name="online_match"),
    path("online/match/<int:match_pk>/propose/", online_views.propose, name="online_propose"),
]
