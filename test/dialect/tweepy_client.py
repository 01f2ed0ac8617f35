"""tweepy (Debian's python3-tweepy), unchanged, pointed at Plaza by its session only.

Driven by test/dialect/tweepy.test.ts: credentials come in the environment, every result goes
out as one JSON object on stdout. Any exception ends the program with a non-zero status and the
traceback on stderr, which the test shows.
"""

import io
import json
import os
import re
import sys
import time

import requests
import tweepy

PLAZA = os.environ.get("PLAZA_URL", "http://127.0.0.1:8080")


# A session that moves the public hosts to Plaza's base URL (the drop-in proxy needs none: test/proxy/programs/tweepy_bot.py).
class PlazaSession(requests.Session):
    """Sends what tweepy addresses to api.twitter.com or upload.twitter.com to Plaza, before signing."""

    def request(self, method, url, *args, **kwargs):
        url = re.sub(r"^https://(api|upload)\.(twitter|x)\.com", PLAZA, url)
        return super().request(method, url, *args, **kwargs)


def client(**kwargs):
    c = tweepy.Client(**kwargs)
    c.session = PlazaSession()
    return c


env = os.environ
out = {}

# App-only (bearer token): a lookup with tweet.fields and expansions.
app = client(bearer_token=env["BEARER_TOKEN"])
looked = app.get_tweet(env["QUOTE_ID"], tweet_fields=["referenced_tweets", "edit_history_tweet_ids", "created_at"], expansions=["referenced_tweets.id", "author_id"])
out["lookup"] = {
    "id": str(looked.data.id),
    "referenced_tweets": [{"type": r.type, "id": str(r.id)} for r in looked.data.referenced_tweets or []],
    "edit_history_tweet_ids": [str(i) for i in looked.data.edit_history_tweet_ids],
    "includes_tweets": [str(t.id) for t in looked.includes.get("tweets", [])],
    "includes_users": [u.username for u in looked.includes.get("users", [])],
}

# OAuth 1.0a user context: me, post, reply to a summoning post, delete.
ada = client(consumer_key=env["CONSUMER_KEY"], consumer_secret=env["CONSUMER_SECRET"], access_token=env["ADA_TOKEN"], access_token_secret=env["ADA_SECRET"])
dana_ent = client(consumer_key=env["ENT_CONSUMER_KEY"], consumer_secret=env["ENT_CONSUMER_SECRET"], access_token=env["DANA_ENT_TOKEN"], access_token_secret=env["DANA_ENT_SECRET"])
me = ada.get_me(user_auth=True)
posted = ada.create_tweet(text=f"hello from tweepy {time.time()}", user_auth=True)
summons = dana_ent.create_tweet(text=f"@ada a question for you {time.time()}", user_auth=True)
replied = ada.create_tweet(text="an answer from tweepy", in_reply_to_tweet_id=summons.data["id"], user_auth=True)
reply_read = app.get_tweet(replied.data["id"], tweet_fields=["referenced_tweets"])
deleted = ada.delete_tweet(posted.data["id"], user_auth=True)
out["oauth1"] = {
    "me": me.data.username,
    "posted": posted.data["id"],
    "reply_to": [str(r.id) for r in reply_read.data.referenced_tweets or []],
    "summons": summons.data["id"],
    "deleted": deleted.data["deleted"],
}

# OAuth 2.0 user context: me, post, timelines with the paginator.
chen2 = client(bearer_token=env["CHEN_OAUTH2"])
chen_me = chen2.get_me(user_auth=False)
for i in range(6):
    chen2.create_tweet(text=f"tweepy timeline {i} {time.time()}", user_auth=False)
pages = list(tweepy.Paginator(chen2.get_users_tweets, chen_me.data.id, max_results=5, user_auth=False))
home = chen2.get_home_timeline(max_results=5, user_auth=False)
out["oauth2"] = {
    "me": chen_me.data.username,
    "timeline_pages": len(pages),
    "timeline_ids": [str(t.id) for page in pages for t in (page.data or [])],
    "home_count": len(home.data or []),
}

