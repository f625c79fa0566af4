"""Which addresses webhooks may reach: checked at registration and after DNS at send time."""

from __future__ import annotations

import pytest

from service.plumbing import netguard


@pytest.mark.parametrize("url", [
    "http://127.0.0.1/hook", "http://127.8.9.10:8080/", "http://[::1]/", "http://[::ffff:127.0.0.1]/",
    "http://10.1.2.3/", "http://172.16.0.1/", "http://192.168.1.1/", "http://169.254.169.254/latest/meta-data",
    "http://[fe80::1]/", "http://100.64.0.1/", "http://[fd00::1]/", "http://0.0.0.0/", "http://localhost/",
    "http://printer.local/", "http://db.internal/", "http://[2002:7f00:1::]/",
])
def test_internal_addresses_are_refused_at_registration(url):
    with pytest.raises(netguard.AddressRefused) as refused:
        netguard.check_url(url, allow_private=False)
    assert refused.value.code == "forbidden_address"
    # a page says why in its reader's language: the reason and what it names come along
    assert refused.value.reason in ("not_public", "cannot_receive", "internal_name")
    assert set(refused.value.details()) - {"reason"} in ({"address"}, {"host"})


@pytest.mark.parametrize("url", [
    "ftp://example.com/", "https://user:pw@example.com/", "https:///nohost", "https://example.com:0/",
    "https://exa mple.com/", "javascript:alert(1)", "", "https://example.com/#frag",
])
def test_malformed_urls_are_refused(url):
    with pytest.raises(netguard.AddressRefused) as refused:
        netguard.check_url(url, allow_private=False)
    assert refused.value.code == "invalid_url"
    assert refused.value.reason in ("scheme", "credentials", "no_host", "port_zero", "spaces", "too_long", "fragment")


def test_a_name_resolving_to_a_private_address_says_both(monkeypatch):
    monkeypatch.setattr(netguard, "resolver", lambda host, port: ["10.0.0.7"])
    with pytest.raises(netguard.AddressRefused) as refused:
        netguard.resolve_checked("https://hooks.example.com/x", allow_private=False)
    assert refused.value.details() == {"reason": "resolves_not_public", "address": "10.0.0.7",
                                       "host": "hooks.example.com"}


def test_public_addresses_and_names_pass():
    netguard.check_url("https://hooks.example.com/capua?x=1", allow_private=False)
    netguard.check_url("https://93.184.216.34:8443/", allow_private=False)


def test_the_operator_may_allow_private_addresses_but_never_unspecified_or_multicast():
    netguard.check_url("http://127.0.0.1:9/", allow_private=True)
    netguard.check_url("http://localhost/", allow_private=True)
    for url in ("http://0.0.0.0/", "http://224.0.0.1/"):
        with pytest.raises(netguard.AddressRefused):
            netguard.check_url(url, allow_private=True)


def test_every_resolved_address_is_checked_and_the_first_one_is_dialled(monkeypatch):
    monkeypatch.setattr(netguard, "resolver", lambda host, port: ["93.184.216.34", "10.0.0.7"])
    with pytest.raises(netguard.AddressRefused, match="10.0.0.7"):
        netguard.resolve_checked("https://hooks.example.com/x", allow_private=False)
    monkeypatch.setattr(netguard, "resolver", lambda host, port: ["93.184.216.34"])
    target = netguard.resolve_checked("https://hooks.example.com/x?y=1", allow_private=False)
    assert (target.address, target.host, target.port, target.path) == ("93.184.216.34", "hooks.example.com", 443,
                                                                        "/x?y=1")


def test_a_number_that_resolves_to_loopback_is_refused_at_send_time():
    # "2130706433" is not an address literal, but the system resolver reads it as 127.0.0.1.
    netguard.check_url("http://2130706433/", allow_private=False)
    with pytest.raises(netguard.AddressRefused, match="loopback"):
        netguard.resolve_checked("http://2130706433/", allow_private=False)
