"""``Accounts``: register, sign in and out, the signed-in person, deletion and export.

The API hands in what only it knows (the client's address, the player key and the
device cookie the browser sent) and gets back plain values; the cookies, the CSRF
check and status codes are the API's business (app/api/accounts.py,
app/api/session_gate.py).  The server's secret, which the CSRF values and device
cookies are signed with, is made at the first start and kept in the database
(``secret``).  ``sign_in_external`` is the door the OpenID
Connect sign-in uses: the provider vouches for the person, so no password is asked.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.core.clock import now_ms
from app.core.errors import Conflict, Unavailable, unavailable
from app.core.tokens import hash_token
from app.names import name_key, plain_key
from app.players.players import player_hash

from . import names, passwords, tokens
from .attempts import AttemptLimits, Attempts
from .store import AccountRow, AccountStore, StoredData

DELETED_PLAYER = "deleted player"
"""The name a deleted account's seats are shown under (its games stay)."""
USERNAME_TAKEN = "username_taken"
BAD_CREDENTIALS = "bad_credentials"
PASSWORDS_OFF = "password_login_disabled"
NAME_TRIES = 20
"""Suffixes tried to make a provider's name unique on first sign-in."""


class AccountError(Exception):
    """A refusal with its wire code; ``status`` is the HTTP status it is answered with."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


@dataclass(frozen=True, slots=True)
class Account:
    """The signed-in person (their session's account)."""

    id: str
    username: str
    created_ms: int
    bot_since_ms: int | None = None
    """When it became a bot account (issue 51, app/accounts/access_tokens.py); None for
    a person's account."""

    @property
    def bot(self) -> bool:
        return self.bot_since_ms is not None


@dataclass(frozen=True, slots=True)
class SignedIn:
    """A new session: the cookie's token and the CSRF token bound to it."""

    account: Account
    token: str
    csrf: str
    expires_ms: int
    seats_moved: int
    """Seats of the browser's player key that became the account's just now."""
    device: str = ""
    """The browser's device cookie from now on: it signed in to this account."""


@dataclass(frozen=True, slots=True)
class AccountSettings:
    session_days: float
    password_login: bool
    limits: AttemptLimits


def _account(row: AccountRow) -> Account:
    return Account(row.id, row.username or DELETED_PLAYER, row.created_ms, row.bot_since_ms)


class Accounts:
    def __init__(self, store: AccountStore, settings: AccountSettings) -> None:
        self.store = store
        self.settings = settings
        self.attempts = Attempts(store, settings.limits)
        self._secret: bytes | None = None

    async def secret(self) -> bytes:
        """The server's secret for CSRF values and device cookies: made at the first
        start and kept (``server_keys``), the same in every process."""
        if self._secret is None:
            try:
                kept = await self.store.server_key(
                    tokens.SECRET_NAME, tokens.new_secret(), now_ms()
                )
            except Unavailable as exc:
                raise unavailable() from exc
            self._secret = kept.encode("utf-8")
        return self._secret

    async def csrf_of(self, token: str) -> str:
        """The CSRF value bound to a session token."""
        return tokens.csrf_token(await self.secret(), token)

    def _passwords_on(self) -> None:
        if not self.settings.password_login:
            raise AccountError(
                403, PASSWORDS_OFF, "this server signs in through its identity provider only"
            )

    async def register(
        self, username: str, password: str, key: str | None, device: str | None = None
    ) -> SignedIn:
        """A new account and its first session; the browser's player key (if sent) is
        taken over.  BadAccountInput for a bad name or a weak password; 409 taken.
        ``device``: the browser's device cookie, to which the account is added."""
        self._passwords_on()
        names.check_username(username)
        names.check_password(password, username)
        encoded = await passwords.hash_password(password)
        account_id = tokens.new_account_id()
        now = now_ms()
        try:
            if await self._looks_taken(username):
                raise AccountError(
                    409, USERNAME_TAKEN, "this username looks like another account's"
                )
            await self.store.create_account(  # Conflict: the name or a look-alike won a race
                account_id, username, names.fold(username), encoded, now
            )
        except Conflict as exc:
            raise AccountError(409, USERNAME_TAKEN, "this username is taken") from exc
        except Unavailable as exc:
            raise unavailable() from exc
        return await self._start(Account(account_id, username, now), key, device)

    async def login(
        self,
        username: str,
        password: str,
        key: str | None,
        address: str,
        device: str | None = None,
    ) -> SignedIn:
        """A new session for the right password (401 ``bad_credentials`` otherwise, the
        same for an unknown name); 429 ``too_many_attempts`` past the limits
        (app/accounts/attempts.py).  ``device``: the browser's device cookie; a
        browser that signed in to this account before is limited on its own."""
        self._passwords_on()
        folded = names.fold(username)[:100]
        secret = await self.secret()
        try:
            row = await self.store.account_by_name(folded)
            known = tokens.device_of(secret, device, row.id, now_ms()) if row else None
            await self.attempts.check(folded, address, now_ms(), known)
            if not await passwords.verify_password(row.password_hash if row else None, password):
                await self.attempts.failed(folded, address, now_ms(), known)
                raise AccountError(401, BAD_CREDENTIALS, "wrong username or password")
            await self.attempts.succeeded(folded, address, known)
        except Unavailable as exc:
            raise unavailable() from exc
        assert row is not None
        return await self._start(_account(row), key, device)

    async def sign_in_external(
        self,
        issuer: str,
        subject: str,
        preferred_username: str | None,
        key: str | None,
        device: str | None = None,
    ) -> SignedIn:
        """Sign in the account of an external identity (OpenID Connect's issuer and
        subject), making it on first sign-in with a name from ``preferred_username``
        (``name2``, ``name3``... when taken).  Works whether passwords are on or off."""
        try:
            row = await self.store.account_by_identity(issuer, subject)
            if row is not None:
                return await self._start(_account(row), key, device)
            base = names.name_from(preferred_username, "player")
            for n in range(1, NAME_TRIES + 1):
                suffix = "" if n == 1 else str(n)
                name = base[: names.NAME_MAX - len(suffix)] + suffix
                account_id = tokens.new_account_id()
                now = now_ms()
                if await self._looks_taken(name):
                    continue
                try:
                    await self.store.create_account(
                        account_id, name, names.fold(name), None, now, identity=(issuer, subject)
                    )
                except Conflict:
                    row = await self.store.account_by_identity(issuer, subject)
                    if row is not None:  # another sign-in of the same person won the race
                        return await self._start(_account(row), key, device)
                    continue
                return await self._start(Account(account_id, name, now), key, device)
        except Unavailable as exc:
            raise unavailable() from exc
        raise AccountError(409, USERNAME_TAKEN, "no free username could be made for this account")

    async def _start(self, account: Account, key: str | None, device: str | None) -> SignedIn:
        secret = await self.secret()
        token = tokens.new_session_token()
        now = now_ms()
        expires = now + int(self.settings.session_days * 86_400_000)
        try:
            await self.store.create_session(tokens.session_hash(token), account.id, now, expires)
            moved = await self.store.link_key(account.id, player_hash(key), now) if key else 0
        except Unavailable as exc:
            raise unavailable() from exc
        return SignedIn(
            account,
            token,
            tokens.csrf_token(secret, token),
            expires,
            moved,
            tokens.device_cookie(secret, device, account.id, now),
        )

    async def current(self, token: str | None) -> Account | None:
        """The account of a session token (the cookie), or None when signed out."""
        if not token or len(token) > 128:
            return None
        try:
            row = await self.store.session_account(tokens.session_hash(token), now_ms())
        except Unavailable as exc:
            raise unavailable() from exc
        return _account(row) if row is not None and row.username is not None else None

    async def take_over_key(self, account: Account, key: str) -> int:
        """The browser's player key becomes the account's (a signed-in browser that
        plays with a key not yet linked); returns the seats that moved."""
        try:
            return await self.store.link_key(account.id, player_hash(key), now_ms())
        except Unavailable as exc:
            raise unavailable() from exc

    async def link_seat(self, account: Account, room_id: str, seat: int, token: str) -> bool:
        """A seat just taken by a signed-in person is theirs (best effort, as the
        player key's link: the seat stands either way)."""
        try:
            return await self.store.link_seat(room_id, seat, hash_token(token), account.id)
        except Unavailable:
            return False

    async def imitates(self, name: str, account: Account | None) -> bool:
        """Whether a player name would pass for another person's account (issues 34, 46):
        the name's skeleton (app/names.py: Cyrillic "Аlice" is "alice", "bob" is "b0b")
        is an account's stored skeleton, or the name is an account's username as written
        (case, spaces and format characters aside; an account migration 0019 left
        without a skeleton is found so).  One's own name is one's own."""
        skeleton = name_key(name)
        for row in (
            await self.store.account_by_skeleton(skeleton),
            *[
                await self.store.account_by_name(names.fold(key))
                for key in dict.fromkeys((plain_key(name), skeleton))
            ],
        ):
            if row is not None and (account is None or row.id != account.id):
                return True
        return False

    async def _looks_taken(self, username: str) -> bool:
        """Whether a new ``username`` looks like an existing account's: the same
        skeleton ("b0b" beside "bob", "bob" beside "b0b"), or, for an account migration
        0019 left without a skeleton, a look-alike of its name.  The same name in
        another case is found so too; the database's unique keys settle a race."""
        if await self.store.account_by_skeleton(name_key(username)) is not None:
            return True
        similar = names.look_alike(username)
        return similar is not None and await self.store.account_by_name(similar) is not None

    async def logout(self, token: str) -> None:
        try:
            await self.store.delete_session(tokens.session_hash(token))
        except Unavailable as exc:
            raise unavailable() from exc

    async def logout_all(self, account: Account) -> int:
        try:
            return await self.store.delete_sessions(account.id)
        except Unavailable as exc:
            raise unavailable() from exc

    async def delete(self, account: Account) -> None:
        """Delete the account: it signs in nowhere any more and its name is free; its
        games stay, its seats named "deleted player"."""
        try:
            await self.store.delete_account(account.id, now_ms(), DELETED_PLAYER)
        except Unavailable as exc:
            raise unavailable() from exc

    async def stored_data(self, account: Account) -> StoredData:
        try:
            return await self.store.stored_data(account.id)
        except Unavailable as exc:
            raise unavailable() from exc
