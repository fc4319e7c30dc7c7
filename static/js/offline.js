// Deal entry on a match page (the organiser's /m/<id>/ and the players' /p/<token>/;
// docs/architecture.md "Offline entry"), online and offline alike. A deal entered with the
// quick form shows in the score at the tap, worked out here, and is kept in IndexedDB and sent
// behind it, in order, each under its deal number (tableside/offline_sync.py answers in JSON):
// the server's deal-number guard stores a resend once. Its answer only confirms ("Deal 2
// saved." in the score, then the live region fetches the server's drawing of the page). While
// the phone is offline the deals wait, listed as "waiting to send", until the network is back.
// A deal the page cannot be sure of (the page is behind a change the stream told of, or the
// opponent confirms each deal) is listed as pending and left out of the score until the server
// takes it. A deal entered otherwise on another phone meanwhile (a conflict) or refused stops
// the queue, leaves the score, and shows both versions or the server's sentence: the player
// chooses, nothing is dropped silently.
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
  if (document.documentElement.hasAttribute("data-session-ended")) return;  // session_check.js
  var page = root.dataset.sync;  // one queue per match page (its sync address)
  var target = Number(root.dataset.target);
  var limit = Number(root.dataset.limit) || 0;
  var confirmEach = root.dataset.confirmEach === "1";  // the opponent confirms each deal
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
      // A deal tapped while this was read stays as it is.
      var ids = items.map(function (item) { return item.id; });
      var kept = (found || []).filter(function (item) { return ids.indexOf(item.id) < 0; });
      kept.forEach(function (item) { item.offline = true; });  // kept from before this page
      items = kept.concat(items).sort(function (a, b) { return a.number - b.number; });
    });
  }
  function save(item) { return transaction("readwrite", function (store) { return store.put(item); }); }
  function remove(item) { return transaction("readwrite", function (store) { return store.delete(item.id); }); }

  var items = [];      // the queued deals of this page, by deal number
  var confirmed = [];  // stored by the server, shown until its drawing of the page holds them
  var sending = false;
  var notice = "";     // why the last attempt sent nothing (e.g. log in again), while online
  var boardNotice = null;  // the server's answer to the last deal ("Deal 2 saved."), for the score
  var allSent = false;     // every deal entered offline is stored now

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
    var rows = document.querySelectorAll("#deal-rows tr:not([data-offline-row])");
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
    confirmed = confirmed.filter(function (item) { return item.number >= next; });
    return confirmed.concat(items.filter(function (item) { return item.number >= next; }));
  }
  function counts(item) {  // in the score on this phone: not held back, not refused
    return !item.held && !item.problem;
  }
  function add(score, item) {
    if (!counts(item)) return;
    if (item.winner === "A") score[0] += item.points;
    if (item.winner === "B") score[1] += item.points;
  }
  function localScore() {
    var score = serverScore();
    shown().forEach(function (item) { add(score, item); });
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
    Array.prototype.forEach.call(document.querySelectorAll("tr[data-offline-row]"), function (row) { row.remove(); });
    var waiting = shown();
    if (!waiting.length) return;
    var body = dealRows();
    if (!body) return;
    var score = serverScore();
    waiting.forEach(function (item) {
      add(score, item);
      var stored = confirmed.indexOf(item) >= 0;
      var row = document.createElement("tr");
      row.setAttribute("data-offline-row", "");
      row.className = stored ? "offline-stored" : item.problem ? "offline-waiting offline-refused"
        : item.held ? "offline-waiting offline-held" : "offline-waiting";
      cell(row, item.number, "num");
      var what = cell(row, "", "");
      var name = document.createElement("span");
      name.className = "winner";
      name.textContent = item.winnerName;
      var note = document.createElement("small");
      note.className = "meta";
      var state = stored ? "" : item.problem ? text("Refused")
        : item.held ? text("Held") : navigator.onLine ? text("OnItsWay") : text("Row");
      note.textContent = (item.reasonLabel || "") + (item.reasonLabel && state ? " · " : "") + state;
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
    var fromOffline = items.some(function (item) { return item.offline; });
    // Online, a deal on its way needs no banner: the score shows it, the answer confirms it.
    if (!online) message = (count ? text("Waiting", count) : text("Offline")) + (message ? " " + message : "");
    else if (sending) message = fromOffline ? text("Sending", count) : "";
    else if (count) message = notice || text("OnlineWaiting", count);
    else if (allSent) message = text("AllSent");
    banner.textContent = message;
    root.className = "offline-entry" + (!online ? " is-offline" : count ? " is-waiting" : " is-sent");
    root.querySelector("[data-offline=remove-last]").hidden = !count || sending;
    drawProblem();
    root.hidden = !message && !problemItem();
    drawNotice();
  }
  // The server's answer to the last deal, in the score (where "Deal 2 saved." stands after a
  // post), drawn again over a redrawn region until the next thing done on the page
  // (static/js/site.js takes it away).
  function drawNotice() {
    var state = document.querySelector(".scoreboard .match-state");
    if (!boardNotice || !state || state.querySelector(".board-notice")) return;
    var span = document.createElement("span");
    span.className = "message board-notice " + (boardNotice.error ? "error" : "success");
    span.setAttribute("role", "status");
    span.textContent = boardNotice.text;
    state.insertBefore(span, state.querySelector(".target"));
  }
  ["input", "change", "click"].forEach(function (type) {
    document.addEventListener(type, function (event) {
      if (!event.target.closest || !event.target.closest("form[data-offline-entry] button[type=submit]")) boardNotice = null;
    }, true);
  });

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
  var sentNow = 0;      // deals entered offline stored since the queue last emptied
  var newest = 0;       // the match's version after the last deal stored (the answer's)
  var known = 0;        // the newest version any answer named: this page's own changes
  var allSentAt = 0;    // "All sent" waits for the page drawn at this version
  var drawn = parseInt(((document.body.getAttribute("sse-connect") || "").match(/[?&]v=(\d+)/) || [])[1] || "0", 10);
  function finish() {
    sending = false;
    if (!items.length && newest) {
      if (sentNow) allSentAt = newest;
      sentNow = 0;
      redraw(newest);
      newest = 0;
    }
    if (allSentAt && drawn >= allSentAt) { allSent = true; allSentAt = 0; }
    render();
  }
  // The server's own drawing of what it stored: the live region (static/js/live.js) fetches
  // its part at the match's new version, unless the stream had it fetched already, and holds
  // it while a form of the region is being filled.
  function redraw(version) {
    var region = document.querySelector("[data-live]");
    if (region && window.htmx) htmx.trigger(region, "sse:changed", { data: String(version || "") });
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
        if (item.offline) sentNow += 1;
        else boardNotice = { text: answer.message };
        newest = Math.max(newest, answer.version || 0);
        known = Math.max(known, newest);
        item.version = answer.version || 0;
        return remove(item).then(function () {
          items.shift();
          confirmed.push(item);
          render();
          sendNext();
        });
      }
      if (answer.result === "login") {  // kept, and tried again once logged in
        notice = answer.message;
        return finish();
      }
      item.problem = answer;
      if (!item.offline) boardNotice = { text: answer.message || text("Conflict", item.number), error: true };
      return save(item).then(finish);
    }).catch(function () {
      finish();  // the network (or the server) is not there after all: try again in a while
      window.setTimeout(sync, 10000);
    });
  }
  function sync() {
    if (sending || !items.length || problemItem() || !navigator.onLine) return;
    if (items.some(function (item) { return item.id === undefined; })) return;  // not kept yet
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
      if (!items.length && action !== "remove-last") redraw("");  // the stored version
      render();
      sync();
    });
  });

  // ---- Entering a deal: shown at once, kept, and sent behind ----
  function queue(quick, submitter) {
    var item = readDeal(quick, submitter, serverNext() + shown().length);
    if (!item) {  // said over the page and in the score, where the player is looking
      root.hidden = false;
      root.querySelector(".offline-banner").textContent = text("Incomplete");
      boardNotice = { text: text("Incomplete"), error: true };
      var old = document.querySelector(".scoreboard .board-notice");
      if (old) old.remove();
      drawNotice();
      return;
    }
    allSent = false;
    allSentAt = 0;
    item.offline = !navigator.onLine || items.some(function (other) { return other.offline; });
    // Left out of the score until the server takes it: the opponent confirms each deal, a
    // problem waits before it, or the page is behind a change the stream told of (a deal of
    // the other phone, a signature), which the server may refuse it for.
    item.held = confirmEach || !!problemItem() || behind();
    items.push(item);
    var busy = quick.querySelector(".server-busy");  // static/js/server_busy.js: not so now
    if (busy) busy.remove();
    quick.reset();
    quick.removeAttribute("data-live-dirty");
    if (document.activeElement && quick.contains(document.activeElement)) document.activeElement.blur();
    render();
    firstQuestionInView();
    save(item).then(function (id) {
      item.id = id;
      sync();
    });
  }
  // Whether the stream told this page of a change it has not drawn (static/js/live.js marks
  // its region stale, with the version), other than a deal this page itself stored.
  function behind() {
    var stale = document.querySelector("[data-live][data-live-stale]");
    if (!stale) return false;
    var version = parseInt(stale.getAttribute("data-live-stale"), 10);
    return !(version <= Math.max(drawn, known));
  }
  // The next deal's first question (who won) is not left under the sticky score: the page
  // scrolls back just enough to show it whole.
  function firstQuestionInView() {
    var board = document.querySelector(".scoreboard");
    var first = document.querySelector("form[data-offline-entry] fieldset.pick-winner");
    if (!board || !first || first.closest("[data-offline-hidden]")) return;
    var hidden = board.getBoundingClientRect().bottom - first.getBoundingClientRect().top;
    if (hidden > 0) window.scrollBy(0, -(hidden + 8));
  }
  document.addEventListener("submit", function (event) {
    var quick = event.target;
    if (!quick.matches || !quick.matches("form[data-offline-entry]")) return;
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
  // The server redrew part of the page (a saved deal, a poll): draw the waiting deals on it
  // again, and have the service worker keep the page as it now stands for a reload offline.
  document.addEventListener("htmx:afterSettle", function (event) {
    var xhr = event.detail.xhr;
    var version = xhr && parseInt(xhr.getResponseHeader("X-Live-Version") || "", 10);
    if (version > drawn) drawn = version;
    // The deals the server has drawn since they were stored are its to show.
    confirmed = confirmed.filter(function (item) { return item.version > drawn; });
    if (allSentAt && drawn >= allSentAt) { allSent = true; allSentAt = 0; }
    render();
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
    sync();
  });
})();
