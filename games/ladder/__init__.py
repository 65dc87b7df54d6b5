"""The bot ladder (docs/bots.md): a bot's benchmark against three `hard` seats, its figure
with the luck of the deal removed (the mean of its play, docs/skill.md), and the bots'
leaderboard by that figure, apart from the humans'."""
