"""Email (app/notify/email.py) on a real database, through a real local SMTP server
(aiosmtpd, tests/notify/smtp_server.py): the confirmation mail and its headers, the
daily digest of the games waiting (correspondence rooms' ``move`` rows) at most once a
day per address with two processes' loops racing, and no digest when nothing waits,
when the owner turned it off or once the address unsubscribed.  SQLite and PostgreSQL.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import UTC, datetime
from urllib.parse import parse_qs, urlsplit

import pytest
from sqlalchemy import delete, insert

from app.db.email import EmailRows
from app.db.models import RoomDeadline, table_of
from app.db.notices import NoticeRows
from app.db.repository import RoomRepository
from app.notify.email import BadAddress, EmailNotices, TooSoon
from app.notify.mail_text import time_left
from app.notify.mailer import Mailer, SmtpSettings
from app.notify.settings import NoticeSettings, key_owner
from tests.conftest import open_store, run_async
from tests.db.test_push import ANN, BO, seated_room
from tests.notify.smtp_server import SmtpServer, headers, link
from tests.waiting import wait_until_async

BASE = "https://kk.example.org"
NOON = datetime(2026, 12, 4, 12, 0, tzinfo=UTC).timestamp()
DAY = 24 * 3600.0


@pytest.fixture
def smtp() -> Iterator[SmtpServer]:
    s = SmtpServer()
    yield s
    s.close()


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def notices(repo: RoomRepository, smtp: SmtpServer, clock: Clock, **kw: float) -> EmailNotices:
    mailer = Mailer(SmtpSettings("127.0.0.1", smtp.port, starttls=False))
    return EmailNotices(
        EmailRows(repo),
        mailer,
        base_url=BASE,
        sender="Krypkasino <games@example.org>",
        digest_hour=7,
        clock=clock,
        **kw,  # type: ignore[arg-type]
    )


def token_of(url: str) -> str:
    return parse_qs(urlsplit(url).query)["token"][0]


async def waiting(repo: RoomRepository, room: str, seat: int, due_ms: int) -> None:
    """The correspondence room waits for ``seat`` to move until ``due_ms`` (the turn
    before it is over: one ``move`` row a room)."""
    deadlines = table_of(RoomDeadline)
    async with repo.sessions.begin() as s:
        await s.execute(delete(deadlines).where(deadlines.c.room_id == room))
        await s.execute(
            insert(table_of(RoomDeadline)).values(
                room_id=room, kind="move", seq=3, seat=seat, due_ms=due_ms
            )
        )


async def confirmed(mail: EmailNotices, smtp: SmtpServer, key: str, address: str) -> str:
    """``address`` given for ``key`` and confirmed by its link; the unsubscribe link."""
    await mail.register(key_owner(key), address, "sv")
    (sent,) = await asyncio.to_thread(smtp.wait_for, address, 1)
    assert await mail.confirm(token_of(link(sent, "/notifications/email/confirm")))
    return headers(sent)["list-unsubscribe"].strip("<>")


def test_the_confirmation_mail_carries_its_link_and_a_one_click_unsubscribe(
    database_url: str, smtp: SmtpServer
) -> None:
    clock = Clock(NOON)

    async def run() -> None:
        async with open_store(database_url) as repo:
            mail = notices(repo, smtp, clock)
            owner = key_owner(ANN)
            with pytest.raises(BadAddress):
                await mail.register(owner, "ann@example.org\r\nBcc: all@example.org", "en")
            await mail.register(owner, " Ann@Example.ORG ", "en")
            (sent,) = await asyncio.to_thread(smtp.wait_for, "Ann@example.org", 1)
            h = headers(sent)
            assert h["from"] == "Krypkasino <games@example.org>"
            assert h["to"] == "Ann@example.org"
            assert h["subject"] == "Confirm your address for Krypkasino"
            assert h["list-unsubscribe-post"] == "List-Unsubscribe=One-Click"
            unsubscribe = h["list-unsubscribe"]
            assert unsubscribe.startswith(f"<{BASE}/notifications/email/unsubscribe?token=")
            assert h["message-id"].endswith("@kk.example.org>")
            assert h["auto-submitted"] == "auto-generated"
            confirm = link(sent, "/notifications/email/confirm")
            assert confirm.startswith(f"{BASE}/notifications/email/confirm?token=")
            assert unsubscribe.strip("<>") in sent.body, "the footer has it too"
            # asking again at once is refused; a minute later it is sent
            with pytest.raises(TooSoon):
                await mail.register(owner, "ann@example.org", "en")
            state = await mail.status(owner)
            assert state is not None and state.confirmed_ms is None
            assert await mail.confirm("not-a-token") is None
            assert await mail.confirm(token_of(confirm))
            assert (await mail.status(owner)).confirmed_ms is not None  # type: ignore[union-attr]
            assert await mail.confirm(token_of(confirm)) is None, "a link confirms once"
            clock.now += 61
            await mail.register(owner, "ann@example.org", "en")
            await asyncio.to_thread(smtp.wait_for, "ann@example.org", 1)
            # other owners giving one address: three confirmations an hour at most
            for key in (BO, "C" * 22, "D" * 22):
                await mail.register(key_owner(key), "target@example.org", "en")
                clock.now += 61
            with pytest.raises(TooSoon):
                await mail.register(key_owner("E" * 22), "target@example.org", "en")
            assert len(smtp.to("target@example.org")) == 3

    run_async(run())


def test_one_digest_a_day_lists_the_games_waiting_even_with_two_processes_racing(
    database_url: str, smtp: SmtpServer
) -> None:
    clock = Clock(NOON)

    async def run() -> str:
        async with open_store(database_url) as one, open_store(database_url) as two:
            a, b = notices(one, smtp, clock), notices(two, smtp, clock)
            room = await seated_room(one, [ANN, BO])
            unsubscribe = await confirmed(a, smtp, ANN, "ann@example.org")
            # nothing waits for Ann: no digest, and nothing claimed
            assert await asyncio.gather(a.send_digests(), b.send_digests()) == [0, 0]
            await waiting(one, room, 1, int((NOON + 3 * 3600) * 1000))  # Bo's turn
            assert await a.send_digests() == 0
            # Ann's turn, 2 days and 5 hours left: both processes look, three times each
            await waiting(one, room, 0, int((NOON + 2 * DAY + 5 * 3600) * 1000))
            sent = await asyncio.gather(*(m.send_digests() for m in (a, b) * 3))
            assert sum(sent) == 1
            # the same day, later: still one
            clock.now += 6 * 3600
            assert await asyncio.gather(a.send_digests(), b.send_digests()) == [0, 0]
            # the next day, before DIGEST_HOUR nothing; after it one more
            clock.now = NOON + DAY - 6 * 3600
            assert await a.send_digests() == 0
            clock.now = NOON + DAY
            assert sum(await asyncio.gather(a.send_digests(), b.send_digests())) == 1
            # Ann turns the digest off: no mail the day after
            await NoticeRows(one).save_settings(key_owner(ANN), NoticeSettings(digest=False), 1)
            clock.now = NOON + 2 * DAY
            assert await a.send_digests() == 0
            await NoticeRows(one).save_settings(key_owner(ANN), NoticeSettings(), 2)
            # the address unsubscribes: no mail ever after
            assert await a.unsubscribe(token_of(unsubscribe))
            assert not await a.unsubscribe(token_of(unsubscribe))
            clock.now = NOON + 3 * DAY
            assert await a.send_digests() == 0
            return room

    room = run_async(run())
    assert len(smtp.to("ann@example.org")) == 3, "the confirmation and two digests"
    digests = [m for m in smtp.to("ann@example.org") if "väntar" in headers(m)["subject"]]
    assert len(digests) == 2, "one a day, on two days"
    one = digests[0]
    h = headers(one)
    assert h["subject"] == "Krypkasino: 1 parti(er) väntar på ditt drag"
    assert h["list-unsubscribe-post"] == "List-Unsubscribe=One-Click"
    assert f"{BASE}/r/{room}" in one.body
    assert "Rum RRRRRR: 2 d 5 h kvar" in one.body
    assert "1 d 5 h kvar" in digests[1].body


def test_two_digest_loops_running_side_by_side_send_one(
    database_url: str, smtp: SmtpServer
) -> None:
    clock = Clock(NOON)

    async def run() -> None:
        async with open_store(database_url) as one, open_store(database_url) as two:
            a = notices(one, smtp, clock, check_seconds=0.02)
            b = notices(two, smtp, clock, check_seconds=0.02)
            room = await seated_room(one, [ANN, BO])
            await confirmed(a, smtp, BO, "bo@example.org")
            await waiting(one, room, 1, int((NOON + 3600) * 1000))
            a.start()
            b.start()
            try:
                await asyncio.to_thread(smtp.wait_for, "bo@example.org", 2)
                # many more looks by both loops, counted rather than slept for
                seen = (a.looks, b.looks)
                await wait_until_async(
                    lambda: a.looks >= seen[0] + 5 and b.looks >= seen[1] + 5,
                    30,
                    message="five more looks by each loop",
                )
            finally:
                await a.stop()
                await b.stop()

    run_async(run())
    mails = smtp.to("bo@example.org")
    assert len(mails) == 2, [headers(m)["subject"] for m in mails]
    assert "40 min" not in mails[1].body and "1 h 0 min" in mails[1].body


def test_time_left_reads_coarsely() -> None:
    assert time_left(40 * 60_000) == "40 min"
    assert time_left(90 * 60_000) == "1 h 30 min"
    assert time_left(5 * 3600_000) == "5 h"
    assert time_left(int(2 * DAY * 1000) + 5 * 3600_000) == "2 d 5 h"
    assert time_left(-5) == "0 min"
