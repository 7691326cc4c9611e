"""The sender allow-list: CIDRs, matched against the peer address of the connection."""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

__all__ = ["AllowList"]

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class AllowList:
    """Empty: every sender is allowed (the path token still applies)."""

    def __init__(self, cidrs: Iterable[str] = ()) -> None:
        self.networks: tuple[Network, ...] = tuple(
            ipaddress.ip_network(c.strip(), strict=False) for c in cidrs if c.strip()
        )

    def __bool__(self) -> bool:
        return bool(self.networks)

    def allows(self, host: str | None) -> bool:
        if not self.networks:
            return True
        if not host:
            return False
        try:
            address = ipaddress.ip_address(host.split("%", 1)[0])
        except ValueError:
            return False
        candidates: list[ipaddress.IPv4Address | ipaddress.IPv6Address] = [address]
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
            candidates.append(address.ipv4_mapped)  # ::ffff:10.0.0.1 on a dual-stack socket
        return any(a in n for a in candidates for n in self.networks if a.version == n.version)
