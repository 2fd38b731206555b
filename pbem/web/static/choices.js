/* The order page's questions after a click on a site (order.js): the legal
   orders that site shares differ in their "steps" (pbem.engine.api
   Action.steps, [[question, answer], ...]; Die Stadt: the tile's rotation,
   then the follower). Each question whose answers differ among the orders
   still possible is asked as a row of buttons in the box; a question with
   one possible answer is not asked. An answer the board pictures (an
   element with data-choice equal to the answer, e.g. the drawn tile turned
   90°) shows that picture on its button, and once chosen it is drawn over
   the site; an answer whose orders put something at one spot of the site
   (the order's "mark", a compass point: the follower) rings that spot
   while it is pointed at or focused, and once chosen; an answer with a
   spot whose previous answer is pictured (a follower on the turned tile)
   shows that picture with the spot ringed on its button. Back starts
   again, Cancel (or Escape) drops the questions. The returned object's
   pending() says whether a question is still open (and focuses it).

     PbemChoices.ask(box, {site: "F7", orders: [...], board: el,
                           done: function (order) {}, cancel: function () {},
                           which: "choose an order…",   // the question when the orders'
                           labelText: function (label) {}})  // labels differ (or lack steps)
*/
(function (root) {
  "use strict";
  var SVGNS = "http://www.w3.org/2000/svg";

  function pictured(board, answer) {
    var found = null;
    Array.prototype.forEach.call(board ? board.querySelectorAll("[data-choice]") : [], function (el) {
      if (!found && el.getAttribute("data-choice") === answer) found = el;
    });
    return found;
  }

  function copyOf(src) {
    var copy = src.cloneNode(true);
    copy.removeAttribute("transform");
    copy.removeAttribute("data-choice");
    copy.removeAttribute("opacity");
    return copy;
  }

  function picture(board, answer) {
    var src = pictured(board, answer);
    if (!src || !src.getBBox) return null;
    var box = src.getBBox();
    var svg = document.createElementNS(SVGNS, "svg");
    svg.setAttribute("viewBox", [box.x, box.y, box.width, box.height].join(" "));
    svg.setAttribute("class", "choice-art");
    svg.setAttribute("aria-hidden", "true");
    svg.appendChild(copyOf(src));
    return svg;
  }

  function siteEl(board, site) {
    var el = null;
    Array.prototype.forEach.call(board.querySelectorAll(".site[data-site]"), function (s) {
      if (s.getAttribute("data-site").toUpperCase() === String(site).toUpperCase()) el = s;
    });
    return el;
  }

  // a group over the whole picture (above the notes and pieces drawn after
  // the site), in the site's coordinates; its box is the site's square
  function overlay(board, site, cls) {
    Array.prototype.forEach.call(board.querySelectorAll("." + cls), function (old) {
      old.parentNode.removeChild(old);
    });
    var el = siteEl(board, site);
    if (!el) return null;
    var g = document.createElementNS(SVGNS, "g");
    g.setAttribute("class", cls);
    g.setAttribute("pointer-events", "none");
    var svg = el.ownerSVGElement;
    if (svg && el.getCTM && svg.getCTM) {
      var m = svg.getCTM().inverse().multiply(el.getCTM());
      g.setAttribute("transform", "matrix(" + [m.a, m.b, m.c, m.d, m.e, m.f].join(" ") + ")");
      svg.appendChild(g);
    } else {
      el.appendChild(g);
    }
    return {g: g, at: (el.querySelector(".hex") || el).getBBox()};
  }

  // the latest pictured answer drawn on the site (none: the site as it was)
  function preview(board, site, answers) {
    var src = null;
    for (var i = answers.length - 1; i >= 0 && !src; i--) src = pictured(board, answers[i]);
    var o = overlay(board, site, "choice-preview");
    if (!o || !src) return;
    var art = src.getBBox();
    var copy = copyOf(src);
    copy.setAttribute("transform", "translate(" + o.at.x + " " + o.at.y + ") scale(" + o.at.width / art.width +
      ") translate(" + (-art.x) + " " + (-art.y) + ")");
    o.g.appendChild(copy);
  }

  // an answer's picture when only the answer before it is pictured (a
  // follower on the turned tile): that picture with the answer's spot ringed
  function pictureWithSpot(board, before, spot) {
    var svg = before && SPOT[spot] ? picture(board, before) : null;
    if (!svg) return null;
    var box = svg.getAttribute("viewBox").split(" ").map(Number);
    var c = document.createElementNS(SVGNS, "circle");
    c.setAttribute("cx", box[0] + SPOT[spot][0] * box[2]);
    c.setAttribute("cy", box[1] + SPOT[spot][1] * box[3]);
    c.setAttribute("r", box[2] * 0.13);
    c.setAttribute("class", "choice-spot");
    svg.appendChild(c);
    return svg;
  }

  // where on the site an order puts something (its "mark", a compass point)
  var SPOT = {N: [0.5, 0.15], NE: [0.83, 0.17], E: [0.85, 0.5], SE: [0.83, 0.83],
    S: [0.5, 0.85], SW: [0.17, 0.83], W: [0.15, 0.5], NW: [0.17, 0.17]};
  function mark(board, site, spot) {
    var o = overlay(board, site, "choice-mark");
    if (!o || !SPOT[spot]) return;
    var c = document.createElementNS(SVGNS, "circle");
    c.setAttribute("cx", o.at.x + SPOT[spot][0] * o.at.width);
    c.setAttribute("cy", o.at.y + SPOT[spot][1] * o.at.height);
    c.setAttribute("r", Math.max(5, o.at.width * 0.13));
    o.g.appendChild(c);
  }

  // the questions each order answers: its steps; orders of several labels
  // (or without steps) answer "which order?" first (opts.which), by their text
  function withSteps(orders, which, labelText) {
    var mixed = orders.some(function (o) { return o.label !== orders[0].label; });
    return orders.map(function (o) {
      var steps = o.steps && o.steps.length ? o.steps.slice() : [];
      if (mixed || !steps.length) steps = [[which || "", steps.length ? (labelText ? labelText(o.label) : o.label) : o.text]].concat(steps);
      var copy = {};
      Object.keys(o).forEach(function (k) { copy[k] = o[k]; });
      copy.steps = steps;
      copy.original = o;
      return copy;
    });
  }

  function ask(box, opts) {
    opts.orders = withSteps(opts.orders, opts.which, opts.labelText);
    var answers = [];
    var asked = 0;      // answers the player gave (the others had one possibility)

    function possible() {
      return opts.orders.filter(function (o) {
        return answers.every(function (a, i) { return o.steps && o.steps[i] && o.steps[i][1] === a; });
      });
    }

    function close() {
      box.hidden = true;
      box.innerHTML = "";
      box.removeEventListener("keydown", onKey);
    }

    function next() {
      var rest = possible();
      var i = answers.length;
      if (opts.board) {
        preview(opts.board, opts.site, answers);
        mark(opts.board, opts.site, rest.length === 1 ? rest[0].mark : null);   // the order's spot, once chosen
      }
      if (rest.length === 1 || !rest[0].steps || i >= rest[0].steps.length) {
        close();
        opts.done(rest[0].original);
        return;
      }
      var choices = [];
      rest.forEach(function (o) { if (choices.indexOf(o.steps[i][1]) < 0) choices.push(o.steps[i][1]); });
      if (choices.length === 1) { answers.push(choices[0]); next(); return; }
      render(rest[0].steps[i][0], choices, rest);
    }

    function button(text, cls, onClick) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = cls;
      var span = document.createElement("span");
      span.textContent = text;
      b.appendChild(span);
      b.addEventListener("click", onClick);
      return b;
    }

    function render(question, choices, rest) {
      box.innerHTML = "";
      var head = document.createElement("p");
      head.className = "choice-q";
      var where = document.createElement("strong");
      where.textContent = [opts.site].concat(answers).join(" \u00b7 ");
      head.appendChild(where);
      head.appendChild(document.createTextNode(": " + question));
      var row = document.createElement("div");
      row.className = "choice-row";
      row.setAttribute("role", "group");
      row.setAttribute("aria-label", opts.site + ": " + question);
      choices.forEach(function (c) {
        var b = button(c, "choice", function () { answers.push(c); asked++; next(); });
        var spots = rest.filter(function (o) { return o.steps[answers.length][1] === c; })
          .map(function (o) { return o.mark || ""; })
          .filter(function (x, k, a) { return a.indexOf(x) === k; });
        var pic = picture(opts.board, c) ||
          pictureWithSpot(opts.board, answers[answers.length - 1], spots.length === 1 ? spots[0] : null) ||
          (answers.length && spots.length === 1 && !spots[0] ? picture(opts.board, answers[answers.length - 1]) : null);
        if (pic) b.insertBefore(pic, b.firstChild);
        // pointing at or focusing an answer marks its spot on the site
        if (opts.board && spots.length === 1) {
          var show = function () { mark(opts.board, opts.site, spots[0]); };
          b.addEventListener("mouseenter", show);
          b.addEventListener("focus", show);
        }
        row.appendChild(b);
      });
      var tools = document.createElement("div");
      tools.className = "row choice-tools";
      if (asked) tools.appendChild(button(box.getAttribute("data-back") || "Back", "secondary small",
        function () { answers = []; asked = 0; next(); }));
      tools.appendChild(button(box.getAttribute("data-cancel") || "Cancel", "secondary small", cancel));
      box.appendChild(head);
      box.appendChild(row);
      box.appendChild(tools);
      box.hidden = false;
      row.querySelector("button").focus();
    }

    function cancel() {
      answers = [];
      asked = 0;
      if (opts.board) { preview(opts.board, opts.site, answers); mark(opts.board, opts.site, null); }
      close();
      if (typeof opts.cancel === "function") opts.cancel();
    }

    function onKey(ev) {
      if (ev.key === "Escape" || ev.key === "Esc") { ev.preventDefault(); cancel(); }
    }

    box.addEventListener("keydown", onKey);
    next();
    // the question still open (the page asks for it before sending)
    function pending() {
      if (box.hidden) return false;
      var first = box.querySelector("button.choice");
      if (first) first.focus();
      return true;
    }

    return {close: close, pending: pending};
  }

  root.PbemChoices = {ask: ask};
})(typeof window !== "undefined" ? window : this);
