"""A world of a running Plaza for each test: its own store and credentials, reset and snapshotted
at will, deleted when the test is done. Copy this file beside your tests; it needs the standard
library only (and pytest for the fixture). See the README's "Testing with worlds".

    from plaza_world import plaza_world  # in conftest.py, or import it where you use it

    def test_my_bot(plaza_world):
        token = plaza_world.credentials["apps"][0]["bearer_token"]
        ...

The running Plaza is found through its credentials file: the PLAZA_CREDENTIALS environment
variable, else ./data/credentials.json.
"""
import json
import os
import urllib.error
import urllib.request


class World:
    def __init__(self, admin, made):
        self._admin = admin
        self.id = made["id"]
        #: The credentials file's shape, with the world's own keys and tokens.
        self.credentials = made["credentials"]
        self._at = "/admin/worlds/" + self.id

    def reset(self):
        """Back to the seed state; the credentials stay the same."""
        return self._admin("POST", self._at + "/reset")

    def snapshot(self, name, file=None):
        """Records the whole state under `name`; with `file`, writes it there too."""
        return self._admin("POST", self._at + "/snapshots", {"name": name, **({"file": file} if file else {})})

    def restore(self, name):
        return self._admin("POST", self._at + "/snapshots/" + urllib.request.quote(name, safe="") + "/restore")

    def clock(self, **change):
        """Moves the world's clock: clock(advance="PT1H"), clock(set="2030-01-01T00:00:00Z", frozen=True)."""
        return self._admin("POST", self._at + "/clock", change)

    def delete(self):
        """Deletes the world: its credentials stop working at once."""
        return self._admin("DELETE", self._at)


def _plaza(credentials_file=None):
    path = credentials_file or os.environ.get("PLAZA_CREDENTIALS") or os.path.join("data", "credentials.json")
    with open(path, encoding="utf-8") as f:
        plaza = json.load(f)

    def admin(method, route, body=None):
        request = urllib.request.Request(
            plaza["base_url"] + route,
            method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Authorization": "Bearer " + plaza["admin_token"], **({} if body is None else {"Content-Type": "application/json"})},
        )
        try:
            with urllib.request.urlopen(request) as response:
                return json.loads(response.read())["data"]
        except urllib.error.HTTPError as err:
            raise RuntimeError(f"Plaza answered {method} {route} with {err.code}: {err.read().decode()}") from None

    return admin


def create_world(seed="demo", snapshot_file=None, credentials_file=None):
    """Makes a world: seed "demo" (two apps, five users, posts) or "empty" (one app, one user), or the state of a snapshot file."""
    admin = _plaza(credentials_file)
    return World(admin, admin("POST", "/admin/worlds", {"snapshot_file": snapshot_file} if snapshot_file else {"seed": seed}))


try:
    import pytest

    @pytest.fixture
    def plaza_world():
        """A world of the demo seed for one test, deleted after it."""
        world = create_world()
        yield world
        world.delete()
except ImportError:  # the helper works without pytest; only the fixture needs it
    pass
