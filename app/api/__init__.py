"""HTTP and WebSocket edges: translate messages to room-service calls; no game logic."""
