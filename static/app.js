// Small helpers for every page: the countdown of a time-limited game (TL1), times in the
// reader's own time zone, the banker's time zone sent with a new game.
(function () {
  "use strict";
  function pad(n) { return String(n).padStart(2, "0"); }
  // Times as the reader's clock shows them (24-hour, the browser's own zone). Done by hand:
  // Intl's formatters cost a phone more than the whole rest of this file.
  function localTimes(root) {
    root.querySelectorAll("time[data-local]").forEach(function (el) {
      var d = new Date(el.getAttribute("datetime"));
      if (isNaN(d)) { return; }
      var text = pad(d.getHours()) + ":" + pad(d.getMinutes());
      if (el.dataset.local === "date") {
        text = d.getFullYear() + "-" + pad(d.getMonth() + 1) + "-" + pad(d.getDate()) + " " + text;
      }
      if (el.textContent !== text) { el.textContent = text; }  // the server knew: no relayout
    });
  }
  // The server writes times in this reader's zone from now on (its offset, in minutes); over
  // https the cookie never goes out on plain http, as the session's does not.
  var secure = location.protocol === "https:" ? "; Secure" : "";
  document.cookie = "tzo=" + new Date().getTimezoneOffset() + "; path=/; max-age=31536000; SameSite=Lax" + secure;
  localTimes(document);
  document.addEventListener("updated", function (e) { localTimes(e.target); tick(); });
  document.addEventListener("swapped", function () { localTimes(document); tick(); });
  var zone = document.querySelector("input[name=time_zone]");
  if (zone && window.Intl) { zone.value = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; }
  function tick() {
    document.querySelectorAll(".countdown[data-ends]").forEach(function (el) {
      var left = Math.floor((new Date(el.dataset.ends) - Date.now()) / 1000);
      if (left <= 0) {
        el.textContent = el.dataset.up || "Time is up";
        // Reload once when the clock runs out in front of us: the server then ends the game.
        if (el.dataset.running) { delete el.dataset.running; setTimeout(function () { location.reload(); }, 1000); }
        return;
      }
      el.dataset.running = "1";
      var h = Math.floor(left / 3600), m = Math.floor(left / 60) % 60, s = left % 60;
      var time = (h ? h + ":" : "") + pad(m) + ":" + pad(s);
      el.textContent = (el.dataset.left || "%(time)s left").replace("%(time)s", time);
    });
  }
  tick();
  setInterval(tick, 1000);
})();
// Live pages: each new version's live part arrives by Server-Sent Events ("live"), or only
// "version N is out" and the page fetches it; every seat's cash may come first ("cash");
// "gone" when the page's link or key no longer opens it, or the page is ahead of its game
// (a restore of an older copy): the page reloads.
// EventSource reconnects by itself, and the page opens a new stream when its network comes
// back or it is seen again; if streams never work, poll instead. The new markup is
// merged into the page (idiomorph, static/idiomorph.min.js): nodes that did not change stay,
// so focus, an open panel, a chosen radio and typed text survive; the one sentence that
// matters (a payment, "Your turn", an auction) is said in the polite live region.
// `tablebank.follow()` binds to the page's #live again after a tap swapped the page in.
var tablebank = (function () {
  "use strict";
  // idiomorph is fetched the first time this page merges something: a phone's first visit
  // does not carry it, and a browser keeps it a year after.
  var morphing = null, morphAt = document.querySelector("script[data-morph]");
  function morphReady() {
    if (window.Idiomorph || !morphAt) { return Promise.resolve(); }
    if (!morphing) {
      morphing = new Promise(function (done) {
        var script = document.createElement("script");
        script.src = morphAt.dataset.morph;
        script.dataset.lazy = "1";  // not one of the page's own files (see `assets`)
        script.onload = function () { done(); };
        script.onerror = function () { morphing = null; script.remove(); done(); };  // the next merge tries again
        document.head.appendChild(script);
      });
    }
    return morphing;
  }
  var box, version, url, source, failures = 0, busy = false, waiting = false, polling = null, said = {};
  var touched = new WeakSet();  // fields this reader changed: their state is theirs
  var region = document.getElementById("announce");
  function touch(e) {
    var field = e.target;
    if (!box || !box.contains(field)) { return; }
    touched.add(field);
    if (field.type === "radio" && field.name) {  // choosing one radio unchecks its group
      (field.form || box).querySelectorAll("input[type=radio]").forEach(function (r) {
        if (r.name === field.name) { touched.add(r); }
      });
    }
    if (field.tagName === "SELECT") { Array.prototype.forEach.call(field.options, function (o) { touched.add(o); }); }
  }
  document.addEventListener("input", touch);
  document.addEventListener("change", touch);
  function keep(attribute, node) {
    if (attribute === "open" && node.tagName === "DETAILS") { return false; }  // opened or closed by the reader
    if (touched.has(node) && (attribute === "checked" || attribute === "value" || attribute === "selected")) { return false; }
    return true;
  }
  function keys() {
    var found = {};
    if (box) { box.querySelectorAll("[data-news] [data-key]").forEach(function (item) { found[item.dataset.key] = item.textContent.trim(); }); }
    return found;
  }
  function say(words) {
    if (!region || !words) { return; }
    region.textContent = "";  // the same words twice are still news: clear, then say
    setTimeout(function () { region.textContent = words; }, 50);
  }
  function announce() {
    var now = keys(), fresh = [];
    Object.keys(now).forEach(function (key) { if (!(key in said) && now[key]) { fresh.push(now[key]); } });
    said = now;
    say(fresh.join(" "));
  }
  // The newest cash the stream sent ahead of its part: a part drawn before it (a late fetch
  // merged while that part is still being drawn) must not put older figures back.
  var cash = null;
  function paint() {
    box.querySelectorAll("[data-cash]").forEach(function (figure) {
      var amount = cash.cash[Number(figure.dataset.cash)];
      if (typeof amount === "string") { figure.textContent = amount; }
    });
  }
  var shown = Promise.resolve();
  function show(html, v) {
    // One merge that throws must not stop the ones after it.
    shown = shown.then(morphReady).then(function () { merge(html, v); }).catch(function (e) { console.error(e); });
  }
  // A place drawn once with the page (`data-kept`: a new game's banker link) stays as it is.
  function morphable(node) { return !(node.nodeType === 1 && node.hasAttribute("data-kept")); }
  // What the reader is typing in stays; a focused link or button is merged like any other
  // node (idiomorph would keep its old words: the undo button naming an action taken back).
  function typing() {
    var field = document.activeElement;
    return Boolean(field && /^(INPUT|TEXTAREA|SELECT)$/.test(field.tagName));
  }
  function merge(html, v) {
    if (!box || v < Number(box.dataset.version)) { return; }
    if (window.Idiomorph) {
      Idiomorph.morph(box, html, { morphStyle: "innerHTML", ignoreActiveValue: typing(), restoreFocus: true,
                                   callbacks: { beforeAttributeUpdated: keep, beforeNodeMorphed: morphable } });
    } else {
      var once = box.querySelector("[data-kept]");
      box.innerHTML = html;
      var place = once && box.querySelector("[data-kept]");
      if (place) { place.replaceWith(once); }
    }
    box.dataset.version = String(v);
    if (cash && cash.version > v) { paint(); }
    settle(v);
    announce();
    box.dispatchEvent(new Event("updated", { bubbles: true }));
  }
  // A result shown above the live part ("The bank pays Ana $200", its Undo) is about the game
  // at the version it was drawn for (`data-about`): once the live part is newer, another device
  // acted (followed it, or undid it), so it goes: its Undo would be refused, its words may no
  // longer hold. The live part says what is now. A focus inside it goes to the page's heading.
  function settle(v) {
    document.querySelectorAll(".flash[data-about]").forEach(function (flash) {
      if (v <= Number(flash.dataset.about)) { return; }
      if (flash.contains(document.activeElement)) {
        var heading = document.querySelector("h1");
        if (heading) { heading.setAttribute("tabindex", "-1"); heading.focus({ preventScroll: true }); }
      }
      flash.remove();
    });
  }
  function refresh() {
    if (!box) { return; }
    if (busy) { waiting = true; return; }
    busy = true;
    fetch(location.pathname + "?fragment=1", { cache: "no-store" }).then(function (r) {
      // Drawn at the version it says: an answer that comes late is older than what the stream brought since.
      var said = r.headers.get("X-Tablebank-Version");
      return r.ok && said ? r.text().then(function (html) { return [html, Number(said)]; }) : null;
    }).then(function (got) {
      if (got && box) { version = Math.max(version, got[1]); show(got[0], got[1]); }
    }).catch(function () {}).then(function () { busy = false; if (waiting) { waiting = false; refresh(); } });
  }
  function poll() { if (!polling) { polling = setInterval(refresh, 3000); } }
  function connect() {
    var mine = source = new EventSource(url + "?v=" + version);
    source.addEventListener("version", function (e) {
      failures = 0;
      var v = Number(e.data);
      if (v > version) { version = v; refresh(); }
    });
    source.addEventListener("cash", function (e) {
      var news = JSON.parse(e.data);
      if (news.version <= version) { return; }
      cash = news;
      paint();
    });
    source.addEventListener("live", function (e) {
      failures = 0;
      var v = Number(e.lastEventId);
      if (v > version) { version = v; show(e.data, v); }
    });
    source.addEventListener("gone", function () {
      // The link or banker key that opened this page was replaced (show why), or the game
      // was restored to an older copy (show it as it is now).
      source.close(); location.reload();
    });
    source.onopen = function () { failures = 0; };
    source.onerror = function () {
      failures += 1;
      if (mine === source && source.readyState === EventSource.CLOSED) { setTimeout(function () { if (mine === source) { connect(); } }, 2000); }
      if (failures === 5) { poll(); }
    };
  }
  function stop() {
    if (source) { source.close(); source = null; }
    if (polling) { clearInterval(polling); polling = null; }
  }
  function follow() {
    box = document.getElementById("live");
    if (!box || !window.fetch) { stop(); box = null; return; }
    version = Number(box.dataset.version);
    said = keys();
    if (url === box.dataset.live && (source || polling)) { return; }  // the same stream goes on
    stop();
    cash = null;
    url = box.dataset.live;
    if (window.EventSource) { connect(); } else { poll(); }
  }
  // A stream that lived through a lost network, or a phone put down, may never say anything
  // again (a phone that changed networks keeps a dead connection for minutes; iOS closes a
  // hidden page's without a word): a page out of sight holds no stream, and a page back in
  // sight or online opens a new one, from the version it shows.
  function reopen() {
    if (!box || document.visibilityState === "hidden") { return; }
    var polled = polling !== null;
    stop();
    failures = 0;
    if (window.EventSource) { connect(); }
    if (polled || !window.EventSource) { poll(); refresh(); }
  }
  follow();
  window.addEventListener("online", reopen);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "hidden") { stop(); } else { reopen(); }
  });
  window.addEventListener("pageshow", function (e) { if (e.persisted && !source && !polling) { reopen(); } });
  return { follow: follow, say: say, morphReady: morphReady };
})();
// A tap stays on the page: an action's form (the `action` macro's, a card, a bid chip, quick
// money) is posted with fetch; the server answers with the page its redirect leads to
// (X-Tablebank-Page says which), merged into this one, the address updated. Without
// JavaScript, or if the answer is not a page, the form posts as ever.
(function () {
  "use strict";
  if (!window.fetch || !window.DOMParser || !window.history.pushState) { return; }
  var TAPS = "form.act[method=post], form.quick-money[method=post]";
  var sending = false, queued = null, token = document.querySelector("meta[name=csrf-token]");
  function assets(doc) {
    return Array.prototype.map.call(doc.querySelectorAll("link[rel=stylesheet], script[src]:not([data-lazy])"), function (e) { return e.getAttribute("href") || e.getAttribute("src"); }).join(" ");
  }
  function elsewhere(address) { return Boolean(address) && address.split("?")[0] !== location.pathname; }
  function swap(html, address) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    if (assets(doc) !== assets(document)) { location.assign(address || location.href); return; }
    document.title = doc.title;
    ["lang", "data-theme"].forEach(function (name) {
      var value = doc.documentElement.getAttribute(name);
      if (value === null) { document.documentElement.removeAttribute(name); } else { document.documentElement.setAttribute(name, value); }
    });
    // Another page: put in whole (quicker than a merge, and nothing of this one is kept);
    // the same page: merged, so what did not change stays (focus, an open panel).
    if (window.Idiomorph && !elsewhere(address)) {
      Idiomorph.morph(document.body, doc.body, { morphStyle: "outerHTML" });
    } else {
      var region = document.getElementById("announce"), fresh = doc.getElementById("announce");
      if (region && fresh) { fresh.replaceWith(region); }  // the live region stays: it is heard
      document.body.replaceWith(document.adoptNode(doc.body));
    }
    // The address after the page is in: before, the browser would restyle the old page for it.
    if (address && address !== location.pathname + location.search) { history.pushState(null, "", address); }
    var fresh = doc.querySelector("meta[name=csrf-token]");
    if (token && fresh) { token.content = fresh.content; }
    tablebank.follow();
    document.dispatchEvent(new Event("swapped"));
    var banner = document.querySelector(".flash.done, .flash.error") || document.querySelector("h1");
    var target = location.hash && document.getElementById(location.hash.slice(1));
    if (target) { target.scrollIntoView(); } else { window.scrollTo(0, 0); }
    if (banner) { banner.setAttribute("tabindex", "-1"); banner.focus({ preventScroll: true }); }
    if (banner && banner.classList.contains("flash")) { tablebank.say(banner.firstChild ? banner.firstChild.textContent.trim() : ""); }
  }
  // The same action's form on the page now (the page was merged in meanwhile): its fields
  // are those of the page as it is, its version the game's.
  function same(form) {
    if (form.isConnected) { return form; }
    var kind = form.elements.kind && form.elements.kind.value, payload = form.elements.payload && form.elements.payload.value;
    return Array.prototype.find.call(document.querySelectorAll(TAPS), function (f) {
      return f.action === form.action && (!kind || (f.elements.kind && f.elements.kind.value === kind)) &&
        (!payload || (f.elements.payload && f.elements.payload.value === payload));
    }) || null;
  }
  function send(form, submitter) {
    sending = true;
    var data = new FormData(form);
    if (submitter && submitter.name) { data.append(submitter.name, submitter.value); }
    var headers = { "X-Tablebank-Tap": "1" };
    if (token) { headers["X-CSRFToken"] = token.content; }
    var merging = tablebank.morphReady();  // on its way while the server acts
    fetch(form.action, { method: "POST", body: new URLSearchParams(data), headers: headers, credentials: "same-origin" }).then(function (r) {
      var type = r.headers.get("Content-Type") || "";
      if (type.indexOf("text/html") !== 0) { throw new Error("not a page"); }
      var address = r.headers.get("X-Tablebank-Page") || (r.redirected ? new URL(r.url).pathname + new URL(r.url).search : null);
      // Another page is put in whole: it does not wait for the merging script.
      return Promise.all([r.text(), elsewhere(address) ? null : merging]).then(function (got) { swap(got[0], address); });
    }).catch(function () {
      HTMLFormElement.prototype.submit.call(form);  // the page's own way (its key makes it once)
    }).then(function () {
      sending = false;
      // A tap made while this one was on its way: its form on the page now, or else as it was
      // drawn (the server then says in words why it is refused, instead of a tap lost unheard),
      // unless it was this very form tapped twice (its key makes it once: nothing to say).
      var next = queued && (same(queued[0]) || (queued[0] !== form ? queued[0] : null));
      var by = queued && queued[1];
      queued = null;
      if (next && by && !next.contains(by)) {
        by = by.name ? next.querySelector("[name='" + CSS.escape(by.name) + "'][value='" + CSS.escape(by.value) + "']") : null;
      }
      if (next) { send(next, by); }
    });
  }
  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (!form.matches(TAPS) || e.defaultPrevented) { return; }
    e.preventDefault();
    if (sending) { queued = [form, e.submitter]; return; }  // sent once this one is merged in
    send(form, e.submitter);
  });
  window.addEventListener("popstate", function () { location.reload(); });
})();
// Keep the banker's screen awake while a game is open, where the browser allows it.
(function () {
  "use strict";
  if (!document.body.dataset.wake || !("wakeLock" in navigator)) { return; }
  function hold() { navigator.wakeLock.request("screen").catch(function () {}); }
  hold();
  document.addEventListener("visibilitychange", function () { if (document.visibilityState === "visible") { hold(); } });
})();
// The dice pad: with the doubles toggle on, only even totals can be tapped (R2).
(function () {
  "use strict";
  document.addEventListener("change", function (e) {
    var box = e.target;
    if (!box.matches || !box.matches(".pad input[name=doubles]")) { return; }
    box.closest(".pad").querySelectorAll("button[name=dice]").forEach(function (b) {
      b.disabled = box.checked && Number(b.value) % 2 === 1;
    });
  });
})();
// The new-game form: the 10% income tax choice only for an edition that prints it (T1).
(function () {
  "use strict";
  var edition = document.querySelector("select[name=edition]"), label = document.getElementById("income-tax");
  if (!edition || !label) { return; }
  edition.addEventListener("change", function () {
    var percent = Boolean(edition.selectedOptions[0] && edition.selectedOptions[0].dataset.percent);
    label.hidden = !percent;
    label.querySelector("input").checked = percent;
  });
})();
// A page that says what an action will do before it does it is pinned to the game's version
// in its address (`v`), without a reload: opened there again once the game has moved on (Back
// after its tap, then a second tap, would do it twice), the server says so instead
// (web/pages.py: confirming). A link to such a page carries, for a browser without
// JavaScript, the version its own page was drawn at (`data-pinned`); here it drops it, as the
// page it opens pins itself, and the link's page may have moved on since (a live part).
(function () {
  "use strict";
  if (!window.URL || !window.history.replaceState) { return; }
  function pin() {
    var version = document.body.dataset.pin;
    if (!version) { return; }
    var url = new URL(location.href);
    if (url.searchParams.get("v") === version) { return; }
    url.searchParams.set("v", version);
    history.replaceState(history.state, "", url.pathname + url.search + url.hash);
  }
  function unpin(root) {
    root.querySelectorAll("a[data-pinned]").forEach(function (link) {
      var url = new URL(link.href);
      if (!url.searchParams.has("v")) { return; }
      url.searchParams.delete("v");
      link.setAttribute("href", url.pathname + url.search + url.hash);
    });
  }
  pin();
  unpin(document);
  document.addEventListener("swapped", function () { pin(); unpin(document); });
  document.addEventListener("updated", function (e) { unpin(e.target); });
})();
