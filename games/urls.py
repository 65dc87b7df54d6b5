from django.urls import path
from rest_framework.routers import SimpleRouter

from games import api

router = SimpleRouter(trailing_slash=False, use_regex_path=False)
router.register("matches", api.MatchViewSet, basename="match")
router.register("players/me/stream", api.PlayerStreamViewSet, basename="player-stream")
router.register("stream-tickets", api.StreamTicketViewSet, basename="stream-ticket")
router.register("commitments", api.CommitmentViewSet, basename="commitment")
router.register("watch", api.WatchViewSet, basename="watch")
router.register("quick-play", api.QuickPlayViewSet, basename="quick-play")
urlpatterns = [path("tables", api.TableList.as_view(), name="table-list"), *router.urls]
