"""A world per test with pytest. Run: PLAZA_CREDENTIALS=data/credentials.json python3 -m pytest test_example.py"""
import json
import urllib.error
import urllib.request

from plaza_world import plaza_world  # noqa: F401  (the fixture)


def call(world, method, path, token, body=None):
    request = urllib.request.Request(
        world.credentials["base_url"] + path,
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Authorization": "Bearer " + token, **({} if body is None else {"Content-Type": "application/json"})},
    )
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def test_a_post_stays_in_its_world(plaza_world):
    ada = next(u for u in plaza_world.credentials["users"] if u["username"] == "ada")
    status, made = call(plaza_world, "POST", "/2/posts", ada["oauth2_access_token"], {"text": "hello from pytest"})
    assert status == 201
    status, read = call(plaza_world, "GET", "/2/posts/" + made["data"]["id"], plaza_world.credentials["apps"][0]["bearer_token"])
    assert read["data"]["text"] == "hello from pytest"


def test_each_test_gets_a_fresh_world(plaza_world):
    status, found = call(plaza_world, "GET", "/2/posts/search/recent?query=pytest", plaza_world.credentials["apps"][0]["bearer_token"])
    assert status == 200
    assert found["meta"]["result_count"] == 0
