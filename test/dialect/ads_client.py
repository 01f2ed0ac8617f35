"""The advertising interface as the twitter-ads Python SDK calls it, in plain signed requests.

The SDK (twitter-ads on the Python package index) cannot be installed here, so this program sends
exactly what its twitter_ads.http.Request sends: an OAuth1Session signing the URL of
`Request._DEFAULT_DOMAIN + resource` (the SDK's one line of pointing: set _DEFAULT_DOMAIN to
Plaza's ads URL), the SDK's user agent, parameters in the query string for every method, and
its {data, request, next_cursor} envelope read back. Driven by test/dialect/ads-sdk.test.ts.
"""

import json
import os
import platform
import sys

from requests_oauthlib import OAuth1Session


class Request:
    """twitter_ads.http.Request's request, as the SDK makes it (version 12 of the interface)."""

    _DEFAULT_DOMAIN = "https://ads-api.twitter.com"

    def __init__(self, client, method, resource, **kwargs):
        self.client, self.method, self.resource, self.options = client, method.lower(), resource, kwargs

    def perform(self):
        headers = {"user-agent": "twitter-ads version: 12.0.0 platform: Python {0}.{1} ({2}/{3})".format(sys.version_info.major, sys.version_info.minor, platform.python_implementation(), sys.platform)}
        consumer = OAuth1Session(self.client["consumer_key"], client_secret=self.client["consumer_secret"], resource_owner_key=self.client["access_token"], resource_owner_secret=self.client["access_token_secret"])
        response = getattr(consumer, self.method)(self._DEFAULT_DOMAIN + self.resource, headers=headers, data=self.options.get("body"), params=self.options.get("params"))
        if response.status_code > 399:
            raise RuntimeError(f"{response.status_code} {response.text}")
        return response.json()


# The one line that points the SDK at Plaza.
Request._DEFAULT_DOMAIN = os.environ["ADS_URL"]

client = {k: os.environ[k.upper()] for k in ("consumer_key", "consumer_secret", "access_token", "access_token_secret")}
account_id = os.environ["ACCOUNT_ID"]
out = {}

# client.accounts(id): GET /12/accounts/:id
account = Request(client, "get", f"/12/accounts/{account_id}").perform()
out["account"] = account["data"]["id"]

# account.funding_instruments(): GET, then Campaign().save(): POST with the attributes as query parameters.
instruments = Request(client, "get", f"/12/accounts/{account_id}/funding_instruments").perform()
instrument = instruments["data"][0]["id"]
campaign = Request(client, "post", f"/12/accounts/{account_id}/campaigns", params={"funding_instrument_id": instrument, "name": "SDK campaign", "daily_budget_amount_local_micro": 5000000, "entity_status": "PAUSED"}).perform()
out["campaign"] = {"id": campaign["data"]["id"], "name": campaign["data"]["name"], "request_params": sorted(campaign["request"]["params"].keys())}

# LineItem().save(): POST /12/accounts/:id/line_items
line_item = Request(client, "post", f"/12/accounts/{account_id}/line_items", params={"campaign_id": campaign["data"]["id"], "objective": "ENGAGEMENTS", "product_type": "PROMOTED_TWEETS", "placements": "ALL_ON_TWITTER", "bid_amount_local_micro": 1500000, "entity_status": "PAUSED", "start_time": "2030-01-01T00:00:00Z"}).perform()
out["line_item"] = {"id": line_item["data"]["id"], "campaign_id": line_item["data"]["campaign_id"]}

# account.line_items(campaign_ids=...): GET with a cursor envelope.
listed = Request(client, "get", f"/12/accounts/{account_id}/line_items", params={"campaign_ids": campaign["data"]["id"], "count": 10}).perform()
out["listed"] = [item["id"] for item in listed["data"]]
out["has_next_cursor_member"] = "next_cursor" in listed

# Campaign.delete(): DELETE /12/accounts/:id/campaigns/:campaign_id
deleted = Request(client, "delete", f"/12/accounts/{account_id}/campaigns/{campaign['data']['id']}").perform()
out["deleted"] = deleted["data"]["deleted"]

json.dump(out, sys.stdout)
