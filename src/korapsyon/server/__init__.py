"""The multiplayer server: rooms and lobby over HTTP, the game over one WebSocket per client,
every accepted action stored before it is acknowledged.

* :mod:`.protocol` - the messages of the live protocol;
* :mod:`.room` - rooms, seats, tokens, and the hub that holds them;
* :mod:`.session` - a running game: commits, view pushes, timers, bot seats, chat;
* :mod:`.connection` - one client's connection and send queue;
* :mod:`.app` - the Starlette application (thin adapters).
"""
