from rest_framework.routers import SimpleRouter

from games import api

router = SimpleRouter(trailing_slash=False, use_regex_path=False)
router.register("matches", api.MatchViewSet, basename="match")
urlpatterns = router.urls
