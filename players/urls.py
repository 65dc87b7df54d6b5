from django.urls import path

from players import api

urlpatterns = [
    path("players", api.PlayerCreateApi.as_view(), name="players"),
    path("players/me", api.PlayerMeApi.as_view(), name="players-me"),
]
