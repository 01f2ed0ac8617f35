from twitter_ads.client import Client
from twitter_ads.http import Request

Request._DEFAULT_DOMAIN = "http://127.0.0.1:8081"  # Plaza's ads listener (ads_url)
Request._SANDBOX_DOMAIN = "http://127.0.0.1:8082"  # and its sandbox (ads_sandbox_url), for Client(..., options={"sandbox": True})

client = Client(CONSUMER_KEY, CONSUMER_SECRET, ACCESS_TOKEN, ACCESS_TOKEN_SECRET)
