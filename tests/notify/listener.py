"""A plain TCP listener that counts who connects to it: the "service inside" a hostile
push endpoint points at (tests/notify/test_egress.py, tests/server/test_push_hostile.py).
Every connection is accepted, counted and closed at once."""

from __future__ import annotations

import socket
import threading


class Listener:
    def __init__(self, addresses: tuple[str, ...] = ("127.0.0.1",), port: int = 0) -> None:
        """Listening on each of ``addresses``, all on one port (``port``, or a free one)."""
        self.connections: list[tuple[str, int]] = []
        self._lock = threading.Lock()
        self._socks: list[socket.socket] = []
        try:
            for address in addresses:
                family = socket.AF_INET6 if ":" in address else socket.AF_INET
                sock = socket.socket(family, socket.SOCK_STREAM)
                self._socks.append(sock)
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                sock.bind((address, port))
                sock.listen(16)
                port = sock.getsockname()[1]
        except OSError:
            self.close()
            raise
        self.port = port
        self._stop = threading.Event()
        self._threads = [
            threading.Thread(target=self._serve, args=(s,), daemon=True) for s in self._socks
        ]
        for t in self._threads:
            t.start()

    def _serve(self, sock: socket.socket) -> None:
        sock.settimeout(0.1)
        while not self._stop.is_set():
            try:
                conn, peer = sock.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            with self._lock:
                self.connections.append((str(peer[0]), int(peer[1])))
            conn.close()

    def seen(self) -> list[tuple[str, int]]:
        with self._lock:
            return list(self.connections)

    def close(self) -> None:
        if hasattr(self, "_stop"):
            self._stop.set()
            for t in self._threads:
                t.join(2)
        for s in self._socks:
            s.close()
