"""Krypkasino Online: a server-authoritative multiplayer server for Krypkasino."""

__version__ = "0.2.0"
