"""The access modes of an instance (app/accounts/access.py): what each refuses."""

from __future__ import annotations

import pytest

from app.accounts.access import AccessMode, Action, SignInRequired, check, needs_account

REFUSED_SIGNED_OUT = {
    AccessMode.OPEN: set(),
    AccessMode.ACCOUNTS: {Action.CREATE},
    AccessMode.MEMBERS: {Action.CREATE, Action.JOIN, Action.WATCH},
}


@pytest.mark.parametrize("mode", list(AccessMode))
@pytest.mark.parametrize("action", list(Action))
def test_each_mode_wants_an_account_for_exactly_its_actions(
    mode: AccessMode, action: Action
) -> None:
    assert needs_account(mode, action) == (action in REFUSED_SIGNED_OUT[mode])
    check(mode, action, signed_in=True)  # a signed-in person may do everything
    if action in REFUSED_SIGNED_OUT[mode]:
        with pytest.raises(SignInRequired) as refused:
            check(mode, action, signed_in=False)
        assert refused.value.code == "sign_in_required"
        assert "sign in" in refused.value.message
    else:
        check(mode, action, signed_in=False)
