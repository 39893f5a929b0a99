from django.urls import path

from club import account_views, background_views, lockout_views, views

urlpatterns = [
    path("", views.home, name="home"),
    path("accounts/", account_views.account, name="account"),
    path("accounts/email/", account_views.account_email, name="account_email"),
    path(
        "accounts/invitation/<int:pk>/<str:token>/",
        account_views.invitation_accept,
        name="invitation_accept",
    ),
    path("club/", views.player_list, name="player_list"),
    path("club/lockouts/", lockout_views.lockout_list, name="lockouts"),
    path("club/background/", background_views.background, name="background"),
    path(
        "club/background/<uuid:pk>/again/",
        background_views.background_run_again,
        name="background_run_again",
    ),
    path("club/lockouts/lift/", lockout_views.lockout_lift, name="lockout_lift"),
    path("club/players/add/", views.player_add, name="player_add"),
    path("club/players/<int:pk>/", views.player_detail, name="player_detail"),
    path("club/players/<int:pk>/edit/", views.player_edit, name="player_edit"),
    path("club/players/<int:pk>/active/", views.player_set_active, name="player_set_active"),
    path("club/players/<int:pk>/invite/", account_views.player_invite, name="player_invite"),
    path(
        "club/players/<int:pk>/invite/send/",
        account_views.player_invitation_send,
        name="player_invitation_send",
    ),
    path(
        "club/players/<int:pk>/invite/print/",
        account_views.player_invitation_print,
        name="player_invitation_print",
    ),
    path(
        "club/players/<int:pk>/account/password-link/",
        account_views.player_password_link,
        name="player_password_link",
    ),
    path(
        "club/players/<int:pk>/account/password-link/send/",
        account_views.player_password_link_send,
        name="player_password_link_send",
    ),
    path(
        "club/players/<int:pk>/account/active/",
        account_views.player_account_set_active,
        name="player_account_set_active",
    ),
]
