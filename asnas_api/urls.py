from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from asnas_api.health import healthz, readyz
from asnas_api.metrics import metrics_view

handler404 = "asnas_api.errors.not_found"

# The schema and the docs are the same for everyone and touch no data, so they skip the rate
# limits, whose counters live in the database: docs keep working while it is down.
DOCS = {"throttle_classes": [], "authentication_classes": []}

urlpatterns = [
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    path("readyz", readyz, name="readyz"),
    path("metrics", metrics_view, name="metrics"),
    path("api/schema/", SpectacularAPIView.as_view(**DOCS), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema", **DOCS), name="swagger-ui"),
    path(
        "api/redoc/",
        SpectacularRedocView.as_view(
            url_name="schema", template_name="asnas_api/redoc.html", **DOCS
        ),
        name="redoc",
    ),
    path("api/v1/", include("games.urls")),
    path("api/v1/", include("players.urls")),
]
