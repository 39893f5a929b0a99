"""The site's addresses: the club register, the championship and practice games."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from club import account_views
from ops import health
from tournaments.views import private as private_views

urlpatterns = [
    path("ping/", health.ping, name="ping"),
    path("health/", health.health, name="health"),
    path("health/bare/", health.bare, name="health_bare"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "accounts/password/",
        account_views.PasswordChangeView.as_view(),
        name="password_change",
    ),
    path(
        "accounts/password/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path(
        "accounts/password/reset/",
        account_views.PasswordResetView.as_view(),
        name="password_reset",
    ),
    path(
        "accounts/password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "accounts/password/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path(
        "accounts/password/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path("t/", include("tournaments.urls")),
    path("p/<str:key>/", private_views.private_page, name="private_link"),
    path("play/", include("play.urls")),
    path("ratings/", include("ratings.urls")),
    path("", include("club.urls")),
]

handler404 = "club.views.page_not_found"
handler500 = "config.errors.server_error"
