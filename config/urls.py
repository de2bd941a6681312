"""Bridgehead's URLs."""

from __future__ import annotations

from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.http import HttpResponseRedirect
from django.template.response import TemplateResponse
from django.templatetags.static import static
from django.urls import include, path
from django.views.decorators.http import require_safe

from campaign.forms import LOGIN_ERRORS_ID, LoginForm
from campaign.views import account, battles_page
from campaign.views import pages as campaign_pages
from config.health import healthz

FAVICON = "bridgehead/favicon.svg"


@require_safe
def logout_confirm(request):
    """Log out from a page that carries no form (an error page is the same for everyone who
    meets it): the page with the button, which posts to the log-out address."""
    return TemplateResponse(request, "registration/logout_confirm.html")


urlpatterns = [
    path("", campaign_pages.home, name="home"),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(
            authentication_form=LoginForm, extra_context={"errors_id": LOGIN_ERRORS_ID}
        ),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/log-out/", logout_confirm, name="logout-confirm"),
    path("accounts/", account.account_page, name="account"),
    path("accounts/email/", account.email_ask_view, name="account-email-ask"),
    path("accounts/email/remove/", account.email_remove_view, name="account-email-remove"),
    path("accounts/email/<str:key>/", account.email_confirm_view, name="account-email-confirm"),
    path(
        "accounts/password_change/",
        auth_views.PasswordChangeView.as_view(),
        name="password_change",
    ),
    path(
        "accounts/password_change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    # The Battles page lists campaign battles beside one-off ones: drawn above both apps.
    path("battles/", battles_page.battle_list, name="battle-list"),
    path("battles/", include("battles.urls")),
    path("campaigns/", include("campaign.urls")),
    path("library/", include("units.urls")),
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    # Browsers ask for /favicon.ico on pages that name no icon (a PDF, an image, a JSON answer).
    path("favicon.ico", require_safe(lambda request: HttpResponseRedirect(static(FAVICON)))),
]

# Resetting a password by mail, only where mail is configured (EMAIL_HOST): without it the
# page would say a mail was sent when none could be.
PASSWORD_RESET_URLS = [
    path(
        "accounts/password_reset/",
        account.PasswordResetView.as_view(),
        name="password_reset",
    ),
    path(
        "accounts/password_reset/done/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "accounts/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
]
if settings.PASSWORD_RESET_ENABLED:
    urlpatterns += PASSWORD_RESET_URLS
