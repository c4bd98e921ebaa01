"""Plain HTTP for the tests, through one client shared by the whole test process.

``httpx.get`` and its siblings build a new client for every call, and with it a TLS
context that loads the whole CA bundle: about 50 ms of CPU on a slow VM, even for
plain http to 127.0.0.1.  Loops that poll a server (its health while it starts, its
readiness through an outage) call them ten times a second in each of the suite's
workers, and so starved the very servers they waited for.  This client builds that
context once.  It keeps no connection open between calls, so a server killed and
started again on the same port never meets a stale pooled connection, and it keeps
no cookie (its jar's policy refuses every one): the session cookie of a sign-in
(issue 34) would otherwise go with every later call of the process to any server on
127.0.0.1, whatever its port, and get its POSTs refused as ``csrf_failed``.  So
nothing carries over from one call to the next: each call behaves as ``httpx.get``
did.  A test that wants a signed-in browser makes its own client.
"""

from __future__ import annotations

from http.cookiejar import CookieJar, DefaultCookiePolicy

import httpx

_CLIENT = httpx.Client(
    limits=httpx.Limits(max_keepalive_connections=0),
    cookies=CookieJar(policy=DefaultCookiePolicy(allowed_domains=())),
)

get = _CLIENT.get
post = _CLIENT.post
head = _CLIENT.head
request = _CLIENT.request
