"""A TCP proxy a test can stop and start: real outages of PostgreSQL or Redis.

The server under test reaches its database or Redis through this proxy.
``stop()`` closes the listening socket and resets every open connection (as a
crashed or unplugged server would look to the driver), and new connections are
refused; ``start()`` listens again on the same port.  Plain threads, so it
runs beside whatever event loop the test uses.
"""

from __future__ import annotations

import socket
import struct
import threading
from collections.abc import Iterator


class TcpProxy:
    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self._lock = threading.Lock()
        self._sockets: set[socket.socket] = set()
        self._listener: socket.socket | None = None
        self._accepting: threading.Thread | None = None
        self._running = False
        self.connections = 0
        """Connections accepted so far (a test can see the server came back)."""

    def __enter__(self) -> TcpProxy:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> TcpProxy:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(128)
        listener.settimeout(0.1)
        accepting = threading.Thread(target=self._accept, args=(listener,), daemon=True)
        with self._lock:
            self._listener = listener
            self._running = True
            self._accepting = accepting
        accepting.start()
        return self

    def stop(self) -> None:
        """Refuse new connections and reset every open one.  On return the port is
        free again: the accept thread has let go of the listener (a listener closed
        while another thread waits in ``accept`` stays bound until that call ends)."""
        with self._lock:
            self._running = False
            listener, self._listener = self._listener, None
            sockets, self._sockets = self._sockets, set()
            accepting, self._accepting = self._accepting, None
        if listener is not None:
            try:
                listener.shutdown(socket.SHUT_RDWR)  # wakes the thread's accept at once
            except OSError:
                pass
            listener.close()
        if accepting is not None and accepting is not threading.current_thread():
            accepting.join()
        for s in sockets:
            _reset(s)

    def _accept(self, listener: socket.socket) -> None:
        while True:
            with self._lock:
                if self._listener is not listener:
                    return
            try:
                client, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                _reset(client)
                continue
            upstream.settimeout(None)
            client.settimeout(None)
            with self._lock:
                if not self._running:
                    _reset(client)
                    _reset(upstream)
                    return
                self._sockets.update((client, upstream))
                self.connections += 1
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            with self._lock:
                self._sockets.discard(s)
            _reset(s)

    def sockets(self) -> Iterator[socket.socket]:
        with self._lock:
            return iter(list(self._sockets))


def _reset(s: socket.socket) -> None:
    """Close with RST rather than FIN: the peer learns at once that the link is gone."""
    try:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    except OSError:
        pass
    try:
        s.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    try:
        s.close()
    except OSError:
        pass
