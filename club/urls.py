from django.urls import path

from club import views

urlpatterns = [
    path("", views.home, name="home"),
    path("accounts/", views.account, name="account"),
    path("club/", views.player_list, name="player_list"),
    path("club/players/add/", views.player_add, name="player_add"),
    path("club/players/<int:pk>/", views.player_detail, name="player_detail"),
    path("club/players/<int:pk>/edit/", views.player_edit, name="player_edit"),
    path("club/players/<int:pk>/active/", views.player_set_active, name="player_set_active"),
]
