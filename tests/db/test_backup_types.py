"""app/db/backup_types.py ``manifest_of``: a PostgreSQL backup's manifest is JSON read
back from a file, checked field by field before a restore uses any of it."""

from __future__ import annotations

import pytest

from app.core.json import JsonObject, JsonValue
from app.db.backup_types import BackupFailed, manifest_of

FORMAT = ("krypkasino-postgres-backup", 1)
TABLE: JsonObject = {"name": "rooms", "columns": ["id", "code"], "rows": 3}
GOOD: JsonObject = {
    "format": FORMAT[0],
    "format_version": FORMAT[1],
    "app_version": "1.2.3",
    "revision": "0042",
    "taken_at": "2030-01-01T00:00:00+00:00",
    "tables": [TABLE],
}


def test_a_manifest_reads_back_as_written() -> None:
    assert manifest_of(GOOD, FORMAT) == GOOD


@pytest.mark.parametrize(
    "bad",
    [
        [GOOD],
        {**GOOD, "format": "something-else"},
        {**GOOD, "format_version": 2},
        {**GOOD, "revision": 42},
        {**GOOD, "tables": {"rooms": TABLE}},
        {**GOOD, "tables": [{**TABLE, "rows": "3"}]},
        {**GOOD, "tables": [{**TABLE, "columns": ["id", None]}]},
        {**GOOD, "tables": [{**TABLE, "name": None}]},
    ],
)
def test_a_document_of_another_shape_is_refused(bad: JsonValue) -> None:
    with pytest.raises(BackupFailed, match="not a Krypkasino PostgreSQL backup"):
        manifest_of(bad, FORMAT)