# Search (the post was made over 30 seconds of Plaza's clock before: the test moves the clock).
found = app.search_recent_tweets(env["SEARCH_WORD"], tweet_fields=["author_id"])
out["search"] = [str(t.id) for t in found.data or []]

# Likes and follows on the enterprise app (OAuth 1.0a, user id from the token's prefix).
chen_ent = client(consumer_key=env["ENT_CONSUMER_KEY"], consumer_secret=env["ENT_CONSUMER_SECRET"], access_token=env["CHEN_ENT_TOKEN"], access_token_secret=env["CHEN_ENT_SECRET"])
liked = chen_ent.like(env["QUOTE_ID"], user_auth=True)
liking = chen_ent.get_liking_users(env["QUOTE_ID"], user_auth=True)  # user context only, as in the reference
unliked = chen_ent.unlike(env["QUOTE_ID"], user_auth=True)
followed = chen_ent.follow_user(env["ADA_ID"], user_auth=True)
retweeted = chen_ent.retweet(env["QUOTE_ID"], user_auth=True)
out["enterprise"] = {
    "liked": liked.data["liked"],
    "liking": [str(u.id) for u in liking.data or []],
    "unliked": unliked.data["liked"],
    "following": followed.data["following"],
    "retweeted": retweeted.data["retweeted"],
}

# Media upload through v1.1 (tweepy.API, upload host moved by the same session), then a post with it.
auth = tweepy.OAuth1UserHandler(env["CONSUMER_KEY"], env["CONSUMER_SECRET"], env["ADA_TOKEN"], env["ADA_SECRET"])
api = tweepy.API(auth)
api.session = PlazaSession()
with open(env["PNG_PATH"], "rb") as f:
    media = api.media_upload(filename="photo.png", file=io.BytesIO(f.read()))
with_media = ada.create_tweet(text="a photo from tweepy", media_ids=[media.media_id_string], user_auth=True)
media_read = app.get_tweet(with_media.data["id"], expansions=["attachments.media_keys"], media_fields=["type", "width"])
out["media"] = {
    "media_id_string": media.media_id_string,
    "types": [m.type for m in media_read.includes.get("media", [])],
}

# Direct messages.
dm = ada.create_direct_message(participant_id=env["DANA_ID"], text="a DM from tweepy", user_auth=True)
out["dm"] = {"dm_event_id": dm.data["dm_event_id"]}

# Tweet names on every path (issue 34): the test sets the apps' dialect to tweet, as the README
# tells SDK users. A user lookup reads tweet_count, a lookup without fields has
# edit_history_tweet_ids, an expansion brings its field, and v1.1 verify_credentials answers.
dana_user = app.get_user(id=env["DANA_ID"], user_fields=["public_metrics"])
plain = app.get_tweet(env["QUOTE_ID"])
with_author = app.get_tweet(env["QUOTE_ID"], expansions=["author_id"])
verified = api.verify_credentials()
placed = ada.create_tweet(text=f"from San Francisco {time.time()}", place_id="5a110d312052166f", user_auth=True)
placed_read = app.get_tweet(placed.data["id"], expansions=["geo.place_id"], place_fields=["country_code"])
out["dialect"] = {
    "place": [[p.id, p.full_name, p.country_code] for p in placed_read.includes.get("places", [])],
    "tweet_count": dana_user.data.public_metrics.get("tweet_count"),
    "default_edit_history": [str(i) for i in plain.data.edit_history_tweet_ids],
    "author_id": str(with_author.data.author_id),
    "includes_author": [u.username for u in with_author.includes.get("users", [])],
    "verify_credentials": {"screen_name": verified.screen_name, "id_str": verified.id_str, "year": verified.created_at.year},
}

json.dump(out, sys.stdout)
