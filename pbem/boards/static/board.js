/*
 * pbem board picker: pick a legal order by clicking a site of the board.
 * Dependency-free; works on any board SVG drawn by pbem.boards (every site is
 * an element with class="site" and data-site="F7").
 *
 * Use on the order page:
 *
 *   <link rel="stylesheet" href=".../board.css">
 *   <div id="board">{{ svg | safe }}</div>          (the inline SVG)
 *   <select id="order-label"></select>              (optional; filled if empty)
 *   <input id="order-text" name="orders">
 *   <script src=".../board.js"></script>
 *   <script>
 *     var picker = PbemBoard.attach({
 *       board: "#board",            // the SVG, or an element containing it
 *       input: "#order-text",       // text field (or textarea) to fill
 *       chooser: "#order-label",    // optional <select> of labels
 *       orders: [                   // every legal order of the seat now:
 *         {label: "build farm", site: "F7", text: "build farm F7"},
 *         {label: "build farm", site: "G7", text: "build farm G7"},
 *         {label: "gold",       site: null, text: "gold"}
 *       ],                          // pbem.boards.picker_orders(legal actions)
 *       append: false,              // true: add a line instead of replacing
 *                                   //   (several orders per submission, Medina)
 *       onPick: function (order) {},// optional, after the field was filled
 *       onRefuse: function (site, label) {}, // optional: a site no legal order
 *                                   //   of the chosen label (or of any label) uses was clicked
 *       onChoose: function (site, orders, fill) {}, // optional: a site several
 *                                   //   orders of the label share was picked; call
 *                                   //   fill(order) with the one the player chooses
 *       placeholder: "choose an order…", // optional: the empty choice of a chooser it fills
 *       optionText: function (label, sites) {}, // optional: a filled chooser's option text
 *                                   //   (the page's language); default "label (n sites)"
 *       siteLabel: function (texts) {} // optional: what a legal site's name says after its
 *                                   //   coordinate (from its orders' texts), in the page's language
 *     });
 *     picker.select("build farm");  // highlight that label's sites
 *   </script>
 *
 * Choosing a label (chooser or picker.select) marks its sites with class
 * "legal" (all other sites lose it); a label without sites ("gold", "pass")
 * fills the field at once. Clicking a legal site, or Enter/Space on it when it
 * has keyboard focus, fills the field with that order's exact text, marks the
 * site "picked", fires "input" and "change" on the field and calls onPick.
 * Before any label is chosen the board shows every site of every legal order.
 * A click (or Enter) on a site that is not legal for the chosen label marks
 * it "refused" and calls onRefuse(site, label or null), so the page can say
 * why. A site that several orders of one label share (a tile's rotations and
 * followers, each order's "steps") calls onChoose with them, which asks the
 * player and fills the field; without onChoose the first is taken. Before a
 * label is chosen, a site the orders of several labels share calls onChoose
 * with all of them (without onChoose it focuses the chooser). The board is one Tab stop (the first legal site); the arrow keys
 * move between legal sites in the board's order, Home and End to the first
 * and last; each carries a label naming its order(s), before and after a
 * label is chosen.
 * picker.orders(label) lists a label's orders; picker.labels() the labels in
 * order of first appearance; picker.clear() drops the choice; picker.detach()
 * removes the listeners.
 */
