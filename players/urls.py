from rest_framework.routers import SimpleRouter

from players import api

router = SimpleRouter(trailing_slash=False, use_regex_path=False)
router.register("players", api.PlayerViewSet, basename="player")
router.register("leaderboard", api.LeaderboardViewSet, basename="leaderboard")
urlpatterns = router.urls
