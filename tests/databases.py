"""Fresh, empty PostgreSQL databases for the tests, made once per test process and
emptied for the next test instead of dropped.

A test on PostgreSQL used to ``CREATE DATABASE`` and, after it, ``DROP DATABASE``:
0.3 s and 0.1 s on an idle 2-core machine, seconds on a loaded one, as PostgreSQL
copies its template into a new database and forces a checkpoint of the whole server
(every dirty page of every test's database written out) to drop one.  Some four
hundred tests do it.  A database given back is emptied instead (its connections
ended, its schemas dropped and ``public`` made again as a new database has it) and the
next test takes it under a new name of its own: ``ALTER DATABASE ... RENAME`` is a
catalogue update.  What a test sees is what a new database would show it: no table, no
type, no function, no sequence, no large object, no setting of its own, a name never
used before.  A database that cannot be emptied is dropped as before.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Coroutine, Iterator
from typing import Any

RunAsync = Callable[[Coroutine[Any, Any, Any]], Any]

EMPTY = """
DO $$
DECLARE name text;
BEGIN
    FOR name IN SELECT nspname FROM pg_namespace
                WHERE nspname NOT LIKE 'pg\\_%' AND nspname <> 'information_schema'
    LOOP
        EXECUTE format('DROP SCHEMA %I CASCADE', name);
    END LOOP;
END $$;
SELECT lo_unlink(oid) FROM pg_largeobject_metadata;
CREATE SCHEMA public AUTHORIZATION pg_database_owner;
GRANT USAGE ON SCHEMA public TO PUBLIC;
COMMENT ON SCHEMA public IS 'standard public schema';
"""
"""Back to what ``CREATE DATABASE`` makes from template1 (PostgreSQL 15's ``public``:
owned by the database's owner, usable by everyone)."""

LEFT = """
SELECT (SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname NOT LIKE 'pg\\_%' AND n.nspname <> 'information_schema')
     + (SELECT count(*) FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
        WHERE n.nspname NOT LIKE 'pg\\_%' AND n.nspname <> 'information_schema')
     + (SELECT count(*) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname NOT LIKE 'pg\\_%' AND n.nspname <> 'information_schema')
     + (SELECT count(*) FROM pg_namespace
        WHERE nspname NOT LIKE 'pg\\_%' AND nspname NOT IN ('information_schema', 'public'))
     + (SELECT count(*) FROM pg_largeobject_metadata)
     + (SELECT count(*) FROM pg_extension WHERE extname <> 'plpgsql')
"""
"""What an emptied database still holds beyond what a new one has: 0, or it is
dropped instead of used again."""

END_OTHERS = (
    "SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity "
    "WHERE datname = $1 AND pid <> pg_backend_pid()"
)
"""End every connection to a database (a server that was killed, a pool left open),
waiting up to 5 s for each to go, as ``DROP DATABASE ... WITH (FORCE)`` does."""


class PostgresDatabases:
    """This test process's PostgreSQL databases: ``fresh()`` lends one, empty."""

    def __init__(self, admin_url: str, run_async: RunAsync) -> None:
        self.admin_url = admin_url
        """A database to connect to for CREATE, RENAME and DROP (never lent)."""
        self.run_async = run_async
        self.spare: list[str] = []
        """Emptied databases, ready to be lent again."""
        self.base = admin_url.rsplit("/", 1)[0]

    def fresh(self) -> Iterator[str]:
        """A fresh, empty database's SQLAlchemy URL, for as long as the caller holds it."""
        name = self._take()
        try:
            yield f"{self.base.replace('postgresql://', 'postgresql+asyncpg://', 1)}/{name}"
        finally:
            self._give_back(name)

    def drop_spares(self) -> None:
        """Drop the emptied databases (at the end of the test process)."""
        while self.spare:
            self._drop(self.spare.pop())

    def _take(self) -> str:
        name = f"kk_test_{uuid.uuid4().hex[:12]}"
        while self.spare:
            if self._admin(self._rename, self.spare.pop(), name):
                return name
        self._admin(self._create, name)
        return name

    def _give_back(self, name: str) -> None:
        import asyncpg

        try:
            emptied = self.run_async(self._empty(name))
        except (OSError, asyncpg.PostgresError):
            emptied = False
        if emptied:
            self.spare.append(name)
        else:
            self._drop(name)

    def _drop(self, name: str) -> None:
        self._admin(self._execute, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def _admin(self, action: Callable[..., Coroutine[Any, Any, Any]], *args: str) -> Any:
        """``action(connection, *args)`` on a connection to the admin database."""
        import asyncpg

        async def run() -> Any:
            conn = await asyncpg.connect(self.admin_url)
            try:
                return await action(conn, *args)
            finally:
                await conn.close()

        return self.run_async(run())

    @staticmethod
    async def _execute(conn: Any, sql: str) -> None:
        await conn.execute(sql)

    @staticmethod
    async def _create(conn: Any, name: str) -> None:
        await conn.execute(f'CREATE DATABASE "{name}"')

    @staticmethod
    async def _rename(conn: Any, old: str, new: str) -> bool:
        """Whether ``old`` is now ``new`` (not if something connected to it meanwhile
        and would not go: it is dropped then)."""
        import asyncpg

        await conn.execute(END_OTHERS, old)
        try:
            await conn.execute(f'ALTER DATABASE "{old}" RENAME TO "{new}"')
        except asyncpg.PostgresError:
            await conn.execute(f'DROP DATABASE IF EXISTS "{old}" WITH (FORCE)')
            return False
        return True

    async def _empty(self, name: str) -> bool:
        """Empty ``name`` as a new database is; whether that left nothing behind."""
        import asyncpg

        conn = await asyncpg.connect(f"{self.base}/{name}")
        try:
            await conn.execute(END_OTHERS, name)
            await conn.execute(f'ALTER DATABASE "{name}" RESET ALL')
            async with conn.transaction():
                await conn.execute(EMPTY)
            return bool(await conn.fetchval(LEFT) == 0)
        finally:
            await conn.close()
