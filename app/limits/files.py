"""The open-files limit: raised as far as the system allows when the server starts.

Every socket is a file descriptor.  Linux's usual soft limit of 1024 would let
a flood of sockets from a few addresses exhaust the process (accept() then
fails for everyone) long before the per-address limits (WS_PER_IP, the header
timeout) turn them away.  The hard limit (often 524288 with systemd, set by the
host) is what a process may raise its own soft limit to without privileges.
"""

from __future__ import annotations

import logging
import resource

log = logging.getLogger("krypkasino.limits")


def raise_open_files_limit() -> tuple[int, int, int]:
    """Raise the soft RLIMIT_NOFILE to the hard limit; returns (soft before, soft now,
    hard) and logs them.  An unlimited hard limit is not a value the soft limit may
    take for files: the kernel's ceiling (``fs.nr_open``) is used then."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else _kernel_ceiling()
    now = soft
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            now = target
        except (ValueError, OSError) as exc:  # a container may refuse: keep what we have
            log.warning("could not raise the open files limit from %d to %d: %s", soft, target, exc)
    log.info(
        "open files limit: soft %d -> %d (hard %s)",
        soft,
        now,
        "unlimited" if hard == resource.RLIM_INFINITY else hard,
        extra={"nofile_soft_before": soft, "nofile_soft": now, "nofile_hard": hard},
    )
    return soft, now, hard


SOCKET_SHARE = 0.75
"""The share of the open-files limit WebSockets may hold together (WS_MAX unset): the
rest is for HTTP connections, the database and Redis pools, the bot workers' pipes
and the log, so that a full house still answers HTTP and takes no fatal EMFILE."""


def default_socket_cap() -> int:
    """WS_MAX when the host did not set it: SOCKET_SHARE of the soft open-files limit as
    it is now (after ``raise_open_files_limit``); 0 (no cap) when that is unlimited."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return 0
    return max(1, int(soft * SOCKET_SHARE))


def _kernel_ceiling() -> int:
    try:
        with open("/proc/sys/fs/nr_open", encoding="ascii") as f:
            return int(f.read())
    except (OSError, ValueError):
        return 1 << 20  # Linux's default nr_open
