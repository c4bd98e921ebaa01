"""app/rooms/settings.py: the service's settings, and the timings derived from one number."""

from __future__ import annotations

import dataclasses

import pytest

from app.broker import RedisBroker, make_broker
from app.config import Settings
from app.rooms.settings import ServiceSettings, from_config


def test_the_server_config_reaches_every_setting_it_names() -> None:
    config = Settings(
        patch_history=17,
        default_bot_delay=0.3,
        default_grace=12,
        bot_budget=0.2,
        bot_workers=3,
        bot_queue=5,
        room_idle_seconds=99,
        lease_seconds=9,
        bots_only_delay=0.7,
        max_rooms_per_ip=4,
        max_rooms=40,
    )
    got = from_config(config)
    assert (
        got.history,
        got.default_bot_delay,
        got.default_grace,
        got.bot_budget,
        got.bot_workers,
        got.bot_queue,
        got.idle_evict,
        got.lease_seconds,
        got.bots_only_delay,
        got.max_rooms_per_creator,
        got.max_rooms,
    ) == (17, 0.3, 12, 0.2, 3, 5, 99, 9, 0.7, 4, 40)
    untouched = {"retry_first", "retry_max"}
    defaults = ServiceSettings()
    for f in dataclasses.fields(ServiceSettings):
        if f.name in untouched:
            assert getattr(got, f.name) == getattr(defaults, f.name)


@pytest.mark.parametrize("lease", [1.0, 3.0, 15.0, 60.0, 300.0])
def test_every_period_follows_from_the_lease(lease: float) -> None:
    s = ServiceSettings(lease_seconds=lease)
    assert s.heartbeat <= lease / 3  # two renewals may fail before a lease runs out
    assert s.lease_poll <= lease / 5
    assert s.presence_fresh >= 5 * s.heartbeat  # reports renewed every heartbeat never lapse
    assert s.presence_fresh <= 30.0


def test_the_default_timings_are_those_the_docs_give() -> None:
    s = ServiceSettings()
    assert (s.heartbeat, s.lease_poll, s.presence_fresh) == (5.0, 1.0, 30.0)


def test_the_broker_counts_presence_for_the_window_the_settings_give() -> None:
    window = ServiceSettings(lease_seconds=3).presence_fresh
    broker = make_broker("redis://127.0.0.1:6379/0", window)
    assert isinstance(broker, RedisBroker)
    assert broker.presence_fresh == 6.0
