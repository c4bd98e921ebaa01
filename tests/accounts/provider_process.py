"""The test OpenID Connect provider (tests/accounts/oidc_provider.py) as a process the
tests start, and its controls over HTTP."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests import fetch
from tests.accounts.oidc_provider import CLIENT_ID, CLIENT_SECRET
from tests.conftest import ROOT
from tests.waiting import wait_healthy


class Provider:
    """A running test provider: its issuer URL, and its test controls."""

    def __init__(self, port: int, log_path: Path) -> None:
        self.port = port
        self.issuer = f"http://127.0.0.1:{port}"
        self.client_id = CLIENT_ID
        self.client_secret = CLIENT_SECRET
        self._log = open(log_path, "ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.accounts.oidc_provider", "--port", str(port)],
            cwd=ROOT,
            stdout=self._log,
            stderr=self._log,
        )
        wait_healthy(self.issuer, self.proc, log_path, 60)

    def settings_env(self, name: str = "Test ID") -> dict[str, str]:
        """What a host would set to use this provider."""
        return {
            "OIDC_ISSUER": self.issuer,
            "OIDC_CLIENT_ID": self.client_id,
            "OIDC_CLIENT_SECRET": self.client_secret,
            "OIDC_NAME": name,
        }

    def sign_in_as(self, subject: str, **claims: str) -> None:
        """Who the provider approves next (and until told otherwise)."""
        self._post("/_test/user", {"sub": subject, **claims})

    def misbehave(self, **tweaks: str) -> None:
        """Make the next ID token wrong: ``aud``, ``nonce`` or ``iss`` of this value, or
        ``key="other"`` (signed by a key the provider does not publish)."""
        self._post("/_test/tweaks", tweaks)

    def counts(self) -> dict[str, int]:
        got: dict[str, int] = fetch.get(self.issuer + "/_test/counts", timeout=10).json()
        return got

    def _post(self, path: str, body: dict[str, str]) -> None:
        fetch.post(self.issuer + path, json=body, timeout=10).raise_for_status()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self._log.close()
