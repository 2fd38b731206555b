"""The time zones a player or a game may choose: IANA zones with a region,
and UTC (from :mod:`zoneinfo`). The pages list them in their select boxes;
the account, first sign-in and game actions accept only these."""
from __future__ import annotations

from zoneinfo import ZoneInfo, available_timezones

#: every IANA zone name with a region ("Europe/Helsinki"), sorted, plus UTC
ZONES: list[str] = ["UTC"] + sorted(z for z in available_timezones()
                                    if "/" in z and not z.startswith(("Etc/", "SystemV/", "posix/", "right/")))


def zone_or_none(name: object) -> str | None:
    """``name`` when it is a zone of :data:`ZONES`, else ``None``."""
    if not isinstance(name, str) or name not in ZONES:
        return None
    ZoneInfo(name)
    return name
