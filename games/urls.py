from django.urls import path

from games.http import (
    coaching,
    fairness,
    ladder,
    match,
    puzzles,
    review,
    spectating,
    streams,
    tables,
    tournaments,
)

# The paths and names the router gave the viewsets before: a view per operation now.
urlpatterns = [
    path("puzzles/next", puzzles.PuzzleNext.as_view(), name="puzzle-next"),
    path("puzzles/<uuid:puzzle_id>/try", puzzles.PuzzleTry.as_view(), name="puzzle-try"),
    path("tables", tables.TableList.as_view(), name="table-list"),
    path("matches", match.Matches.as_view(), name="match-list"),
    path("matches/<uuid:match_id>", match.MatchRetrieve.as_view(), name="match-detail"),
    path("matches/<uuid:match_id>/actions", match.MatchAct.as_view(), name="match-act"),
    path("matches/<uuid:match_id>/events", match.MatchEvents.as_view(), name="match-events"),
    path("matches/<uuid:match_id>/hint", coaching.MatchHint.as_view(), name="match-hint"),
    path("matches/<uuid:match_id>/review", review.MatchReview.as_view(), name="match-review"),
    path(
        "matches/<uuid:match_id>/invitation",
        tables.MatchInvitation.as_view(),
        name="match-invitation",
    ),
    path("matches/<uuid:match_id>/join", match.MatchJoin.as_view(), name="match-join"),
    path("matches/<uuid:match_id>/leave", match.MatchLeave.as_view(), name="match-leave"),
    path(
        "matches/<uuid:match_id>/next-deal", match.MatchNextDeal.as_view(), name="match-next-deal"
    ),
    path("matches/<uuid:match_id>/record", match.MatchRecord.as_view(), name="match-record"),
    path("matches/<uuid:match_id>/resign", match.MatchResign.as_view(), name="match-resign"),
    path("matches/<uuid:match_id>/restart", match.MatchRestart.as_view(), name="match-restart"),
    path(
        "matches/<uuid:match_id>/spectators",
        spectating.MatchSpectators.as_view(),
        name="match-spectators",
    ),
    path("matches/<uuid:match_id>/stream", streams.MatchStream.as_view(), name="match-stream"),
    path("players/me/stream", streams.PlayerStream.as_view(), name="player-stream-list"),
    path("stream-tickets", streams.StreamTicketCreate.as_view(), name="stream-ticket-list"),
    path("commitments", fairness.CommitmentCreate.as_view(), name="commitment-list"),
    path("watch", spectating.Watch.as_view(), name="watch-list"),
    path("watch/events", spectating.WatchEvents.as_view(), name="watch-events"),
    path("watch/stream", spectating.WatchStream.as_view(), name="watch-stream"),
    path("watch/tickets", spectating.WatchTicketCreate.as_view(), name="watch-tickets"),
    path("quick-play", tables.QuickPlay.as_view(), name="quick-play-list"),
    path("tournaments", tournaments.Tournaments.as_view(), name="tournament-list"),
    path(
        "tournaments/<uuid:tournament_id>",
        tournaments.TournamentRetrieve.as_view(),
        name="tournament-detail",
    ),
    path(
        "tournaments/<uuid:tournament_id>/entries",
        tournaments.TournamentEnter.as_view(),
        name="tournament-enter",
    ),
    path(
        "tournaments/<uuid:tournament_id>/matches",
        tournaments.TournamentMatches.as_view(),
        name="tournament-matches",
    ),
    path(
        "tournaments/<uuid:tournament_id>/standings",
        tournaments.TournamentStandings.as_view(),
        name="tournament-standings",
    ),
    path("bots/me/benchmark", ladder.BotBenchmark.as_view(), name="bot-benchmark"),
    path("bots/leaderboard", ladder.BotLeaderboard.as_view(), name="bot-leaderboard"),
]
