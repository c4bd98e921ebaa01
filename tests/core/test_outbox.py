"""The outbox's registry and doorbell (app/core/outbox.py): subscribers are named
once, for kinds that exist; the doorbell wakes a waiting dispatcher at once."""

from __future__ import annotations

import asyncio

import pytest

from app.core.loops import Doorbell
from app.core.outbox import DEAL_ENDED, MATCH_ENDED, StoredEvent, Subscriptions
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
