// Offline entry on a match page (the organiser's /m/<id>/ and the players' /p/<token>/;
// docs/architecture.md "Offline entry"). While the phone is offline, a deal entered with the quick form is
// kept in IndexedDB instead of posted, shown in the deal list as "waiting to send" with the
// running score worked out here, and sent in order when the network is back, each under its
// deal number (tableside/offline_sync.py answers in JSON): the server's deal-number guard
// stores a resend once. A deal entered otherwise on another phone meanwhile (a conflict) or
// refused stops the queue and shows both versions: the player chooses, nothing is dropped
// silently.
//
// One place for each rule: the points come from the page, never from a copy of the rules here.
// Each reason button carries the game points the server allows for it (data-points, from
// scoring/rules.py game_points_by_reason), the section #offline-entry the game target
// (data-target, the match's house rules); the score and the next deal number are read from
// what the server drew. Card points (the details form) need the server to score them: offline,
// only the quick form is offered.
(function () {
  var root = document.getElementById("offline-entry");
  if (!root || !window.indexedDB) return;
  var page = root.dataset.sync;  // one queue per match page (its sync address)
  var target = Number(root.dataset.target);
  var limit = Number(root.dataset.limit) || 0;
  var text = function (name, n) {
    return (root.dataset["text" + name] || "").replace("{n}", n);
  };

  // ---- IndexedDB: one store of queued deals, found by their page ----
  var DB = "santase-offline";
  var STORE = "deals";
  var opened = null;
  function database() {
    if (!opened) {
      opened = new Promise(function (resolve, reject) {
        var request = indexedDB.open(DB, 1);
        request.onupgradeneeded = function () {
          var store = request.result.createObjectStore(STORE, { keyPath: "id", autoIncrement: true });
          store.createIndex("page", "page");
        };
        request.onsuccess = function () { resolve(request.result); };
        request.onerror = function () { reject(request.error); };
      });
    }
    return opened;
  }
  function transaction(mode, work) {
    return database().then(function (db) {
      return new Promise(function (resolve, reject) {
        var tx = db.transaction(STORE, mode);
        var request = work(tx.objectStore(STORE));
        tx.oncomplete = function () { resolve(request && request.result); };
        tx.onerror = function () { reject(tx.error); };
      });
    });
  }
  function load() {
    return transaction("readonly", function (store) {
      return store.index("page").getAll(page);
    }).then(function (found) {
      items = (found || []).sort(function (a, b) { return a.number - b.number; });
    });
  }
  function save(item) { return transaction("readwrite", function (store) { return store.put(item); }); }
  function remove(item) { return transaction("readwrite", function (store) { return store.delete(item.id); }); }

  var items = [];      // the queued deals of this page, by deal number
  var sending = false;
  var notice = "";     // why the last attempt sent nothing (e.g. log in again), while online
  var sentKey = "offline-sent:" + page;

  // ---- What the server drew ----
  function form() { return document.querySelector("form[data-offline-entry]"); }
  function served(element) {  // the value the server wrote, before this script changed it
    if (!("served" in element.dataset)) element.dataset.served = element.tagName === "INPUT" ? element.value : element.textContent.trim();
    return element.dataset.served;
  }
  function pointsElements() { return document.querySelectorAll(".scoreboard .side .points"); }
  function serverScore() {
    var points = pointsElements();
    return points.length === 2 ? [Number(served(points[0])), Number(served(points[1]))] : [0, 0];
  }
  function serverNext() {
    var quick = form();
    var number = quick && quick.querySelector("input[name=number]");
    if (number) return Number(served(number));
    var rows = document.querySelectorAll("#deal-rows tr:not(.offline-waiting)");
    return rows.length + 1;
  }
  function csrfToken() {
    var field = document.querySelector("input[name=csrfmiddlewaretoken]");
    if (field) return field.value;
    try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"]; } catch (e) { return ""; }
  }

  // ---- A deal read from the quick form: null when it is not complete ----
  function readDeal(quick, submitter, number) {
    if (submitter && submitter.name === "draw") {
      return { page: page, number: number, draw: true, winner: "", reason: "draw", points: 0,
               chosen: "", winnerName: text("Draw"), reasonLabel: "" };
    }
    var winner = quick.querySelector("input[name=winner]:checked");
    var reason = quick.querySelector("input[name=reason]:checked");
    if (!winner || !reason) return null;
    var allowed = (reason.dataset.points || "").match(/\d+/g) || [];
    var points = Number(allowed[0]);
    var chosen = "";
    if (allowed.length > 1) {
      var picked = quick.querySelector("input[name=game_points]:checked");
      if (!picked || allowed.indexOf(picked.value) < 0) return null;
      points = Number(picked.value);
      chosen = picked.value;
    }
    var label = reason.closest("label").querySelector(".reason-label");
    return { page: page, number: number, draw: false, winner: winner.value, reason: reason.value,
             points: points, chosen: chosen,
             winnerName: winner.closest("label").textContent.trim(),
             reasonLabel: label ? label.textContent.trim() : "" };
  }

  // ---- Drawing: the waiting rows, the score, the form, the banner ----
  function shown() {
    var next = serverNext();
    return items.filter(function (item) { return item.number >= next; });
  }
  function localScore() {
    var score = serverScore();
    shown().forEach(function (item) {
      if (item.winner === "A") score[0] += item.points;
      if (item.winner === "B") score[1] += item.points;
    });
    return score;
  }
  function dealRows() {
    var body = document.getElementById("deal-rows");
    if (body) return body;
    var empty = document.querySelector(".deals p.empty");
    var skeleton = document.getElementById("offline-table");
    if (!empty || !skeleton) return null;
    empty.parentNode.insertBefore(skeleton.content.cloneNode(true), empty);
    empty.hidden = true;
    return document.getElementById("deal-rows");
  }
  function cell(row, value, className) {
    var td = document.createElement("td");
    if (className) td.className = className;
    td.textContent = value;
    row.appendChild(td);
    return td;
  }
  function drawRows() {
    Array.prototype.forEach.call(document.querySelectorAll("tr.offline-waiting"), function (row) { row.remove(); });
    var waiting = shown();
    if (!waiting.length) return;
    var body = dealRows();
    if (!body) return;
    var score = serverScore();
    waiting.forEach(function (item) {
      if (item.winner === "A") score[0] += item.points;
      if (item.winner === "B") score[1] += item.points;
      var row = document.createElement("tr");
      row.className = "offline-waiting";
      cell(row, item.number, "num");
      var what = cell(row, "", "");
      var name = document.createElement("span");
      name.className = "winner";
      name.textContent = item.winnerName;
      var note = document.createElement("small");
      note.className = "meta";
      note.textContent = (item.reasonLabel ? item.reasonLabel + " · " : "") + text("Row");
      what.appendChild(name);
      what.appendChild(note);
      cell(row, item.points, "num");
      cell(row, score[0] + ":" + score[1], "num running");
      body.appendChild(row);
    });
  }
  function setHidden(selector, hide) {
    Array.prototype.forEach.call(document.querySelectorAll(selector), function (element) {
      if (hide) element.setAttribute("data-offline-hidden", "");
      else element.removeAttribute("data-offline-hidden");
    });
  }
  function problemItem() {
    return items.filter(function (item) { return item.problem; })[0] || null;
  }
  function versionText(version) {
    var who = version.winner_name || text("Draw");
    var reason = version.reason_label ? " · " + version.reason_label : "";
    var pending = version.pending ? " (" + text("Pending") + ")" : "";
    return who + " +" + version.game_points + reason + pending;
  }
  function drawProblem() {
    var box = root.querySelector(".offline-problem");
    var item = problemItem();
    box.hidden = !item;
    if (!item) return;
    var problem = item.problem;
    var conflict = problem.result === "conflict";
    root.querySelector(".offline-message").textContent =
      conflict ? text("Conflict", item.number) : problem.message;
    var versions = root.querySelector(".offline-versions");
    versions.textContent = "";
    var add = function (term, value) {
      var dt = document.createElement("dt");
      dt.textContent = term;
      var dd = document.createElement("dd");
      dd.textContent = value;
      versions.appendChild(dt);
      versions.appendChild(dd);
    };
    if (conflict) add(text("Stored"), versionText(problem.stored));
    add(text("Mine"), versionText({ winner_name: item.winnerName, game_points: item.points,
                                    reason_label: item.reasonLabel }));
    root.querySelector("[data-offline=keep-stored]").hidden = !conflict;
    root.querySelector("[data-offline=send-next]").hidden = !conflict;
    root.querySelector("[data-offline=drop]").hidden = conflict || problem.result === "login";
  }
  function render() {
    var waiting = shown();
    var online = navigator.onLine;
    var sent = sessionStorage.getItem(sentKey);
    drawRows();
    var score = localScore();
    var points = pointsElements();
    if (points.length === 2) {
      served(points[0]); served(points[1]);
      points[0].textContent = score[0];
      points[1].textContent = score[1];
    }
    var quick = form();
    var next = serverNext() + waiting.length;
    var won = score[0] >= target || score[1] >= target;
    var full = limit && waiting.length >= limit;
    if (quick) {
      var number = quick.querySelector("input[name=number]");
      served(number);
      number.value = next;
      var save = quick.querySelector("button.primary");
      if (save) save.textContent = waiting.length ? text("Save", next) : served(save);
    }
    setHidden("form[data-offline-entry]", waiting.length && (won || full));
    setHidden("details.details-entry", !online || waiting.length);
    setHidden("details.undo, .match-state .next-dealer, .scoreboard .deals-mark", waiting.length);
    var banner = root.querySelector(".offline-banner");
    var message = "";
    if (waiting.length && won) message = text("Won");
    else if (waiting.length && full) message = text("Limit");
    var count = items.length;  // with a conflicting deal whose number the page already shows
    if (!online) message = (count ? text("Waiting", count) : text("Offline")) + (message ? " " + message : "");
    else if (sending) message = text("Sending", count);
    else if (count) message = (notice || text("OnlineWaiting", count)) + (message ? " " + message : "");
    else if (sent) message = text("AllSent");
    banner.textContent = message;
    root.className = "offline-entry" + (!online ? " is-offline" : count ? " is-waiting" : " is-sent");
    root.querySelector("[data-offline=remove-last]").hidden = !count || sending;
    drawProblem();
    root.hidden = !message && !problemItem();
  }

  // ---- Sending, one deal at a time, in order ----
  function body(item) {
    var data = new FormData();
    data.append("number", item.number);
    if (item.draw) {
      data.append("draw", "1");
    } else {
      data.append("winner", item.winner);
      data.append("reason", item.reason);
      if (item.chosen) data.append("game_points", item.chosen);
    }
    return data;
  }
  var sentNow = 0;
  function finish() {
    sending = false;
    if (!items.length && sentNow) {
      sessionStorage.setItem(sentKey, "1");
      location.reload();  // the server's own drawing of what it stored
      return;
    }
    render();
  }
  function sendNext() {
    var item = items[0];
    if (!item || item.problem || !navigator.onLine) return finish();
    fetch(page, {
      method: "POST", body: body(item), credentials: "same-origin",
      headers: { "X-CSRFToken": csrfToken(), "Accept": "application/json" },
    }).then(function (response) {
      var json = (response.headers.get("Content-Type") || "").indexOf("application/json") === 0;
      if (json) return response.json();
      // Not the sync address's answer: a 4xx page (a renewed link, a stale form) is shown to
      // the player; anything else (5xx, a proxy) is tried again later.
      if (response.status >= 400 && response.status < 500 && response.status !== 429) {
        return { result: "refused", message: text("Gone") };
      }
      throw new Error("no answer of ours: " + response.status);
    }).then(function (answer) {
      notice = "";
      if (answer.result === "stored" || answer.result === "already_stored" || answer.result === "pending") {
        sentNow += 1;
        return remove(item).then(function () {
          items.shift();
          render();
          sendNext();
        });
      }
      if (answer.result === "login") {  // kept, and tried again once logged in
        notice = answer.message;
        return finish();
      }
      item.problem = answer;
      return save(item).then(finish);
    }).catch(function () {
      finish();  // the network (or the server) is not there after all: try again in a while
      window.setTimeout(sync, 10000);
    });
  }
  function sync() {
    if (sending || !items.length || problemItem() || !navigator.onLine) return;
    sending = true;
    render();
    sendNext();
  }

  // Settling a problem: the queue's numbers follow on from `first`, in order.
  function renumber(first) {
    items.forEach(function (item, index) { item.number = first + index; });
    return Promise.all(items.map(save));
  }
  root.addEventListener("click", function (event) {
    var button = event.target.closest("[data-offline]");
    if (!button) return;
    var action = button.dataset.offline;
    var item = action === "remove-last" ? items[items.length - 1] : problemItem();
    if (!item) return;
    var problem = item.problem;
    var done;
    if (action === "send-next") {
      delete item.problem;
      done = renumber(problem.next_number);
    } else {
      // "Keep the stored deal": the stored one was this deal, so the rest keep their numbers.
      // "Drop mine" (refused): the rest move up into its place.
      var first = item.number;
      done = remove(item).then(function () {
        items = items.filter(function (other) { return other !== item; });
        return action === "drop" ? renumber(first) : null;
      });
    }
    done.then(function () {
      if (!items.length && action !== "remove-last") { location.reload(); return; }
      render();
      sync();
    });
  });

  // ---- Entering a deal: queued while offline, or while others wait before it ----
  var submitters = new WeakMap();
  function queue(quick, submitter) {
    var item = readDeal(quick, submitter, serverNext() + shown().length);
    if (!item) {
      root.hidden = false;
      root.querySelector(".offline-banner").textContent = text("Incomplete");
      return;
    }
    sessionStorage.removeItem(sentKey);
    save(item).then(load).then(function () {
      var busy = quick.querySelector(".server-busy");  // static/js/server_busy.js: not so now
      if (busy) busy.remove();
      quick.reset();
      quick.removeAttribute("data-live-dirty");
      render();
      sync();
    });
  }
  document.addEventListener("submit", function (event) {
    var quick = event.target;
    if (!quick.matches || !quick.matches("form[data-offline-entry]")) return;
    submitters.set(quick, event.submitter);
    if (navigator.onLine && !shown().length) return;  // online: the form posts as always
    event.preventDefault();
    event.stopPropagation();  // before htmx, which listens on the form itself
    queue(quick, event.submitter);
  }, true);
  document.addEventListener("submit", function (event) {
    if (!navigator.onLine && event.target.closest && event.target.closest("details.details-entry")) {
      event.preventDefault();
      event.stopPropagation();
      root.hidden = false;
      root.querySelector(".offline-banner").textContent = text("Details");
    }
  }, true);
  // The organiser's page posts with htmx: a post that never reached the server (the wifi is up
  // but the site is not) is queued like an offline one.
  document.addEventListener("htmx:sendError", function (event) {
    var quick = event.detail.elt && event.detail.elt.closest && event.detail.elt.closest("form[data-offline-entry]");
    if (quick) queue(quick, submitters.get(quick));
  });
  // The server redrew part of the page (a saved deal, a poll): draw the waiting deals on it
  // again, and have the service worker keep the page as it now stands for a reload offline.
  document.addEventListener("htmx:afterSettle", function (event) {
    render();
    var xhr = event.detail.xhr;
    if (xhr && xhr.status === 200) keepPage(false);
  });
  window.addEventListener("online", function () { render(); sync(); });
  window.addEventListener("offline", render);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") sync();  // a phone woken from sleep
  });

  // The service worker (static/js/sw.js) keeps the match pages visited; the first visit was
  // drawn before it was in charge, so it is asked to keep this page and its files now.
  function keepPage(withFiles) {
    if (!navigator.serviceWorker || !navigator.onLine) return;
    navigator.serviceWorker.ready.then(function (registration) {
      var files = withFiles ? Array.prototype.map.call(
        document.querySelectorAll("script[src], link[rel=stylesheet]"),
        function (element) { return element.src || element.href; }) : [];
      registration.active.postMessage({ keepPage: location.pathname, keepStatic: files });
    });
  }
  if (navigator.serviceWorker && !navigator.serviceWorker.controller) keepPage(true);

  load().then(function () {
    render();
    if (sessionStorage.getItem(sentKey)) {
      sessionStorage.removeItem(sentKey);  // "All sent" shows once, on the page drawn after
    }
    sync();
  });
})();
