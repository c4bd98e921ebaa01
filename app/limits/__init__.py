"""Abuse limits: who is asking (the client's address) and how often they may.

Everything here is per server process and in memory: a host running several
processes behind a proxy gets each limit once per process, and the proxy
examples (deploy/) carry the same limits for the whole site.
"""
