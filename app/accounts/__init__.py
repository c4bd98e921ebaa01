"""Optional accounts (issue 34): a name that follows a person from device to device.

Anyone can still play without an account.  An account takes over the browser's
player key (app/players): the seats that key took become the account's, and
signing in on another device links that device's key too, so "My games" is the
same everywhere without a transfer link.

- ``names``: what a username and a password must be (pure rules);
- ``passwords``: Argon2id hashing, off the event loop;
- ``tokens``: session tokens, their hashes, the CSRF token bound to a session;
- ``store``: the storage Protocol (``app/db/accounts.py`` implements it);
- ``attempts``: sign-in failures counted per account and per address;
- ``access``: the instance's access mode (``ACCESS``) and what it refuses;
- ``service``: ``Accounts``, the face the API and the other features use.
"""