(function (root) {
  "use strict";

  function one(x) {
    if (!x) return null;
    return typeof x === "string" ? document.querySelector(x) : x;
  }

  function hasClass(el, name) {
    return (" " + (el.getAttribute("class") || "") + " ").indexOf(" " + name + " ") >= 0;
  }

  // SVG elements: classList exists in modern browsers; attribute edits work everywhere.
  function setClass(el, name, on) {
    var list = (el.getAttribute("class") || "").split(/\s+/).filter(function (c) {
      return c && c !== name;
    });
    if (on) list.push(name);
    el.setAttribute("class", list.join(" "));
  }

  function attach(options) {
    var host = one(options.board);
    if (!host) throw new Error("PbemBoard: board element not found");
    var svg = host.tagName && host.tagName.toLowerCase() === "svg" ? host : host.querySelector("svg");
    if (!svg) throw new Error("PbemBoard: no <svg> in the board element");
    var input = one(options.input);
    var chooser = one(options.chooser);
    var all = (options.orders || []).slice();

    var labels = [];
    var byLabel = {};
    all.forEach(function (o) {
      if (!byLabel[o.label]) { byLabel[o.label] = []; labels.push(o.label); }
      byLabel[o.label].push(o);
    });

    var sites = Array.prototype.slice.call(svg.querySelectorAll(".site[data-site]"));
    var siteEls = {};
    sites.forEach(function (el) { siteEls[el.getAttribute("data-site").toUpperCase()] = el; });

    var current = null;   // chosen label, or null
    var active = {};      // SITE -> order for clicks now

    function key(site) { return String(site).toUpperCase(); }

    function paint(orders) {
      active = {};
      orders.forEach(function (o) {
        if (o.site && !active[key(o.site)]) active[key(o.site)] = o;
      });
      sites.forEach(function (el) {
        var k = el.getAttribute("data-site").toUpperCase();
        var order = active[k];
        setClass(el, "legal", !!order);
        setClass(el, "picked", false);
        setClass(el, "refused", false);
        if (order) {
          var texts = (current !== null ? byLabel[current] : all).filter(function (o) {
            return o.site && key(o.site) === k;
          }).map(function (o) { return o.text; });
          el.setAttribute("tabindex", "0");
          el.setAttribute("role", "button");
          // the name starts with what the site shows (its tooltip and
          // coordinate), so speech input and screen readers agree with the eye
          // (its title and each drawn text apart: "T21" and "0 90" read "T21 0 90")
          var shown = Array.prototype.map.call(el.querySelectorAll("title, text"), function (t) {
            return t.textContent || "";
          }).join(" ").replace(/\s+/g, " ").trim() || (el.textContent || "").replace(/\s+/g, " ").trim();
          var ask = typeof options.onChoose === "function";
          el.setAttribute("aria-label", shown + ": " + (options.siteLabel ? options.siteLabel(texts) :
            texts.length > 3 ?
            texts.length + (ask ? " orders, press Enter to choose" : " orders, choose one in the list first") :
            texts.join(" or ")));
        } else {
          el.removeAttribute("tabindex");
          el.removeAttribute("role");
          el.removeAttribute("aria-label");
        }
      });
      // one Tab stop for the board: the first legal site; arrows move on
      legalSites().forEach(function (el, i) { el.setAttribute("tabindex", i === 0 ? "0" : "-1"); });
    }

    function legalSites() {
      return sites.filter(function (el) { return hasClass(el, "legal"); });
    }

    function fill(order) {
      if (input) {
        if (options.append && input.value.replace(/\s+$/, "") !== "") {
          input.value = input.value.replace(/\s+$/, "") + "\n" + order.text;
        } else {
          input.value = order.text;
        }
        ["input", "change"].forEach(function (type) {
          var ev;
          if (typeof Event === "function") ev = new Event(type, {bubbles: true});
          else { ev = document.createEvent("Event"); ev.initEvent(type, true, false); }
          input.dispatchEvent(ev);
        });
      }
      if (typeof options.onPick === "function") options.onPick(order);
    }

    function select(label) {
      if (label === null || label === undefined || label === "") {
        current = null;
        paint(all);
        if (chooser) chooser.value = "";
        return;
      }
      var orders = byLabel[label];
      if (!orders) throw new Error("PbemBoard: no legal order labelled " + label);
      current = label;
      if (chooser && chooser.value !== label) chooser.value = label;
      var withSite = orders.filter(function (o) { return !!o.site; });
      paint(withSite);
      if (withSite.length === 0) fill(orders[0]);
    }

    function pick(el) {
      if (current === null) {
        // Nothing chosen yet: a site that only one label can use picks it.
        var k = el.getAttribute("data-site").toUpperCase();
        var matches = all.filter(function (o) { return o.site && key(o.site) === k; });
        var distinct = matches.map(function (o) { return o.label; })
          .filter(function (l, i, a) { return a.indexOf(l) === i; });
        if (distinct.length > 1 && typeof options.onChoose === "function") {
          // orders of several labels share the site: the page asks which
          sites.forEach(function (s) { setClass(s, "picked", s === el); });
          options.onChoose(el.getAttribute("data-site"), matches, fill);
          return;
        }
        if (distinct.length !== 1) {
          if (distinct.length > 1 && chooser) chooser.focus();
          return;
        }
        select(distinct[0]);
      }
      var k2 = el.getAttribute("data-site").toUpperCase();
      var order = active[k2];
      if (!order) return;
      sites.forEach(function (s) { setClass(s, "picked", s === el); });
      var here = byLabel[current].filter(function (o) { return o.site && key(o.site) === k2; });
      if (here.length > 1 && typeof options.onChoose === "function") {
        options.onChoose(el.getAttribute("data-site"), here, fill);
      } else {
        fill(order);
      }
    }

    function siteOf(target) {
      var el = target;
      while (el && el !== svg) {
        if (el.getAttribute && el.getAttribute("data-site") !== null && hasClass(el, "site")) return el;
        el = el.parentNode;
      }
      return null;
    }

    function refuse(el) {
      sites.forEach(function (s) { setClass(s, "refused", s === el); });
      if (typeof options.onRefuse === "function") options.onRefuse(el.getAttribute("data-site"), current);
    }

    function onClick(ev) {
      var el = siteOf(ev.target);
      if (!el) return;
      ev.preventDefault();
      if (hasClass(el, "legal")) pick(el); else refuse(el);
    }

    var STEPS = {ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1, Right: 1, Down: 1, Left: -1, Up: -1};

    function onKey(ev) {
      if (STEPS[ev.key] !== undefined || ev.key === "Home" || ev.key === "End") {
        var from = siteOf(ev.target);
        var list = legalSites();
        var i = list.indexOf(from);
        if (i < 0) return;
        var j = ev.key === "Home" ? 0 : ev.key === "End" ? list.length - 1 :
          Math.max(0, Math.min(list.length - 1, i + STEPS[ev.key]));
        ev.preventDefault();
        from.setAttribute("tabindex", "-1");
        list[j].setAttribute("tabindex", "0");
        list[j].focus();
        return;
      }
      if (ev.key !== "Enter" && ev.key !== " " && ev.key !== "Spacebar") return;
      var el = siteOf(ev.target);
      if (el && hasClass(el, "legal")) { ev.preventDefault(); pick(el); }
    }

    function onChoose() { select(chooser.value); }

    if (chooser && chooser.tagName.toLowerCase() === "select" && chooser.options.length === 0) {
      var blank = document.createElement("option");
      blank.value = "";
      blank.textContent = options.placeholder || "choose an order\u2026";
      chooser.appendChild(blank);
      labels.forEach(function (l) {
        var opt = document.createElement("option");
        opt.value = l;
        var n = byLabel[l].map(function (o) { return o.site && key(o.site); })
          .filter(function (x, i, a) { return x && a.indexOf(x) === i; }).length;
        opt.textContent = options.optionText ? options.optionText(l, n) :
          n ? l + " (" + n + (n === 1 ? " site)" : " sites)") : l;
        chooser.appendChild(opt);
      });
    }

    svg.addEventListener("click", onClick);
    svg.addEventListener("keydown", onKey);
    if (chooser) chooser.addEventListener("change", onChoose);
    setClass(svg, "pbem-board", true);
    paint(all);

    return {
      select: select,
      clear: function () { select(null); },
      labels: function () { return labels.slice(); },
      orders: function (label) { return (byLabel[label] || []).slice(); },
      current: function () { return current; },
      detach: function () {
        svg.removeEventListener("click", onClick);
        svg.removeEventListener("keydown", onKey);
        if (chooser) chooser.removeEventListener("change", onChoose);
      }
    };
  }

  /*
   * PbemBoard.zoom(host, bar): the zoom buttons of a board that opens
   * fitted to its box. ``bar`` holds buttons with data-zoom="in", "out" and
   * "fit"; zooming widens the SVG (the CSS variable --zoom, class "zoomed"
   * on host: host scrolls) and centres the box on the legal sites, so none
   * is left to guess; "fit" shows the whole board again. The level holds
   * while host's SVG is replaced. Returns {level: function () {}}.
   */
  var LEVELS = [1, 1.6, 2.4, 3.4];

  function zoom(hostSel, barSel) {
    var host = one(hostSel);
    var bar = one(barSel);
    var level = 0;
    if (!host || !bar) return null;

    function centre() {
      var legal = host.querySelectorAll(".site.legal, .site.picked");
      if (!legal.length) return;
      var box = host.getBoundingClientRect();
      var x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
      Array.prototype.forEach.call(legal, function (el) {
        var r = el.getBoundingClientRect();
        x0 = Math.min(x0, r.left); y0 = Math.min(y0, r.top);
        x1 = Math.max(x1, r.right); y1 = Math.max(y1, r.bottom);
      });
      // the first legal site at least is shown; as many more as fit around it
      var first = legal[0].getBoundingClientRect();
      var cx = x1 - x0 <= box.width ? (x0 + x1) / 2 : first.left + first.width / 2;
      var cy = y1 - y0 <= box.height ? (y0 + y1) / 2 : first.top + first.height / 2;
      host.scrollLeft += cx - (box.left + box.width / 2);
      host.scrollTop += cy - (box.top + box.height / 2);
    }

    function set(i) {
      level = Math.max(0, Math.min(LEVELS.length - 1, i));
      host.style.setProperty("--zoom", String(LEVELS[level]));
      setClass(host, "zoomed", level > 0);
      Array.prototype.forEach.call(bar.querySelectorAll("[data-zoom]"), function (b) {
        var what = b.getAttribute("data-zoom");
        b.disabled = what === "in" ? level === LEVELS.length - 1 : level === 0;
      });
      if (level > 0) centre(); else { host.scrollLeft = 0; host.scrollTop = 0; }
    }

    bar.addEventListener("click", function (ev) {
      var b = ev.target.closest ? ev.target.closest("[data-zoom]") : null;
      if (!b) return;
      var what = b.getAttribute("data-zoom");
      set(what === "in" ? level + 1 : what === "out" ? level - 1 : 0);
    });
    bar.hidden = false;
    set(0);
    return {level: function () { return LEVELS[level]; }};
  }

  root.PbemBoard = {attach: attach, zoom: zoom};
})(typeof window !== "undefined" ? window : this);
