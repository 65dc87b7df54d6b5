"""The terminal client behind `manage.py play`: As-Nas at a table drawn with rich, played
over the public HTTP API like any other client.

It imports nothing of the server; it knows the game only from the JSON the API answers.
- api.py: the HTTP calls and the saved sessions (token, unfinished match);
- table.py: what the screen shows, from a match view and its events;
- game.py: the loop of keys and moves, and the screens it drives.
"""
