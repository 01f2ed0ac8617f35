"""A bot written with tweepy (Debian's python3-tweepy) for the public platform, as its user would.

Nothing in it knows about Plaza: tweepy calls https://api.twitter.com and https://upload.twitter.com
as always. test/proxy/sdk-drop-in.test.ts runs it with HTTPS_PROXY (Plaza's drop-in proxy) and
REQUESTS_CA_BUNDLE (Plaza's certificate authority) in the environment, and nothing else changed.

Credentials come in the environment; the results go out as one JSON object on stdout. Progress
goes to stderr, one line a step. Any exception ends the program with a non-zero status and the
traceback on stderr.
"""

import json
import os
import sys
import threading
import time

import tweepy

env = os.environ
out = {}
word = f"tweepybot{int(time.time() * 1000)}"


def log(message):
    print(message, file=sys.stderr, flush=True)


# The app (bearer token) reads; the user (OAuth 1.0a user context) writes.
app = tweepy.Client(bearer_token=env["BEARER_TOKEN"])
user = tweepy.Client(
    consumer_key=env["CONSUMER_KEY"],
    consumer_secret=env["CONSUMER_SECRET"],
    access_token=env["ACCESS_TOKEN"],
    access_token_secret=env["ACCESS_TOKEN_SECRET"],
)

# Post, then read the post back with its author expanded.
posted = user.create_tweet(text=f"hello from a tweepy bot {word}", user_auth=True)
post_id = posted.data["id"]
log(f"posted {post_id}")
read = app.get_tweet(post_id, expansions=["author_id"], tweet_fields=["created_at", "author_id"], user_fields=["username"])
out["posted"] = post_id
out["read"] = {
    "id": str(read.data.id),
    "edit_history_tweet_ids": [str(i) for i in read.data.edit_history_tweet_ids or []],
    "includes_users": [u.username for u in read.includes.get("users", [])],
}

# Recent search: a new post is searchable once the index has caught up (30 seconds on the public
# platform), so the bot asks again until the post is there, for a minute at most.
found = []
deadline = time.monotonic() + 60
while True:
    result = app.search_recent_tweets(word)
    found = [str(t.id) for t in result.data or []]
    if post_id in found or time.monotonic() > deadline:
        break
    time.sleep(0.25)
out["search"] = found

# A like, by another account through an app that may like (OAuth 1.0a user context).
liker = tweepy.Client(
    consumer_key=env["LIKER_CONSUMER_KEY"],
    consumer_secret=env["LIKER_CONSUMER_SECRET"],
    access_token=env["LIKER_ACCESS_TOKEN"],
    access_token_secret=env["LIKER_ACCESS_TOKEN_SECRET"],
)
out["liked"] = liker.like(post_id, user_auth=True).data["liked"]


# The filtered stream: a rule for the word, a connection, a new post with the word, which arrives.
class Listener(tweepy.StreamingClient):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.connected = threading.Event()
        self.received = threading.Event()
        self.tweets = []
        self.failure = None

    def on_connect(self):
        log("stream connected")
        self.connected.set()

    def on_tweet(self, tweet):
        self.tweets.append(str(tweet.id))
        self.received.set()
        self.disconnect()

    def fail(self, why):
        self.failure = why
        self.disconnect()
        self.connected.set()
        self.received.set()

    def on_request_error(self, status_code):
        self.fail(f"the stream answered {status_code}")

    def on_connection_error(self):
        self.fail("the stream's connection failed or timed out")

    def on_exception(self, exception):
        self.fail(f"the stream failed: {exception!r}")


stream = Listener(env["BEARER_TOKEN"], daemon=True, max_retries=0)
rules = stream.add_rules(tweepy.StreamRule(value=word, tag="tweepy bot"))
rule_ids = [r.id for r in rules.data or []]
thread = stream.filter(tweet_fields=["author_id"], threaded=True)
try:
    if not stream.connected.wait(15) or stream.failure:
        raise RuntimeError(stream.failure or "the stream did not connect within 15 s")
    streamed_post = user.create_tweet(text=f"on the stream: {word}", user_auth=True).data["id"]
    if not stream.received.wait(15) or stream.failure:
        raise RuntimeError(stream.failure or "no post on the stream within 15 s")
finally:
    stream.disconnect()
thread.join(15)
if thread.is_alive():
    raise RuntimeError("the stream did not disconnect within 15 s")
stream.delete_rules(rule_ids)
out["stream"] = {"posted": streamed_post, "received": stream.tweets}

# Media upload through v1.1 (upload.twitter.com), OAuth 1.0a.
api = tweepy.API(tweepy.OAuth1UserHandler(env["CONSUMER_KEY"], env["CONSUMER_SECRET"], env["ACCESS_TOKEN"], env["ACCESS_TOKEN_SECRET"]))
media = api.media_upload(filename=env["PHOTO"])
out["media"] = {"media_id": media.media_id_string}

json.dump(out, sys.stdout)
