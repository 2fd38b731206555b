/* The order page: wire the label chooser and the board to the order field
   (pbem/boards/static/board.js does the picking). Legal orders come from the
   JSON block the page carries; without JavaScript the page still works by
   typing orders.

   A turn may hold several decisions of the same seat (Medina: two pieces).
   After each pick the page asks the server (the form's data-next URL, a dry
   run) whether the turn holds another decision; if so the picked line is
   kept, the board is redrawn with it applied and the next decision's legal
   orders are offered, and the next click adds a line. Otherwise a click
   replaces the last line. For a game with draws or hidden cards the server
   shows nothing after the lines ("preview": false): picks build a set of
   lines, one per site, as far as the server reads them as legal together
   and holds none for later (addToSet); anything else is typed. */
(function () {
  "use strict";
  // run at load, and again when the page brought itself up to date (below)
  window.PbemOrderPage = {start: start};
  start();

  function start() {
    var data = document.getElementById("legal-orders");
    var board = document.getElementById("board");
    if (!data || !window.PbemBoard) return;
    var orders = JSON.parse(data.textContent || "[]");
    var hint = document.getElementById("board-hint");
    var chooser = document.getElementById("order-label");
    var field = document.getElementById("order-text");
    var form = document.getElementById("order-form");
    var nextUrl = form && form.getAttribute("data-next");
    var step = form && form.querySelector('input[name="step"]');
    if (!board) {
      // no board picture for this game: a label without sites still fills the field
      chooser.addEventListener("change", function () {
        var o = orders.filter(function (x) { return x.label === chooser.value; });
        if (o.length === 1) field.value = o[0].text;
      });
      return;
    }

    window.PbemBoard.zoom(board, document.getElementById("board-zoom"));
    var base = "";        // lines of earlier decisions of this turn, kept
    var picker = null;
    var asked = 0;        // answers to older questions are ignored

    function say(text) { if (hint) hint.textContent = text; }

    // the page's words, in its language (the order-texts block); {name}s filled in from params
    var textsBlock = document.getElementById("order-texts");
    var TEXTS = textsBlock ? JSON.parse(textsBlock.textContent || "{}") : {};
    function t(key, params) {
      return String(TEXTS[key] || key).replace(/\{(\w+)\}/g, function (m, name) {
        return params && params[name] !== undefined ? String(params[name]) : m;
      });
    }

    // a site several orders share (a tile's rotations and followers): ask
    // their steps below the hint (choices.js), then fill the field
    var choices = document.getElementById("order-choices");
    var asking = null;
    function choose(site, list, fill) {
      if (asking) asking.close();
      say(site + ": " + (choices.getAttribute("data-ask") || "choose below."));
      asking = window.PbemChoices.ask(choices, {site: site, orders: list, board: board, done: fill,
        which: t("choose"), labelText: function (label) { return labelTexts[label] || label; },
        cancel: function () { say(choices.getAttribute("data-again") || ""); board.querySelector(".site.legal").focus(); }});
    }

    function lines(text) {
      return text.split("\n").map(function (l) { return l.trim(); }).filter(function (l) { return l; });
    }

    var labelTexts = {};  // each order label in the page's language (next.json's label_texts)
    function optionText(label, n) {
      var name = labelTexts[label] || label;
      return n === 1 ? t("label_one_site", {label: name}) : n ? t("label_sites", {label: name, count: n}) : name;
    }

    // a small decision's orders without a site ("no tower") as buttons beside the board's sites
    var quick = document.getElementById("order-quick");
    function quickButtons(list) {
      if (!quick) return;
      quick.innerHTML = "";
      var free = list.filter(function (o) { return !o.site; });
      quick.hidden = !free.length || free.length === list.length || list.length > 6;
      if (quick.hidden) return;
      var or = document.createElement("span");
      or.textContent = quick.getAttribute("data-or") || "Or:";
      quick.appendChild(or);
      free.forEach(function (o) {
        var b = document.createElement("button");
        b.type = "button";
        b.className = "secondary small";
        b.textContent = o.text;
        b.addEventListener("click", function () {   // the board's sites stay choosable
          if (asking) asking.close();
          picker.clear();
          picked(o);
        });
        quick.appendChild(b);
      });
    }

    function attach(list) {
      if (picker) picker.detach();
      picker = window.PbemBoard.attach({board: board, input: field, chooser: chooser, orders: list,
        placeholder: t("choose"), optionText: optionText,
        siteLabel: function (texts) {
          return texts.length > 3 ? t("site_orders", {count: texts.length}) : texts.join("; ");
        },
        onPick: picked, onRefuse: refused, onChoose: window.PbemChoices && choices ? choose : null});
      current = list;
      quickButtons(list);
    }

    // A click on a site no legal order uses: ask the engine why (a dry run of
    // the chosen order, or the first order with a site, moved to that site).
    var current = orders;
    function refused(site, label) {
      if (asking) asking.close();
      var withSite = current.filter(function (o) { return o.site && (!label || o.label === label); });
      if (!withSite.length) { say(t("no_order_site", {site: site})); return; }
      var o = withSite[0];
      var text = o.text.split(/\s+/).map(function (w) {
        return w.toUpperCase() === String(o.site).toUpperCase() ? site : w;
      }).join(" ");
      if (!nextUrl) { say(t("no_legal_site", {site: site})); return; }
      var url = nextUrl + "?orders=" + encodeURIComponent((base ? base + "\n" : "") + text) +
        "&step=" + encodeURIComponent(step ? step.value : "");
      fetch(url, {credentials: "same-origin", headers: {"Accept": "application/json"}})
        .then(function (r) { return r.json(); })
        .then(function (res) {
          var bad = (res.lines || []).filter(function (l) { return l.error; })[0];
          // the order was made up by the page, not written by the player: say only why
          var why = bad ? bad.why || bad.error : "";
          say(t("not_site", {site: site, why: why || res.message || t("no_legal_uses_it")}));
        })
        .catch(function () { say(t("no_legal_site", {site: site})); });
    }

    function picked(order) {
      if (setOfLines && !base && order.site) { addToSet(order); return; }
      if (order.site) lineSite[order.text] = String(order.site).toUpperCase();
      field.value = written = (base ? base + "\n" : "") + order.text;
      say(t("picked", {order: order.text}));
      ask(field.value, true);
    }

    // A game that shows nothing after the lines (setOfLines, learnt from the
    // server) may still take several lines in one sending (a year-end choice
    // for each of a seat's cities): a pick on another site is added to the
    // lines picked so far on other sites when the server reads them all as
    // legal together and holds none for a later decision (a corner after
    // 'no tower' is the same decision again, never a line held for later),
    // a pick on a site already picked changes that site's line, and a pick
    // the others do not go with replaces them all, as it replaces a line
    // typed or picked by a button (no site).
    var setOfLines = false;
    var written = field.value;   // the field as the page or the player last left it (board.js overwrites it on a pick)
    var lineSite = {};    // picked line -> its site
    function addToSet(order) {
      var site = String(order.site).toUpperCase();
      var kept = lines(written).filter(function (l) { return l !== order.text && lineSite[l] && lineSite[l] !== site; });
      lineSite[order.text] = site;
      if (!kept.length) { field.value = written = order.text; say(t("picked", {order: order.text})); ask(field.value, true); return; }
      var all = kept.concat([order.text]).join("\n");
      var mine = ++asked;
      dryRun(all).then(function (res) {
        if (mine !== asked) return;
        var held = (res.lines || []).some(function (l) { return l.held; });
        if (res.status === "ok" && !held) {
          field.value = written = all;
          say(t("set_so_far", {orders: lines(all).join("; ")}));
        } else {
          field.value = written = order.text;
          say(t("picked", {order: order.text}));
          ask(field.value, true);
        }
      }).catch(function () { field.value = written = order.text; });
    }

    function dryRun(text) {
      var url = nextUrl + "?orders=" + encodeURIComponent(text) + "&step=" + encodeURIComponent(step ? step.value : "");
      return fetch(url, {credentials: "same-origin", headers: {"Accept": "application/json"}})
        .then(function (r) { return r.json(); });
    }

    // After the lines in ``text``: another decision in this turn? ``fromPick``:
    // the last line came from a click (a final one may be replaced by another click).
    function ask(text, fromPick) {
      if (!nextUrl) { document.getElementById("review").focus(); return; }
      var mine = ++asked;
      dryRun(text)
        .then(function (res) {
          if (mine !== asked) return;
          if (res.status !== "ok") {
            var bad = (res.lines || []).filter(function (l) { return l.error; })[0];
            say((res.message || t("not_legal_now")) + (bad ? " " + bad.error : ""));
            return;
          }
          if (!res.preview) {
            // a game with draws or hidden cards: nothing after the lines is shown before they are sent
            setOfLines = true;
            say(t(fromPick ? "picked_review_or_change" : "picked_review"));
            document.getElementById("review").focus();
          } else if (res.more) {
            base = lines(text).join("\n");
            if (res.svg) board.innerHTML = res.svg;
            var position = document.getElementById("view-text");
            if (position && res.view_text) position.textContent = res.view_text;
            var panels = document.getElementById("table-panels");
            if (panels && res.panels) panels.innerHTML = res.panels;
            var banner = document.getElementById("decision");
            if (banner && res.decision) {
              banner.querySelector(".owes").textContent = res.decision.owes;
              banner.querySelector(".why").textContent = res.decision.why;
            }
            chooser.innerHTML = "";   // board.js fills it with the next decision's labels
            labelTexts = res.label_texts || {};
            attach(res.legal);
            var n = lines(text).length;
            say(n ? t("another_order", {number: n + 1}) : t("choose_then_click"));
          } else {
            say(t(fromPick ? "complete_or_change" : "complete"));
            document.getElementById("review").focus();
          }
        })
        .catch(function () { /* the page still works by typing and reviewing */ });
    }

    attach(orders);
    if (lines(field.value).length) ask(field.value, false);   // text kept after a refusal
    // half an order (a rotation, no follower yet) is never sent: the open question is asked again
    form.addEventListener("submit", function (ev) {
      if (asking && asking.pending()) {
        ev.preventDefault();
        say(t("answer_first"));
      }
    });
    var typing = null;
    field.addEventListener("input", function (ev) {
      if (!ev.isTrusted) return;              // board.js's own fill
      written = field.value;
      clearTimeout(typing);
      typing = setTimeout(function () { ask(field.value, false); }, 400);
    });
    chooser.addEventListener("change", function () {
      if (!hint) return;
      var label = chooser.value;
      if (!label || !picker) { say(t("hint")); return; }
      var n = picker.orders(label).map(function (o) { return o.site && o.site.toUpperCase(); })
        .filter(function (x, i, a) { return x && a.indexOf(x) === i; }).length;
      say(n === 1 ? t("click_one_site") : n ? t("click_sites", {count: n}) : t("filled", {order: field.value}));
    });
  }
})();

