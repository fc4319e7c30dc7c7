"""The club network helpers (server/network.py): which address the phones open, the server's
environment, the kept secret key. Pure: no database."""

from server import network


def test_the_routed_address_wins():
    assert network.pick_lan_address(
        "192.168.1.20", ["10.0.0.5", "192.168.1.20"]) == "192.168.1.20"


def test_without_a_route_the_first_private_address_of_the_interfaces():
    # loopback and link-local are skipped; a public address comes after a private one
    addresses = ["127.0.1.1", "169.254.3.4", "81.161.0.9", "172.20.0.7", "192.168.0.2"]
    assert network.pick_lan_address(None, addresses) == "172.20.0.7"


def test_a_loopback_route_falls_back_to_the_interfaces():
    assert network.pick_lan_address("127.0.0.1", ["::1", "10.1.2.3"]) == "10.1.2.3"


def test_only_public_addresses_give_the_first_of_them():
    assert network.pick_lan_address(None, ["127.0.0.1", "81.161.0.9"]) == "81.161.0.9"


def test_no_network_at_all_gives_loopback():
    assert network.pick_lan_address(None, []) == "127.0.0.1"
    assert network.pick_lan_address(None, ["127.0.0.1", "not an address"]) == "127.0.0.1"


def test_the_routed_address_is_a_local_ipv4_or_none():
    # The UDP connect sends nothing; on a machine without a route it is None.
    address = network.routed_address()
    assert address is None or address.count(".") == 3


def test_the_environment_turns_debug_and_https_off_and_allows_the_address():
    env = network.club_environment(
        {"PATH": "/usr/bin", "ALLOWED_HOSTS": "club.local", "DEBUG": "true"},
        address="192.168.1.20", port=8080, secret_key="k" * 50,
    )
    assert env["PATH"] == "/usr/bin"
    assert env["DEBUG"] == "false"
    assert env["HTTPS"] == "false"
    assert env["SECRET_KEY"] == "k" * 50
    assert env["SITE_URL"] == "http://192.168.1.20:8080"
    assert env["ALLOWED_HOSTS"].split(",") == [
        "club.local", "192.168.1.20", "127.0.0.1", "localhost", "[::1]"]


def test_the_secret_key_is_made_once_and_kept(tmp_path):
    path = tmp_path / "var" / "secret_key"
    first = network.kept_secret_key(path)
    assert len(first) >= 50
    assert path.stat().st_mode & 0o777 == 0o600
    assert network.kept_secret_key(path) == first
