import os
import re

import requests
import tweepy

PLAZA = os.environ.get("PLAZA_URL", "http://127.0.0.1:8080")


class PlazaSession(requests.Session):
    """Sends what tweepy addresses to api.twitter.com and upload.twitter.com to Plaza, before it is signed."""

    def request(self, method, url, *args, **kwargs):
        return super().request(method, re.sub(r"^https://(api|upload)\.(twitter|x)\.com", PLAZA, url), *args, **kwargs)


client = tweepy.Client(bearer_token=os.environ["BEARER_TOKEN"])
client.session = PlazaSession()  # and for v1.1 (media upload): api = tweepy.API(auth); api.session = PlazaSession()

tweet = client.get_tweet(os.environ["TWEET_ID"], tweet_fields=["created_at"]).data
print(tweet.id, tweet.created_at)
