from django.urls import path

from games import api

urlpatterns = [
    path("matches", api.MatchListCreateApi.as_view(), name="matches"),
    path("matches/<uuid:match_id>", api.MatchDetailApi.as_view(), name="match-detail"),
    path("matches/<uuid:match_id>/actions", api.MatchActionApi.as_view(), name="match-actions"),
    path(
        "matches/<uuid:match_id>/next-deal", api.MatchNextDealApi.as_view(), name="match-next-deal"
    ),
    path("matches/<uuid:match_id>/restart", api.MatchRestartApi.as_view(), name="match-restart"),
    path("matches/<uuid:match_id>/events", api.MatchEventsApi.as_view(), name="match-events"),
]
