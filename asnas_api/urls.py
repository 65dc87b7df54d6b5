from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularRedocView, SpectacularSwaggerView

from asnas_api.health import healthz, readyz
from asnas_api.index import ApiIndex
from asnas_api.metrics import metrics_view
from edge.schema import CachedSchemaView

handler400 = "asnas_api.errors.bad_request"
handler404 = "asnas_api.errors.not_found"
handler500 = "asnas_api.errors.server_error"

# The schema and the docs are the same for everyone and touch no data, so they skip the rate
# limits, whose counters live in the database: docs keep working while it is down.
DOCS = {"throttle_classes": [], "authentication_classes": []}

urlpatterns = [
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    path("readyz", readyz, name="readyz"),
    path("metrics", metrics_view, name="metrics"),
    path("api/schema/", CachedSchemaView.as_view(**DOCS), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema", **DOCS), name="swagger-ui"),
    path(
        "api/redoc/",
        SpectacularRedocView.as_view(
            url_name="schema", template_name="asnas_api/redoc.html", **DOCS
        ),
        name="redoc",
    ),
    path("api/v1/", ApiIndex.as_view(), name="api-index"),
    path("api/v1/", include("games.urls")),
    path("api/v1/", include("players.urls")),
]

if settings.ASNAS_BENCH_METRICS:
    from asnas_api.bench_metrics import FloorRead, FloorWrite

    urlpatterns += [
        path("bench/floor/read", FloorRead.as_view()),
        path("bench/floor/write/<uuid:match_id>", FloorWrite.as_view()),
    ]
