"""The site's addresses as where mail is configured (EMAIL_HOST): with the password reset."""

from config.urls import PASSWORD_RESET_URLS
from config.urls import urlpatterns as site

urlpatterns = [*site, *PASSWORD_RESET_URLS]
