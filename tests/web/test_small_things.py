"""Small things a newcomer meets: the site's icon, the way back from the API reference."""

from __future__ import annotations

import re


def test_the_browser_finds_the_sites_icon(client):
    asked = client.get("/favicon.ico")
    assert asked.status_code == 301
    icon = client.get(asked.headers["Location"])
    assert icon.status_code == 200 and icon.mimetype == "image/svg+xml"
    page = client.get("/").data.decode()
    assert re.search(r'<link rel="icon" type="image/svg\+xml" href="[^"]*favicon\.svg"', page)


def test_the_api_reference_leads_back_to_the_site(client):
    page = client.get("/api/v1/docs").data.decode()
    header = page[page.index('<header class="docs">'):page.index("</header>")]
    assert '<a href="/">Capua</a>' in header and '<a href="/settings/tokens">API tokens</a>' in header
