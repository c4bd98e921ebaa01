"""The outbox's registry and doorbell (app/core/outbox.py): subscribers are named
once, for kinds that exist; the doorbell wakes a waiting dispatcher at once, or when
an event stored to fall due later does; an event's body gives whole numbers only."""

from __future__ import annotations

import asyncio

import pytest

from app.core.loops import Doorbell
from app.core.outbox import (
    DEAL_ENDED,
    MATCH_ENDED,
    JsonBody,
    StoredEvent,
    Subscriptions,
    body_int,
)
from tests.conftest import run_async


async def nothing(event: StoredEvent) -> None:
    return None


def test_a_subscriber_is_named_once_and_only_for_kinds_that_exist() -> None:
    subs = Subscriptions()
    subs.subscribe("coach", [DEAL_ENDED], nothing)
    subs.subscribe("ratings", [MATCH_ENDED, DEAL_ENDED], nothing)
    assert [s.name for s in subs.of_kind(DEAL_ENDED)] == ["coach", "ratings"]
    assert [s.name for s in subs.of_kind(MATCH_ENDED)] == ["ratings"]
    with pytest.raises(ValueError, match="already registered"):
        subs.subscribe("coach", [MATCH_ENDED], nothing)
    with pytest.raises(ValueError, match="no such event kind"):
        subs.subscribe("typo", ["deal_endd"], nothing)
    with pytest.raises(ValueError, match="1 to 40"):
        subs.subscribe("x" * 41, [DEAL_ENDED], nothing)


def test_the_doorbell_wakes_a_waiter_at_once_and_then_waits_again() -> None:
    async def check() -> None:
        bell = Doorbell()
        waiting = asyncio.create_task(bell.wait(60))
        await asyncio.sleep(0)
        assert not waiting.done()
        bell.ring()
        await asyncio.wait_for(waiting, 5)
        # rung once: the next wait does not return at once (times out here)
        loop = asyncio.get_running_loop()
        started = loop.time()
        await bell.wait(0.05)
        assert loop.time() - started >= 0.04

    run_async(check())


def test_the_doorbell_rings_later_when_an_event_falls_due_later() -> None:
    async def check() -> None:
        bell = Doorbell()
        loop = asyncio.get_running_loop()
        started = loop.time()
        bell.ring_in(0.1)  # a turn notice stored to fall due in 0.1 s
        await asyncio.wait_for(bell.wait(60), 5)
        assert loop.time() - started >= 0.09, "not before it is due"
        bell.ring_in(-1.0)  # already due: at once
        await asyncio.wait_for(bell.wait(60), 1)

    run_async(check())


def test_a_body_gives_whole_numbers_only() -> None:
    body: JsonBody = {"seq": 7, "live": True, "seat": "1"}
    assert body_int(body, "seq") == 7
    for key in ("live", "seat", "missing"):
        with pytest.raises(ValueError, match=key):
            body_int(body, key)
