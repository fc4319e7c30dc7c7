"""The service worker's script (static/js/sw.js, served at /sw.js by core.views) run under Node
with the browser's parts it uses stood in for (the fetch event, Cache Storage, cookieStore): a
page kept for a session is served offline only while that session is the browser's, a page
kept for no session (a player's link) always. The served script is the file itself."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.test import Client


def node() -> str | None:
    """Node.js: the system's, else the one Playwright ships to drive the browser tests."""
    import playwright
    bundled = Path(playwright.__file__).parent / "driver" / "node"
    return shutil.which("node") or (str(bundled) if bundled.exists() else None)


NODE = node()

HARNESS = r"""
const fs = require("fs");
const vm = require("vm");
const ORIGIN = "http://club.test";
Object.defineProperty(Response.prototype, "type", { get() { return "basic"; } });

function worker(withCookieStore) {
  const stores = new Map();
  class Store {
    constructor() { this.map = new Map(); }
    key(r) { return new URL(typeof r === "string" ? r : r.url, ORIGIN).href; }
    async put(r, response) { const k = this.key(r); this.map.delete(k); this.map.set(k, response); }
    async match(r) {
      const kept = this.map.get(this.key(r));
      return kept ? kept.clone() : undefined;
    }
    async keys() { return [...this.map.keys()].map((url) => new Request(url)); }
    async delete(r) { return this.map.delete(this.key(r)); }
  }
  const state = { online: true, marker: "", cookie: "" };
  const listeners = {};
  const self = {
    location: new URL(ORIGIN + "/sw.js"),
    addEventListener: (type, listener) => { listeners[type] = listener; },
    skipWaiting() {}, clients: { claim: async () => {} },
  };
  if (withCookieStore) {
    self.cookieStore = { get: async (name) => (name === "session_marker" && state.cookie
      ? { name, value: state.cookie } : null) };
  }
  const context = {
    self, URL, Request, Response, Promise, console,
    caches: {
      open: async (name) => {
        if (!stores.has(name)) stores.set(name, new Store());
        return stores.get(name);
      },
      delete: async (name) => stores.delete(name),
      match: async (r, options) => {
        const store = stores.get(options.cacheName);
        return store && store.match(r);
      },
    },
    fetch: async (request) => {
      if (!state.online) throw new TypeError("Failed to fetch");
      const url = typeof request === "string" ? request : request.url;
      return new Response("page " + new URL(url, ORIGIN).pathname + " for [" + state.marker + "]",
        { headers: { "Content-Type": "text/html", "X-Session-Marker": state.marker } });
    },
  };
  vm.runInNewContext(fs.readFileSync(process.argv[1], "utf8"), context);
  async function open(path) {
    let answer = null;
    const waits = [];
    listeners.fetch({
      request: { url: ORIGIN + path, method: "GET", mode: "navigate" },
      respondWith(promise) { answer = promise; },
      waitUntil(promise) { waits.push(promise); },
    });
    let text = null;
    try { text = await (await answer).text(); } catch (error) { text = null; }
    await Promise.all(waits);
    return text;
  }
  async function kept(path) {
    const pages = stores.get("santase-pages");
    return !!(pages && await pages.match(path));
  }
  return { state, open, kept };
}

(async () => {
  const results = {};
  for (const withCookieStore of [true, false]) {
    const name = withCookieStore ? "cookieStore" : "told";
    const w = worker(withCookieStore);
    // The organiser, logged in: the match page kept with the session's marker.
    w.state.marker = w.state.cookie = "m1";
    await w.open("/m/7/");
    w.state.online = false;
    results[name + ":logged in, offline"] = await w.open("/m/7/");
    results[name + ":start page, logged in"] = await w.open("/");
    // The session ends without the worker seeing an answer (a log-out in the admin is a post).
    w.state.cookie = "";
    if (!withCookieStore) {
      // Without cookieStore the worker learns it from the next page the server draws.
      w.state.online = true;
      w.state.marker = "";
      await w.open("/");
      w.state.online = false;
    }
    results[name + ":ended, offline"] = await w.open("/m/7/");
    results[name + ":ended, start page"] = await w.open("/");
    results[name + ":ended, still kept"] = await w.kept("/m/7/");
    // A player's link, drawn for no session: shown offline whoever is logged in.
    w.state.online = true;
    w.state.marker = "";
    await w.open("/p/abcdefghijklmnopqrstuvwxyz/");
    w.state.online = false;
    w.state.cookie = "m2";
    results[name + ":players' page"] = await w.open("/p/abcdefghijklmnopqrstuvwxyz/");
    // Another organiser logs in online: the first one's page, were it kept, goes.
    const other = worker(withCookieStore);
    other.state.marker = other.state.cookie = "m1";
    await other.open("/m/7/");
    other.state.marker = other.state.cookie = "m2";
    await other.open("/events/");
    results[name + ":another session, still kept"] = await other.kept("/m/7/");
  }
  console.log(JSON.stringify(results));
})().catch((error) => { console.error(error); process.exit(1); });
"""


def run_worker() -> dict:
    script = finders.find("js/sw.js")
    result = subprocess.run([NODE, "-e", HARNESS, script], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(NODE is None, reason="needs Node.js to run the worker's script")
@pytest.mark.parametrize("how", ["cookieStore", "told"])
def test_a_kept_page_opens_offline_only_for_its_own_session(how):
    results = {key.split(":", 1)[1]: value for key, value in run_worker().items()
               if key.startswith(how + ":")}
    assert results == {
        "logged in, offline": "page /m/7/ for [m1]",
        "start page, logged in": "page /m/7/ for [m1]",  # the last match page
        "ended, offline": None,  # the browser's own "no network" page instead
        "ended, start page": None,
        "ended, still kept": False,
        "players' page": "page /p/abcdefghijklmnopqrstuvwxyz/ for []",
        "another session, still kept": False,
    }


@pytest.mark.django_db
def test_the_worker_served_is_the_file():
    answer = Client().get("/sw.js")
    with open(finders.find("js/sw.js"), "rb") as source:
        assert answer.content == source.read()
    assert answer["Service-Worker-Allowed"] == "/"