/* A page waiting for the others (#order-page's data-refresh, seconds: a
   seat whose orders are in, one with nothing to decide, a turn being
   resolved) looks again now and then and, when the game has moved on
   (its data-state differs), brings itself up to date in place: no reload,
   so a screen reader's or keyboard user's place stays; focus stays on the
   same element where it still exists, #page-news (a live region) says
   what changed, and the scripts the new page needs are loaded and started.
   Never while orders are being written (a text field focused or not empty). */
(function () {
  "use strict";
  var root = document.getElementById("order-page");
  var news = document.getElementById("page-news");
  if (!root || !window.fetch || !window.DOMParser) return;
  var timer = null;

  function schedule() {
    clearTimeout(timer);
    var every = Number(root.getAttribute("data-refresh"));
    if (every > 0) timer = setTimeout(look, every * 1000);
  }

  function writing() {
    var a = document.activeElement;
    if (a && root.contains(a) && (a.tagName === "TEXTAREA" || a.tagName === "SELECT" ||
        (a.tagName === "INPUT" && /^(text|search|)$/.test(a.type || "")))) return true;
    return Array.prototype.some.call(root.querySelectorAll("textarea"), function (f) {
      return f.value.trim() !== "";
    });
  }

  function look() {
    if (writing()) { schedule(); return; }
    fetch(window.location.href, {credentials: "same-origin", headers: {"Accept": "text/html"}})
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (html && !writing()) apply(new DOMParser().parseFromString(html, "text/html"));
        schedule();
      })
      .catch(schedule);
  }

  function apply(doc) {
    var fresh = doc.getElementById("order-page");
    if (!fresh) return;
    if (fresh.getAttribute("data-state") === root.getAttribute("data-state")) {
      var left = root.querySelector(".deadline"), newLeft = fresh.querySelector(".deadline");
      if (left && newLeft) left.innerHTML = newLeft.innerHTML;   // the time left, quietly
      return;
    }
    var focused = document.activeElement && document.activeElement.id;
    root.innerHTML = fresh.innerHTML;
    ["data-state", "data-refresh"].forEach(function (name) {
      if (fresh.hasAttribute(name)) root.setAttribute(name, fresh.getAttribute(name));
      else root.removeAttribute(name);
    });
    document.title = doc.title;
    var again = focused && document.getElementById(focused);
    if (again && again.focus) again.focus({preventScroll: true});
    var phase = root.querySelector(".phase");
    if (news) news.textContent = (news.getAttribute("data-said") || "") + " " + (phase ? phase.textContent.trim() : "");
    load(doc, function () { window.PbemOrderPage.start(); });
  }

  // the new page's scripts this one lacks, one after the other
  function load(doc, done) {
    var want = Array.prototype.map.call(doc.querySelectorAll("script[src]"), function (el) {
      return el.getAttribute("src");
    }).filter(function (src) { return !document.querySelector('script[src="' + src + '"]'); });
    (function next() {
      if (!want.length) { done(); return; }
      var el = document.createElement("script");
      el.src = want.shift();
      el.onload = next;
      el.onerror = next;
      document.body.appendChild(el);
    })();
  }

  schedule();
})();
