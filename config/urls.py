from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from games.web.views import lobby
from runtime.health import healthz, readyz
from runtime.install import manifest, offline, service_worker

urlpatterns = [
    path("", lobby, name="home"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("healthz", healthz, name="healthz"),
    path("readyz", readyz, name="readyz"),
    # The installable site: its manifest, its service worker (at the root, for the
    # whole site's scope) and the page the worker shows offline.
    path("manifest.webmanifest", manifest, name="manifest"),
    path("sw.js", service_worker, name="service-worker"),
    path("offline/", offline, name="offline"),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("api/auth/", include("accounts.api_urls")),
    path("api/", include("games.web.api_urls")),
    path("api/", include("tournaments.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path("", include("games.web.urls")),
    path("", include("tournaments.urls")),
]

# JSON errors under /api/, Django's pages elsewhere.
handler400 = "runtime.api_errors.bad_request"
handler404 = "runtime.api_errors.not_found"
handler500 = "runtime.api_errors.server_error"
