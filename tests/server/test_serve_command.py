"""`korapsyon serve`: the address it gives out in join links and QR codes."""

from __future__ import annotations

import ipaddress

from korapsyon.cli.serve import reachable_address


def test_a_server_on_every_interface_gives_out_an_address_phones_can_reach() -> None:
    address = ipaddress.ip_address(reachable_address("0.0.0.0"))
    assert not address.is_unspecified  # 0.0.0.0 in a QR code reaches nobody
    assert address.version == 4


def test_a_named_host_is_given_out_as_it_is() -> None:
    assert reachable_address("127.0.0.1") == "127.0.0.1"
    assert reachable_address("korapsyon.example") == "korapsyon.example"
