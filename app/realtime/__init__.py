"""Real-time delivery: getting messages to sockets, with no game logic.

- ``hub``: a room's audiences (one per seat, one for spectators), the patches each is
  sent, every connection's last seq;
- ``jsondiff``: the JSON Patch between two views;
- ``audience``: who is connected to a room, for messages beside the game (chat,
  reviews, seats that moved);
- ``connection``: one socket's outgoing queue and its writer task;
- ``deflate``, ``frame_cache``, ``frames``, ``socket_protocol``: WebSocket compression
  that keeps nothing per connection, frames built once per message, client frames
  read directly, and uvicorn's protocol with both.
"""
