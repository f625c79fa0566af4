"""The settings pages for webhooks and standing orders: forms that call the same service
functions as the API, shown to their owner only."""

from __future__ import annotations

import html
import json
import re

import pytest

from service.plumbing import mail
from tests.web.support import csrf_from


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def signed_in(app, client, sessions, app_config):
    from tests.web.support import sign_in_with

    def sign_in(address: str) -> None:
        mail.deliver_pending(sessions, app_config)
        sign_in_with(app, client, address)

    return sign_in


def test_webhooks_page(client, signed_in, receiver):
    assert client.get("/settings/webhooks").status_code == 303  # sign in first
    signed_in("ann@example.org")
    page = client.get("/settings/webhooks")
    assert page.status_code == 200 and "No webhooks yet" in page.get_data(as_text=True)
    refused = client.post("/settings/webhooks", data={"url": "ftp://example.com/", "csrf_token": csrf_from(page.data)})
    assert refused.status_code == 422 and "https://" in refused.get_data(as_text=True)
    created = client.post("/settings/webhooks", data={"url": receiver.url(), "event_types": ["talk.message"],
                                                      "description": "my bot", "csrf_token": csrf_from(page.data)})
    assert created.status_code == 303
    detail_url = created.headers["Location"]
    detail = client.get(detail_url).get_data(as_text=True)
    assert "my bot" in detail and "whsec_" in detail and "talk.message" in detail
    endpoint_id = int(re.search(r"/settings/webhooks/(\d+)", detail_url).group(1))
    for action in ("test", "rotate", "disable"):
        done = client.post(f"/settings/webhooks/{endpoint_id}/{action}", data={"csrf_token": csrf_from(page.data)})
        assert done.status_code == 303, (action, done.data)
    detail = client.get(detail_url).get_data(as_text=True)
    assert "You turned it off." in detail and "webhook.test" in detail
    assert client.post(f"/settings/webhooks/{endpoint_id}/explode",
                       data={"csrf_token": csrf_from(page.data)}).status_code == 422
    gone = client.post(f"/settings/webhooks/{endpoint_id}/delete", data={"csrf_token": csrf_from(page.data)})
    assert gone.status_code == 303 and client.get(detail_url).status_code == 404


def test_standing_orders_page_shows_problems_and_keeps_orders_private(client, signed_in, make_client):
    signed_in("ann@example.org")
    page = client.get("/settings/standing-orders")
    assert page.status_code == 200 and "Never support schemes" in page.get_data(as_text=True)
    token = csrf_from(page.data)
    bad = client.post("/settings/standing-orders", data={"name": "x", "rule": json.dumps({"match": {"mode": "free"}}),
                                                         "csrf_token": token})
    text = bad.get_data(as_text=True)
    assert bad.status_code == 422 and "match.mode" in text and "answer" in text
    unreadable = client.post("/settings/standing-orders", data={"rule": "{nope", "csrf_token": token})
    assert unreadable.status_code == 422 and "not readable JSON" in unreadable.get_data(as_text=True)
    rule = {"match": {"prompt_key": "bid"}, "answer": {"type": "place_bid", "args": {"amount": 0}}}
    saved = client.post("/settings/standing-orders", data={"name": "Bid nothing", "rule": json.dumps(rule),
                                                           "game_type": "spartacus", "csrf_token": token})
    assert saved.status_code == 303
    listed = client.get("/settings/standing-orders").get_data(as_text=True)
    assert "Bid nothing" in listed and "place_bid" in listed
    order_id = int(re.search(r"/settings/standing-orders/(\d+)/pause", listed).group(1))
    assert client.post(f"/settings/standing-orders/{order_id}/pause", data={"csrf_token": token}).status_code == 303
    assert "paused" in client.get("/settings/standing-orders").get_data(as_text=True)
    bob = make_client("bob")
    assert bob.get("standing-orders").get_json()["standing_orders"] == []
    assert bob.get(f"standing-orders/{order_id}").status_code == 404
    assert client.post(f"/settings/standing-orders/{order_id}/delete", data={"csrf_token": token}).status_code == 303
    assert "Bid nothing" not in client.get("/settings/standing-orders").get_data(as_text=True)


def test_the_recommended_order_is_one_click_and_an_order_reading_the_hand_says_so(client, signed_in, make_client):
    signed_in("ann@example.org")
    page = client.get("/settings/standing-orders")
    text = page.get_data(as_text=True)
    assert "Pass on windows that are not about me" in text
    form = re.search(r'<form class="inline" method="post" action="/settings/standing-orders">(.*?)</form>', text, re.S)
    fields = {k: html.unescape(v) for k, v in re.findall(r'name="([a-z_]+)" value="([^"]*)"', form.group(1))}
    assert fields["game_type"] == "spartacus"
    one_click = client.post("/settings/standing-orders", data=fields)
    assert one_click.status_code == 303
    (order,) = make_client("ann").get("standing-orders").get_json()["standing_orders"]
    assert order["name"] == "Pass on windows that are not about me" and order["game_type"] == "spartacus"
    assert order["unless"] == [{"path": "prompt_args.target", "eq": "$me"}] and order["reads_hand"] is False
    assert "This order reads your hand" not in client.get("/settings/standing-orders").get_data(as_text=True)

    guard = {"match": {"mode": "interrupt"}, "answer": [{"type": "use_guard"}, {"type": "pass_reaction"}],
             "reads_hand": True}
    client.post("/settings/standing-orders", data={"name": "Guard", "rule": json.dumps(guard),
                                                    "csrf_token": fields["csrf_token"]})
    assert "This order reads your hand: how fast it answers may hint at what you hold." in \
        client.get("/settings/standing-orders").get_data(as_text=True)


def test_defend_me_is_one_click_and_the_page_says_its_timing_tells_nothing(client, signed_in, make_client):
    """The second recommended order reads the hand only to choose what to play: the page says
    so, and does not warn that its speed may hint at the hand (it answers every scheme at once)."""
    signed_in("ann@example.org")
    text = client.get("/settings/standing-orders").get_data(as_text=True)
    item = re.search(r'<li id="recommended-defend_me">(.*?)</li>', text, re.S).group(1)
    assert "Defend me when a scheme names me" in item and "answers just as fast with nothing in it" in item
    fields = {k: html.unescape(v) for k, v in re.findall(r'name="([a-z_]+)" value="([^"]*)"', item)}
    assert client.post("/settings/standing-orders", data=fields).status_code == 303
    (order,) = make_client("ann").get("standing-orders").get_json()["standing_orders"]
    assert order["name"] == "Defend me when a scheme names me" and order["reads_hand"] is True
    page = client.get("/settings/standing-orders").get_data(as_text=True)
    assert "how fast it answers may hint" not in page.split('id="recommended-orders"')[0]
    assert "so when it answers tells nobody anything" in page
