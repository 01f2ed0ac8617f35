"""A reporting pipeline tested against Plaza: make a campaign, simulate an audience, read the stats.

Run with Plaza started (`npm start`): python3 -m pytest examples/ads-reporting
PLAZA_CREDENTIALS names another credentials file (a world's, for instance).
"""
import json
import os
from datetime import datetime, timedelta

import requests
from requests_oauthlib import OAuth1

CREDS = json.load(open(os.environ.get("PLAZA_CREDENTIALS", "data/credentials.json")))
APP = CREDS["apps"][0]
ADA = next(u for u in CREDS["users"] if u["username"] == "ada")
AUTH = OAuth1(APP["consumer_key"], APP["consumer_secret"], ADA["access_token"], ADA["access_token_secret"])
ADMIN = {"Authorization": f"Bearer {CREDS['admin_token']}"}
ACCOUNT = ADA["ads_account_ids"][0]


def ads(method, path, **params):
    r = requests.request(method, f"{CREDS['ads_url']}/12{path}", params=params, auth=AUTH)
    assert r.ok, r.text
    return r.json()


def account(method, path, **params):
    return ads(method, f"/accounts/{ACCOUNT}{path}", **params)["data"]


def clock(**change):
    r = requests.post(f"{CREDS['base_url']}/admin/clock", headers=ADMIN, json=change) if change else requests.get(f"{CREDS['base_url']}/admin/clock", headers=ADMIN)
    assert r.ok, r.text
    return datetime.fromisoformat(r.json()["data"]["now"].replace("Z", "+00:00"))


def wire(t):
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def test_campaign_simulated_and_reported():
    # The campaign: ada's funding instrument, a line item paying by engagement, a promoted-only post.
    starts = clock() + timedelta(minutes=1)
    fi = account("GET", "/funding_instruments")[0]["id"]
    campaign = account("POST", "/campaigns", funding_instrument_id=fi, name="Pipeline", daily_budget_amount_local_micro=50_000_000)["id"]
    line_item = account("POST", "/line_items", campaign_id=campaign, objective="ENGAGEMENTS", product_type="PROMOTED_POSTS",
                        placements="ALL_ON_PLATFORM", start_time=wire(starts), bid_strategy="MAX", bid_amount_local_micro=250_000)["id"]
    post = account("POST", "/post", as_user_id=ADA["id"], text="Our pipeline, promoted")["id_str"]
    account("POST", "/promoted_posts", line_item_id=line_item, post_ids=post)
    now = clock(advance="PT2M")  # into the line item's flight, without waiting

    # An audience reading timelines: 500 reads, 4% of them clicked.
    run = requests.post(f"{CREDS['base_url']}/admin/ads/simulate", headers=ADMIN,
                        json={"line_item_id": line_item, "timeline_reads": 500, "engagement_rate": 0.04})
    assert run.ok, run.text
    simulated = run.json()["data"]

    # The report, as the pipeline reads it: this hour and the next day, by hour and in total.
    start = now.replace(minute=0, second=0, microsecond=0)
    window = {"start_time": wire(start), "end_time": wire(start + timedelta(days=1))}
    query = dict(entity="LINE_ITEM", entity_ids=line_item, metric_groups="ENGAGEMENT,BILLING", placement="ALL_ON_PLATFORM", **window)
    total = ads("GET", f"/stats/accounts/{ACCOUNT}", granularity="TOTAL", **query)["data"][0]["id_data"][0]["metrics"]
    hourly = ads("GET", f"/stats/accounts/{ACCOUNT}", granularity="HOUR", **query)["data"][0]["id_data"][0]["metrics"]

    assert total["impressions"] == [simulated["impressions"]]
    assert total["clicks"] == [simulated["engagements"]]
    assert total["billed_charge_local_micro"] == [simulated["engagements"] * 250_000]
    assert sum(hourly["impressions"]) == simulated["impressions"]
    print(f"line item {line_item}: {simulated['impressions']} impressions, {simulated['engagements']} clicks, "
          f"{total['billed_charge_local_micro'][0] / 1e6:.2f} spent")
