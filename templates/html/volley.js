/* The volley viewer: click an arrow, see what it carried.
 *
 * One copy serves every diagram on a page. Each diagram is a .volley-diagram element holding
 * the drawing, an empty panel and its data as JSON, the text of a template.vl-data; listeners are
 * installed on the document once and find their diagram from the event's target. This script
 * may run many times in one document (each fragment may bring it, and mkdocs-material's instant
 * navigation runs a new page's scripts again), so window.__volleyViewer marks the first run and
 * later runs only look for new diagrams. All text reaches the page through textContent and
 * setAttribute.
 */
(function () {
  "use strict";
  var ROOT = ".volley-diagram";
  var running = window.__volleyViewer;
  if (running) {
    if (!(running.version >= 4)) rowsForAnOlderViewer(); // a copy older than format 2
    (running.refresh || running.scan)(); // an older copy has only scan
    return;
  }

  var SVGNS = "http://www.w3.org/2000/svg";
  var HASH = /^#(.*)message-(\d+)$/;
  var WIDE_DRAWING = 720; // px of drawing worth keeping beside an open panel
  var diagrams = [];
  var lastActive = null;

  /* --- building DOM ------------------------------------------------------------------------ */

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    setAttrs(node, attrs);
    append(node, children);
    return node;
  }

  // Lengths read off the page (getBoundingClientRect) are the window's pixels; a length set in
  // CSS is the element's own, which a host page's CSS `zoom` scales once more. Read lengths
  // are divided by this before they are set.
  function zoomOf(node) {
    return node.currentCSSZoom || 1;
  }

  function setAttrs(node, attrs) {
    for (var name in attrs || {}) {
      if (attrs[name] === null || attrs[name] === undefined || attrs[name] === false) continue;
      if (name === "class") node.setAttribute("class", attrs[name]);
      else node.setAttribute(name, attrs[name] === true ? "" : String(attrs[name]));
    }
  }

  function append(node, children) {
    if (children === null || children === undefined) return;
    if (!Array.isArray(children)) children = [children];
    children.forEach(function (child) {
      if (child === null || child === undefined || child === false) return;
      if (Array.isArray(child)) append(node, child);
      else node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    });
  }

  // Feather-style line icons, drawn from fixed path data.
  var ICONS = {
    prev: "M15 18l-6-6 6-6",
    next: "M9 18l6-6-6-6",
    close: "M18 6L6 18M6 6l12 12",
    copy: "M9 9h11v11H9zM5 15H4V4h11v1",
    check: "M20 6L9 17l-5-5",
    pin: "M12 16v6M8 3h8l-1.5 6.5L18 13v3H6v-3l3.5-3.5z"
  };

  function icon(name) {
    var svg = document.createElementNS(SVGNS, "svg");
    svg.setAttribute("viewBox", "0 0 24 24");
    svg.setAttribute("aria-hidden", "true");
    var path = document.createElementNS(SVGNS, "path");
    path.setAttribute("d", ICONS[name]);
    svg.appendChild(path);
    return svg;
  }

  function iconButton(name, label, action, disabled) {
    return el("button", {
      type: "button", "class": "vl-icon-btn", "data-vl-action": action,
      "aria-label": label, title: label, disabled: !!disabled
    }, icon(name));
  }

  // Font Awesome's rotate and flip classes, as its stylesheet turns an icon.
  var TURNS = {
    "rotate-90": "rotate(90deg)", "rotate-180": "rotate(180deg)", "rotate-270": "rotate(270deg)",
    "flip-horizontal": "scale(-1, 1)", "flip-vertical": "scale(1, -1)", "flip-both": "scale(-1, -1)"
  };

  // A label's styled spans: [[{t, b, i, s, c, h, icon, turn}, ...], ...] one list per line.
  function spans(lines) {
    var out = [];
    lines.forEach(function (line, index) {
      if (index) out.push(el("br"));
      line.forEach(function (span) {
        var node;
        if (span.icon) {
          node = document.createElementNS(SVGNS, "svg");
          node.setAttribute("viewBox", "0 0 " + span.icon[0] + " " + span.icon[1]);
          node.setAttribute("aria-hidden", "true");
          var path = document.createElementNS(SVGNS, "path");
          path.setAttribute("d", span.icon[2]);
          node.appendChild(path);
          if (TURNS[span.turn]) node.style.transform = TURNS[span.turn];
        } else {
          node = document.createTextNode(span.t);
          if (span.c) node = el("code", null, node);
          if (span.s) node = el("s", null, node);
          if (span.i) node = el("em", null, node);
          if (span.b) node = el("strong", null, node);
        }
        if (span.h) node = el("a", { href: span.h }, node);
        out.push(node);
      });
    });
    return out;
  }

  /* --- colouring raw bodies ------------------------------------------------------------------ */
  // The page carries each body once, as text; its raw view is coloured here when first shown.
  // `payload.colour` (volley/text/highlight.py) names the kind of text. Each kind is a list of
  // [class, pattern]: the first pattern that matches at a place colours that run, text that no
  // pattern matches stays plain, so the runs always join back to the body exactly.
  var STRING = /"(?:[^"\\\n]|\\.)*"/.source;
  var COLOURS = {
    json: [
      ["key", STRING + /(?=\s*:)/.source],
      ["str", STRING],
      ["num", /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/.source],
      ["const", /\b(?:true|false|null)\b/.source],
      ["pun", /[{}[\],:]/.source]
    ],
    yaml: [
      ["com", /^[ \t]*#.*/.source],
      ["key", /^[ \t]*(?:- +)?[^\s#:][^:\n]*?(?=:(?:[ \t]|$))/.source],
      ["pun", /:(?=[ \t]|$)/.source],
      ["val", /[^\n]+/.source]
    ],
    xml: [
      ["com", /<!--[\s\S]*?-->/.source],
      ["key", /<\/?[\w:.-]+|\/?>/.source],
      ["attr", /[\w:.-]+(?==)/.source],
      ["str", /"[^"<]*"|'[^'<]*'/.source]
    ]
  };
  var MAX_COLOURED = 256 * 1024; // a longer body is shown plain: colouring is a nicety
  var patterns = {};

  // [[class, text], ...] covering `text`; class "" is plain.
  function runs(text, kind) {
    var rules = COLOURS[kind];
    if (!rules || !text || text.length > MAX_COLOURED) return [["", text]];
    var pattern = patterns[kind] || (patterns[kind] = new RegExp(rules.map(function (rule) {
      return "(" + rule[1] + ")";
    }).join("|"), "gm"));
    pattern.lastIndex = 0;
    var out = [], at = 0, match;
    while ((match = pattern.exec(text))) {
      if (!match[0]) { pattern.lastIndex++; continue; }
      if (match.index > at) out.push(["", text.slice(at, match.index)]);
      for (var i = 1; match[i] === undefined; i++);
      out.push([rules[i - 1][0], match[0]]);
      at = match.index + match[0].length;
    }
    if (at < text.length) out.push(["", text.slice(at)]);
    return out;
  }

  // An HTTP message, line by line: the request or status line and the headers, each line
  // pattern's groups taking the classes listed with it; after the blank line, the body, coloured
  // as JSON when it is JSON.
  var HTTP_LINES = [
    [/^([A-Z]+)( +)(\S+)( +)(HTTP\/[\d.]+)(\s*)$/, ["method", "", "target", "", "kw", ""]],
    [/^([A-Z]+)( +)(\S+)(\s*)$/, ["method", "", "target", ""]],
    [/^(HTTP\/[\d.]+)( +)(\d{3})(.*)$/, ["kw", "", "num", "reason"]],
    [/^([^\s:][^:]*)(:)(.*)$/, ["attr", "pun", "val"]]
  ];

  function colourHttp(text) {
    if (text.length > MAX_COLOURED) return [["", text]];
    var blank = /\r?\n\r?\n/.exec(text);
    var head = blank ? text.slice(0, blank.index) : text, rest = blank ? text.slice(blank.index) : "";
    var out = [];
    head.split(/(\r?\n)/).forEach(function (line) {
      for (var i = 0; i < HTTP_LINES.length; i++) {
        var match = HTTP_LINES[i][0].exec(line);
        if (!match) continue;
        HTTP_LINES[i][1].forEach(function (cls, index) {
          if (match[index + 1]) out.push([cls, match[index + 1]]);
        });
        return;
      }
      if (line) out.push(["", line]);
    });
    if (!rest) return out;
    var json = /^content-type:.*json/im.test(head) || /^\s*[[{]/.test(rest);
    return out.concat(runs(rest, json ? "json" : ""));
  }

  function coloured(payload) {
    var parts = payload.colour === "http" ? colourHttp(payload.body) : runs(payload.body, payload.colour);
    return parts.map(function (part) {
      return part[0] ? el("span", { "class": "vl-t-" + part[0] }, part[1]) : part[1];
    });
  }

  /* --- a diagram ---------------------------------------------------------------------------- */

  // The same fragment pasted twice into one page repeats its ids, which all start with the
  // diagram's prefix. The later copy takes the prefix PREFIX-2 (or -3...) on its ids, on what
  // refers to them and on its deep links, as the docs plugin names a diagram's second copy.
  function uniqueIds(root) {
    var panel = root.querySelector(":scope > .vl-layout > .vl-panel");
    if (!panel || document.getElementById(panel.id) === panel) return;
    var prefix = panel.id.replace(/-panel$/, ""), n = 2;
    while (document.getElementById(prefix + "-" + n + "-panel")) n++;
    var renamed = prefix + "-" + n;
    var rename = function (value) {
      return value.indexOf(prefix) === 0 ? renamed + value.slice(prefix.length) : value;
    };
    root.querySelectorAll("[id]").forEach(function (node) { node.id = rename(node.id); });
    root.querySelectorAll("[*|href]").forEach(function (node) { // href and SVG's xlink:href
      Array.prototype.forEach.call(node.attributes, function (attr) {
        if (attr.localName === "href" && attr.value.charAt(0) === "#") attr.value = "#" + rename(attr.value.slice(1));
      });
    });
    ["aria-labelledby", "aria-describedby", "aria-controls"].forEach(function (name) {
      root.querySelectorAll("[" + name + "]").forEach(function (node) {
        node.setAttribute(name, node.getAttribute(name).split(" ").map(rename).join(" "));
      });
    });
    var anchor = root.getAttribute("data-anchor");
    if (anchor) root.setAttribute("data-anchor", rename(anchor));
    // The drawing's own rules (its rects' dark colours) name it by its id, PREFIX-svg (or
    // PREFIX alone, as earlier releases wrote it): they follow it.
    var own = new RegExp("#" + prefix.replace(/[^\w-]/g, "\\$&") + "(-svg)?(?![\\w-])", "g");
    root.querySelectorAll("svg style").forEach(function (style) {
      style.textContent = style.textContent.replace(own, "#" + renamed + "$1");
    });
  }

  function Diagram(root) {
    var data = root.querySelector(":scope > template.vl-data");
    // as written, before a second copy's renaming: a page of pages links to it by this
    this.written = root.getAttribute("data-anchor") || "";
    uniqueIds(root);
    this.root = root;
    this.data = JSON.parse((data.content || data).textContent);
    var format = this.data.format || 1;
    this.data.messages.forEach(function (message) {
      message.payloads.forEach(function (payload) {
        if (format === 2) payload.hasTable = hasRows(payload);
        else if (format > 2) payload.hasTable = false; // a newer volley's: its Raw view only
      });
    });
    this.panel = root.querySelector(":scope > .vl-layout > .vl-panel");
    this.anchor = root.getAttribute("data-anchor") || "";
    this.current = 0;
    this.tab = 0;
    this.allRows = false; // every row of a long table shown, not its first ones
    this.view = "table";
    this.wrap = false;
    this.pinned = null; // the payload kept open beside the others: {message, payload, view}
    // A host page that keeps its own state in the address (the editor's share link) says so.
    this.address = !root.closest("[data-volley-keep-address]");
    this.groups = {};
    var self = this;
    var svg = root.querySelector(":scope > .vl-layout .vl-canvas > svg");
    if (svg) {
      svg.setAttribute("role", "group"); // an img hides its children from screen readers
      // A group's name is read as focus enters it: the title, not the description of every
      // message, which the messages' own buttons now say one by one.
      var title = svg.querySelector(":scope > title[id]");
      if (title) svg.setAttribute("aria-labelledby", title.id);
      else svg.removeAttribute("aria-labelledby");
    }
    root.querySelectorAll(".vl-canvas [data-message]").forEach(function (group) {
      var n = parseInt(group.getAttribute("data-message"), 10);
      var message = self.data.messages[n - 1];
      if (!message || self.groups[n]) return;
      self.groups[n] = group;
      group.setAttribute("tabindex", "0");
      group.setAttribute("role", "button");
      group.setAttribute("aria-label", message.aria);
      group.setAttribute("aria-controls", self.panel.id);
      group.setAttribute("aria-expanded", "false");
      if (message.payloads.length) group.setAttribute("data-has-payload", "true");
    });
    if (this.data.messages.some(function (message) { return message.payloads.length; })) {
      // Said above the drawing, where a reader looks first, and only where a click shows something.
      var figure = root.querySelector(":scope > .vl-layout > .vl-figure");
      figure.insertBefore(el("figcaption", { "class": "vl-hint" }, [
        "Click an arrow to see what it carries", el("span", { "class": "vl-hint-keys" }, [
          " \u00b7 ", el("kbd", null, "\u2190"), " ", el("kbd", null, "\u2192"), " step \u00b7 ",
          el("kbd", null, "Esc"), " closes"
        ])
      ]), figure.firstChild);
    }
    this.svg = svg;
    this.folds = null; // the blocks that fold, measured on the first fold (see foldable)
    this.folded = [];
    if (svg) {
      this.heads = stickyHeads(svg, root.querySelector(":scope > .vl-layout > .vl-figure"));
      foldable(svg);
    }
    this.width = parseFloat(root.getAttribute("data-width")) || 0;
    this.zoom = 0; // 0: the page's own sizing; else the drawing's width as a multiple of the pane's
    if (svg) {
      this.zoomBar = el("div", { "class": "vl-zoom", role: "group", "aria-label": "Zoom", hidden: true }, [
        el("button", { type: "button", "data-vl-zoom": "out", "aria-label": "Zoom out", title: "Zoom out" }, "\u2212"),
        el("button", { type: "button", "data-vl-zoom": "fit", "aria-label": "Fit to width", title: "Fit to width" }, "Fit"),
        el("button", { type: "button", "data-vl-zoom": "in", "aria-label": "Zoom in", title: "Zoom in" }, "+")
      ]);
      svg.parentNode.parentNode.insertBefore(this.zoomBar, this.heads ? this.heads.heads : svg.parentNode);
    }
    this.title = svg && rightToLeftTitle(svg);
    if (svg) svg.parentNode.addEventListener("scroll", this.edges.bind(this), { passive: true });
    this.fit();
    if (window.ResizeObserver) new ResizeObserver(this.fit.bind(this)).observe(root);
    // Read out by screen readers when focus moves into the panel rather than onto a message.
    this.status = el("p", { "class": "vl-sr", role: "status", "aria-live": "polite" });
    root.appendChild(this.status);
    root.classList.add("vl-js");
  }

  // Put the panel beside the drawing only if the drawing keeps its own width (up to WIDE_DRAWING)
  // next to it; otherwise the panel sits below, as a sheet at the bottom of the window.
  Diagram.prototype.fit = function () {
    // the width its layout shares out: a diagram with a theme of its own is a padded card
    var style = getComputedStyle(this.root);
    var box = this.root.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    this.fitHeight();
    var panel = this.pinned ? Math.min(Math.max(640, 0.55 * box), 1000) : Math.min(Math.max(360, 0.38 * box), 540);
    var wide = box - panel - 20 >= Math.min(this.width || WIDE_DRAWING, WIDE_DRAWING);
    var moved = wide !== this.root.classList.contains("vl-wide");
    if (moved) this.root.classList.toggle("vl-wide", wide);
    // A pinned payload sits beside the open one where the panel has room for two, else above it.
    var side = (wide ? panel : box) >= 620;
    if (side !== this.root.classList.contains("vl-pin-side")) this.root.classList.toggle("vl-pin-side", side);
    if (this.zoomBar) {
      var canvas = this.svg.parentNode;
      // Offered where the drawing does not fit its pane at its own size, or once zoomed.
      var crowded = (this.width || 0) > canvas.clientWidth + 1;
      this.zoomBar.hidden = !crowded && !this.zoom;
      if (this.zoom) this.setZoom("keep");
    }
    if (this.svg) { // where the pane starts below the hint and the zoom bar, for its shades
      this.svg.parentNode.parentNode.style.setProperty("--vl-canvas-top", this.svg.parentNode.offsetTop + "px");
    }
    this.edges();
    if (this.current) this.loosenHead();
    // The panel went from beside the drawing to a sheet over the window's bottom (or back):
    // the open message stays in sight, above the sheet. Scrolled to once the zoom bar and the
    // pane have their new places, which move the drawing down.
    var open = moved && this.current && this.groups[this.current];
    if (open) this.reveal(open);
  };

  // The window's height in the panel's own pixels, for its heights (`vh` is the window's
  // height in CSS pixels, which a host page's CSS `zoom` scales: at 2 the sheet was taller
  // than the window). Set again when the window's height alone changes (a phone's address
  // bar, a keyboard), which leaves the diagram's width as it was.
  Diagram.prototype.fitHeight = function () {
    var zoom = zoomOf(this.root);
    if (this.panel && zoom !== 1) this.panel.style.setProperty("--vl-vh", window.innerHeight / zoom / 100 + "px");
    else if (this.panel) this.panel.style.removeProperty("--vl-vh");
  };

  // A drawing wider than its pane scrolls sideways: a shade at each edge that hides more of
  // it says so (on a phone most labels would otherwise start cut off, with no other sign).
  Diagram.prototype.edges = function () {
    var canvas = this.svg && this.svg.parentNode;
    if (!canvas) return;
    var more = canvas.scrollWidth - canvas.clientWidth;
    var figure = canvas.parentNode;
    figure.classList.toggle("vl-more-right", more > 1 && canvas.scrollLeft < more - 1);
    figure.classList.toggle("vl-more-left", more > 1 && canvas.scrollLeft > 1);
    if (this.title) placeTitle(this.title, this.svg, canvas);
  };

  // A right-to-left title heads the drawing from its right end, which a pane narrower than the
  // drawing (a phone's) opens far from: there it keeps to the pane's right edge, as far from
  // it as from the drawing's, up to its own place, so that it is read where the drawing opens.
  function rightToLeftTitle(svg) {
    var group = svg.querySelector(":scope > .title");
    var box = svg.viewBox && svg.viewBox.baseVal;
    if (!group || !box || !group.querySelector('[text-anchor="end"]')) return null; // (or its runs)
    var drawn = group.getBBox();
    return { group: group, right: drawn.x + drawn.width, gap: box.x + box.width - drawn.x - drawn.width };
  }

  function placeTitle(title, svg, canvas) {
    var box = svg.viewBox.baseVal;
    var scale = svg.getBoundingClientRect().width / zoomOf(canvas) / box.width;
    if (!scale) return;
    var shown = box.x + (canvas.scrollLeft + canvas.clientWidth) / scale; // the pane's right edge
    var shift = Math.min(0, shown - title.gap - title.right);
    if (shift < -0.5) title.group.setAttribute("transform", "translate(" + shift.toFixed(2) + " 0)");
    else title.group.removeAttribute("transform");
  }

  /* --- the sticky row of participants ------------------------------------------------------- */
  // Once the drawing's top boxes scroll out of sight, a copy of them stays at the top of the
  // window (or of the scrolling pane), following the drawing sideways and at its scale, so a
  // reader far down a long diagram still knows which lifeline is whose. The copy is made of
  // clones of the drawing's own shapes.
  function stickyHeads(svg, figure) {
    var groups = svg.querySelectorAll(":scope > .participants > .participant");
    if (!groups.length || !figure || !svg.viewBox || !svg.viewBox.baseVal) return null;
    var box = svg.viewBox.baseVal;
    var strip = document.createElementNS(SVGNS, "svg");
    strip.setAttribute("class", "volley");
    strip.setAttribute("aria-hidden", "true");
    strip.setAttribute("font-family", svg.getAttribute("font-family") || "sans-serif");
    var top = Infinity, bottom = -Infinity, found = false;
    groups.forEach(function (group) {
      // A participant's group holds its box at the top and its copy at the foot: keep the
      // shapes nearer the top.
      var shapes = Array.prototype.filter.call(group.children, function (child) { return child.getBBox; });
      var ys = shapes.map(function (child) { return child.getBBox(); });
      var min = Math.min.apply(null, ys.map(function (b) { return b.y; }));
      var max = Math.max.apply(null, ys.map(function (b) { return b.y; }));
      var copy = document.createElementNS(SVGNS, "g");
      ["class", "data-participant", "data-name"].forEach(function (name) {
        if (group.hasAttribute(name)) copy.setAttribute(name, group.getAttribute(name));
      });
      shapes.forEach(function (child, index) {
        if (max - min > 1 && ys[index].y > (min + max) / 2) return;
        copy.appendChild(child.cloneNode(true));
        top = Math.min(top, ys[index].y);
        bottom = Math.max(bottom, ys[index].y + ys[index].height + 3); // the shadow's offset
        found = true;
      });
      strip.appendChild(copy);
    });
    if (!found || !(bottom > top)) return null;
    top -= 4;
    bottom += 4;
    strip.setAttribute("viewBox", [box.x, top, box.width, bottom - top].join(" "));
    var track = el("div", { "class": "vl-heads-track" }, strip);
    var heads = el("div", { "class": "vl-heads", "aria-hidden": "true" }, track);
    var canvas = svg.parentNode;
    figure.insertBefore(heads, canvas);
    var state = { svg: svg, strip: strip, heads: heads, track: track, canvas: canvas, top: top, bottom: bottom, box: box };
    canvas.addEventListener("scroll", function () { placeHeads(state); }, { passive: true });
    placeHeads(state);
    return state;
  }

  // Show the copy when the drawing's top boxes are above the sticky line and the drawing's
  // foot is still below it; match the drawing's drawn width and sideways scroll.
  function placeHeads(state) {
    var rect = state.svg.getBoundingClientRect();
    if (!rect.width) return;
    var scale = rect.width / state.box.width;
    var line = state.heads.getBoundingClientRect().top; // where the sticky strip sits now
    var headsGone = rect.top + (state.bottom - state.box.y) * scale < line;
    var footVisible = rect.bottom - (state.bottom - state.top) * scale > line;
    var on = headsGone && footVisible;
    state.heads.classList.toggle("vl-heads-on", on);
    if (!on) return;
    var canvasRect = state.canvas.getBoundingClientRect();
    var zoom = zoomOf(state.heads);
    state.track.style.width = canvasRect.width / zoom + "px";
    state.strip.style.width = rect.width / zoom + "px";
    state.strip.style.height = (state.bottom - state.top) * scale / zoom + "px";
    state.strip.style.transform = "translateX(" + (rect.left - canvasRect.left) / zoom + "px)";
  }

  function placeAllHeads() {
    diagrams.forEach(function (diagram) { if (diagram.heads) placeHeads(diagram.heads); });
  }

  /* --- blocks that fold -------------------------------------------------------------------- */
  // A block (loop, if, par...) folds to the band of its tab when its tab is clicked: what it
  // holds is hidden and everything below moves up. The drawing is laid out once, on the
  // server; folding only hides shapes and moves the rest by the height it saved, measured on
  // the first fold. A message opened inside a folded block (a deep link, a step) unfolds it.
  //
  // The blocks are drawn under the messages, so their buttons come in the reading order by
  // stand-ins: an empty group for each (its key), among the messages, before the first message
  // after the block's first line; Tab reaches a block's key just before what it holds.
  function foldable(svg) {
    var messages = Array.prototype.slice.call(svg.querySelectorAll(":scope > .messages > [data-message]"));
    svg.querySelectorAll(":scope > .blocks > .block").forEach(function (block, index) {
      var head = [];
      for (var child = block.firstElementChild; child; child = child.nextElementSibling) {
        if (child.classList.contains("separator")) break;
        if (!child.classList.contains("frame")) head.push(child);
      }
      var label = block.querySelector(":scope > .block-label");
      var kind = block.querySelector(":scope > .block-kind");
      if (!head.length || !kind) return;
      head.forEach(function (child) { child.setAttribute("data-vl-fold-head", ""); });
      block.classList.add("vl-foldable");
      block.setAttribute("data-vl-fold", index);
      var key = document.createElementNS(SVGNS, "g");
      key.setAttribute("class", "vl-fold-key");
      key.setAttribute("data-vl-fold-key", index);
      key.setAttribute("tabindex", "0");
      key.setAttribute("role", "button");
      key.setAttribute("aria-expanded", "true");
      key.setAttribute("aria-label", "Fold " + kind.textContent + (label ? " " + label.textContent : ""));
      var line = parseInt(block.getAttribute("data-line"), 10);
      var after = messages.filter(function (m) { return parseInt(m.getAttribute("data-line"), 10) > line; })[0];
      var parent = after ? after.parentNode : svg.querySelector(":scope > .messages") || svg;
      parent.insertBefore(key, after || null);
    });
  }

  // A block's key (see foldable), and the block a key stands for.
  function keyOf(block) {
    return block.ownerSVGElement.querySelector('.vl-fold-key[data-vl-fold-key="' + block.getAttribute("data-vl-fold") + '"]');
  }
  function blockOf(key) {
    return key.ownerSVGElement.querySelector('.block[data-vl-fold="' + key.getAttribute("data-vl-fold-key") + '"]');
  }

  // The shapes that move when a block folds, each with where it was drawn.
  Diagram.prototype.measureFolds = function () {
    var svg = this.svg;
    var units = [];
    var take = function (node) {
      if (!node.getBBox) return;
      var target = node;
      if (node.hasAttribute("transform")) { // a style transform would replace it: wrap instead
        target = document.createElementNS(SVGNS, "g");
        node.parentNode.insertBefore(target, node);
        target.appendChild(node);
      }
      var box = node.getBBox();
      if (node.hasAttribute("transform")) box = { x: box.x, y: box.y + 2, width: box.width, height: box.height }; // the shadow's offset
      units.push({ node: target, shape: node, top: box.y, bottom: box.y + box.height });
    };
    ["lifelines", "activations", "dividers", "messages", "notes"].forEach(function (name) {
      svg.querySelectorAll(":scope > ." + name + " > :not(.vl-fold-key)").forEach(take);
    });
    // A rect's colour (in .highlights) moves and shrinks as a frame does; so does a box's band
    // (in .boxes), which runs from the top boxes to those at the foot.
    svg.querySelectorAll(":scope > .participants > .participant > *, :scope > .blocks > .block > *, :scope > .highlights > .block > *, :scope > .boxes > .box > *").forEach(take);
    var blocks = [];
    // Coloured bands, then rects: in the drawing's order, outer first.
    var tints = Array.prototype.map.call(svg.querySelectorAll(":scope > .boxes .band:not([fill=none]), :scope > .highlights .highlight"), function (rect) {
      return { rect: rect, box: rect.getBBox() };
    });
    svg.querySelectorAll(":scope > .blocks > .block.vl-foldable").forEach(function (block) {
      var frame = block.querySelector(":scope > .frame");
      if (!frame) return;
      var box = frame.getBBox(), headBottom = box.y;
      block.querySelectorAll(":scope > [data-vl-fold-head]").forEach(function (head) {
        var b = head.getBBox();
        headBottom = Math.max(headBottom, b.y + b.height);
      });
      var inner = units.filter(function (unit) {
        return unit.shape.hasAttribute("data-message") && unit.top >= box.y && unit.bottom <= box.y + box.height;
      }).length;
      // Said in the folded band, under the tab: how much it holds.
      var count = document.createElementNS(SVGNS, "text");
      count.setAttribute("class", "vl-fold-count");
      count.setAttribute("x", box.x + 8);
      count.setAttribute("y", headBottom + 13);
      count.textContent = inner === 1 ? "1 message" : inner + " messages";
      block.appendChild(count);
      // On a rect or a band, the count's outline (which keeps lifelines off it) is its colour.
      var under = null; // the innermost: rects come outer first
      tints.forEach(function (tint) {
        var b = tint.box;
        if (box.x >= b.x && box.x <= b.x + b.width && headBottom >= b.y && headBottom <= b.y + b.height) under = tint.rect;
      });
      blocks.push({ node: block, key: keyOf(block), frame: frame, top: box.y, bottom: box.y + box.height, band: headBottom - box.y + 20, count: count, under: under });
    });
    var view = svg.viewBox.baseVal;
    this.folds = { units: units, blocks: blocks, height: view.height, top: view.y };
  };

  Diagram.prototype.toggleFold = function (block) {
    if (!this.folds) this.measureFolds();
    var fold = this.folds.blocks.filter(function (b) { return b.node === block; })[0];
    if (!fold) return;
    var at = this.folded.indexOf(fold);
    if (at >= 0) this.folded.splice(at, 1);
    else this.folded.push(fold);
    this.applyFolds();
  };

  // Unfold every folded block that holds message n; true if one did.
  Diagram.prototype.unfoldFor = function (n) {
    var group = this.groups[n];
    if (!this.folded.length || !group) return false;
    var unit = this.folds.units.filter(function (u) { return u.shape === group; })[0];
    if (!unit) return false;
    var before = this.folded.length;
    this.folded = this.folded.filter(function (fold) {
      return !(unit.top >= fold.top && unit.bottom <= fold.bottom);
    });
    if (this.folded.length === before) return false;
    this.applyFolds();
    return true;
  };

  Diagram.prototype.applyFolds = function () {
    var folds = this.folds;
    // Only the outermost folded blocks count: what a folded block holds is hidden anyway.
    var outer = this.folded.filter(function (fold) {
      return !this.folded.some(function (other) {
        return other !== fold && other.top <= fold.top && other.bottom >= fold.bottom;
      });
    }, this).sort(function (a, b) { return a.top - b.top; });
    var map = function (y) {
      var out = y;
      outer.forEach(function (fold) {
        var saved = fold.bottom - fold.top - fold.band;
        if (y >= fold.bottom) out -= saved;
        else if (y > fold.top + fold.band) out -= y - fold.top - fold.band;
      });
      return out;
    };
    var inside = function (unit) {
      return outer.some(function (fold) {
        if (unit.top < fold.top - 0.5 || unit.bottom > fold.bottom + 0.5) return false;
        var own = unit.shape === fold.frame || (unit.shape.parentNode === fold.node && unit.shape.hasAttribute("data-vl-fold-head"));
        return !own;
      });
    };
    folds.units.forEach(function (unit) {
      var shape = unit.shape;
      var hidden = inside(unit);
      unit.node.style.display = hidden ? "none" : "";
      if (hidden) return;
      unit.node.style.transform = "";
      var spans = unit.bottom - unit.top > 0 && outer.some(function (f) { return unit.top < f.top + f.band && unit.bottom > f.bottom - 0.5; });
      if (shape.tagName === "line") {
        if (unit.y1 === undefined) {
          unit.y1 = parseFloat(shape.getAttribute("y1"));
          unit.y2 = parseFloat(shape.getAttribute("y2"));
        }
        shape.setAttribute("y1", map(unit.y1));
        shape.setAttribute("y2", map(unit.y2));
      } else if (shape.tagName === "rect" && spans && unit.node === shape) {
        if (unit.y === undefined) {
          unit.y = parseFloat(shape.getAttribute("y"));
          unit.height = parseFloat(shape.getAttribute("height"));
        }
        shape.setAttribute("y", map(unit.y));
        shape.setAttribute("height", map(unit.y + unit.height) - map(unit.y));
      } else {
        var shift = map(unit.top) - unit.top;
        if (shift) unit.node.style.transform = "translate(0px, " + shift + "px)";
      }
    });
    folds.blocks.forEach(function (fold) {
      var folded = this.folded.indexOf(fold) >= 0;
      if (folded && fold.under) fold.count.style.stroke = getComputedStyle(fold.under).fill; // as the page's theme has it now
      fold.key.setAttribute("aria-expanded", folded ? "false" : "true");
      fold.node.classList.toggle("vl-folded", folded);
      var label = fold.key.getAttribute("aria-label").replace(/^(Fold|Unfold) /, "");
      fold.key.setAttribute("aria-label", (folded ? "Unfold " : "Fold ") + label);
    }, this);
    var height = map(folds.top + folds.height) - folds.top;
    var view = this.svg.viewBox.baseVal;
    this.svg.setAttribute("viewBox", [view.x, view.y, view.width, height].join(" "));
    this.svg.setAttribute("height", height);
  };

  /* --- zoom, where the drawing is wider than its pane ---------------------------------------- */
  // "Fit" draws the whole width in the pane (small on a phone); + and - step from there. The
  // drawing stays one SVG, so its arrows take clicks at any size; pinching zooms the page.
  var ZOOM_STEP = 1.4, ZOOM_MAX = 4;

  Diagram.prototype.setZoom = function (how) {
    var canvas = this.svg.parentNode;
    var natural = this.width || this.svg.viewBox.baseVal.width;
    var fitted = canvas.clientWidth / natural; // the drawing's scale when it fits the pane
    var now = this.zoom || this.svg.getBoundingClientRect().width / zoomOf(canvas) / canvas.clientWidth;
    var next = typeof how === "number" ? how : how === "fit" ? 1 : how === "in" ? now * ZOOM_STEP : how === "out" ? now / ZOOM_STEP : now;
    next = Math.max(Math.min(next, ZOOM_MAX / fitted), 1);
    var centre = (canvas.scrollLeft + canvas.clientWidth / 2) / Math.max(1, canvas.scrollWidth);
    this.zoom = next;
    this.svg.style.width = Math.round(next * canvas.clientWidth) + "px";
    this.svg.style.minWidth = "0";
    this.svg.style.maxWidth = "none";
    canvas.scrollLeft = centre * canvas.scrollWidth - canvas.clientWidth / 2; // keep the middle
    this.zoomBar.querySelector("[data-vl-zoom=out]").disabled = next <= 1;
    this.zoomBar.querySelector("[data-vl-zoom=in]").disabled = next >= ZOOM_MAX / fitted;
    if (this.heads) placeHeads(this.heads);
    this.edges();
  };

  Diagram.prototype.count = function () {
    return this.data.messages.length;
  };

  Diagram.prototype.open = function (n, options) {
    options = options || {};
    var message = this.data.messages[n - 1];
    if (!message) return;
    var self = this;
    diagrams.forEach(function (other) { // one open panel per page
      if (other !== self && other.current) other.close({ quiet: true });
    });
    if (n !== this.current) {
      this.tab = 0;
      this.allRows = false;
    }
    this.unfoldFor(n); // a deep link or a step into a folded block opens it
    this.mark(this.current, false);
    this.current = n;
    this.mark(n, true);
    this.root.classList.add("vl-open", "vl-has-selection");
    this.panel.hidden = false;
    this.draw();
    lastActive = this;
    var group = this.groups[n];
    if (options.focus === "panel") {
      // Keyboard users land in the panel, so Tab reaches its controls; say what opened.
      this.panel.focus({ preventScroll: true });
      this.status.textContent = message.aria;
    } else if (group && options.focus) {
      focusQuietly(group);
    }
    if (group) this.reveal(group, options.reveal);
    if (options.address !== false && this.address) setAddress("#" + this.anchor + "message-" + n);
  };

  // Keep the message in sight. Beside a wide drawing the panel covers nothing, so only a step
  // (`block` given) scrolls the window (a click only brings the message into the narrowed
  // pane sideways, `across`); a shared link (`block` "center") brings its message to the middle
  // of the window, where a reader looks, not to its edge. Below a narrow drawing the panel is
  // a sheet over the bottom of the window: the message goes above the sheet, however it was
  // opened.
  Diagram.prototype.reveal = function (group, block) {
    var sheet = !this.root.classList.contains("vl-wide");
    if (!block && !sheet) return this.across(group);
    // The sheet stands 8px above the bottom of the window; keep 16px between it and the message.
    var below = sheet ? this.panel.getBoundingClientRect().height / zoomOf(group) + 24 : 24;
    group.style.scrollMarginBottom = below + "px";
    this.clearOfHeads(group);
    group.scrollIntoView({ block: block === "center" && !sheet ? "center" : "nearest", inline: "nearest" });
    this.across(group);
    if (sheet) return;
    // Beside the drawing, the panel's head in sight too: on a short page with a tall panel,
    // a message brought to the middle scrolled the window past the panel's top.
    var over = this.panel.getBoundingClientRect().top;
    if (over < 0 && group.getBoundingClientRect().bottom - over <= window.innerHeight) {
      window.scrollBy(0, over);
    }
  };

  // Bring a message into the pane sideways, or where it is wider than the pane its words (its
  // label and payload marker), in the middle if they are too: scrolled to as a whole, such a
  // message showed one of its ends only; and the panel opening beside the drawing narrows the
  // pane, which hid a message on the drawing's right as it was clicked.
  Diagram.prototype.across = function (group) {
    var canvas = this.svg.parentNode;
    var pane = canvas.getBoundingClientRect();
    var margin = 32 * zoomOf(canvas), shift = 0; // clear of the edge's shade (28px)
    var whole = group.getBoundingClientRect();
    var left = whole.left, right = whole.right;
    if (right - left > pane.width - 2 * margin) {
      left = Infinity;
      right = -Infinity;
      group.querySelectorAll(".label, .marker").forEach(function (part) {
        var box = part.getBoundingClientRect();
        left = Math.min(left, box.left);
        right = Math.max(right, box.right);
      });
      if (left > right) return; // no words: nothing to choose between its ends
    }
    if (right - left > pane.width - 2 * margin) shift = (left + right - pane.left - pane.right) / 2;
    else if (left < pane.left + margin) shift = left - pane.left - margin;
    else if (right > pane.right - margin) shift = right - pane.right + margin;
    if (shift) canvas.scrollLeft += shift / zoomOf(canvas);
  };

  // A message scrolled to stops below the sticky copy of the top boxes, not under it: its top
  // margin is the copy's height at the drawing's scale now. (Set on the message as it is
  // scrolled to, not as a variable on the drawing: the browser would restyle every shape of
  // the drawing each time such a variable changed.)
  Diagram.prototype.clearOfHeads = function (group) {
    if (!this.heads) return;
    var drawn = this.svg.getBoundingClientRect().width / zoomOf(group) / this.heads.box.width;
    var heads = Math.round((this.heads.bottom - this.heads.top) * drawn);
    group.style.scrollMarginTop = "calc(var(--vl-top) + " + heads + "px)";
  };

  // `quiet`: another diagram's panel is opening; leave focus and the address to it.
  Diagram.prototype.close = function (options) {
    if (!this.current) return;
    var quiet = options && options.quiet;
    var group = this.groups[this.current];
    this.mark(this.current, false);
    this.current = 0;
    // A pinned payload stays pinned (Esc, to see the drawing whole, is not "unpin"): it is
    // beside the next message opened, until its own button lets it go.
    this.panel.hidden = true;
    this.root.classList.remove("vl-open", "vl-has-selection", "vl-pin-on");
    if (quiet) return;
    if (group) focusQuietly(group);
    if (this.address && HASH.test(location.hash)) setAddress(location.pathname + location.search);
  };

  // Open the message `delta` away from the open one (or from `from`, a focused message).
  Diagram.prototype.step = function (delta, from) {
    var base = this.current || from || (delta > 0 ? 0 : this.count() + 1);
    var n = Math.min(Math.max(base + delta, 1), this.count());
    var inPanel = this.panel.contains(document.activeElement);
    if (n !== this.current) this.open(n, { focus: inPanel ? "panel" : "message", reveal: "nearest" });
  };

  // Highlight a message and the message paired with it (its reply, or the request it answers).
  Diagram.prototype.mark = function (n, on) {
    var message = this.data.messages[n - 1];
    if (!message) return;
    var group = this.groups[n];
    if (group) {
      group.classList.toggle("vl-selected", on);
      group.setAttribute("aria-expanded", on ? "true" : "false");
    }
    var partner = this.groups[message.reply || message.request];
    if (partner) partner.classList.toggle("vl-paired", on);
  };

  Diagram.prototype.draw = function () {
    var message = this.data.messages[this.current - 1];
    var panel = this.panel;
    var id = panel.id;
    var parts = [this.header(message)];
    var shown = this.exchange(message);
    if (shown.length) {
      var tab = Math.min(this.tab, shown.length - 1);
      parts.push(el("div", { "class": "vl-tabs", role: "tablist", "aria-label": "Payloads" },
        shown.map(function (item, index) {
          var payload = item.payload;
          // a long label ends in an ellipsis (the whole of it shows on hover), so that
          // every tab of the exchange keeps its place in the row
          var label = [el("span", { "class": "vl-dir vl-dir-" + payload.dir }, payload.dir),
            el("span", { "class": "vl-tab-label", dir: "auto", title: payload.label }, payload.label)];
          if (item.via && item.via.badge) {  // the number the picture shows for it
            label.push(el("span", { "class": "vl-via", title: "Carried by " + named(item.via) },
              "#" + item.via.badge));
          }
          return el("button", {
            type: "button", role: "tab", "class": "vl-tab" + (item.via ? " vl-tab-via" : ""),
            id: id + "-tab-" + index,
            "aria-selected": index === tab ? "true" : "false", "aria-controls": id + "-body",
            tabindex: index === tab ? "0" : "-1", "data-vl-action": "tab", "data-vl-index": index
          }, label);
        })));
      parts.push(el("div", {
        "class": "vl-body", id: id + "-body", role: "tabpanel", "aria-labelledby": id + "-tab-" + tab
      }, this.payload(shown[tab].payload)));
    } else {
      parts.push(el("p", { "class": "vl-empty" }, "Nothing is carried on this arrow."));
    }
    var scroll = panel.scrollTop;
    if (this.pinned) {
      parts = [this.pinnedView(), el("div", { "class": "vl-live" }, parts)];
    }
    this.root.classList.toggle("vl-pin-on", !!this.pinned);
    panel.replaceChildren.apply(panel, parts);
    this.loosenHead();
    // called as its button is: by the name its label starts with, up to the first comma
    panel.setAttribute("aria-label", message.aria.split(",")[0] + " details");
    panel.scrollTop = this.redrawing ? scroll : 0;
  };

  // A header of much of the panel's height (long names, a long label, on a phone) scrolls
  // away with the payload: kept at the top, it left the payload a strip below it. Asked again
  // as the window changes (a phone turned), which changes both heights.
  Diagram.prototype.loosenHead = function () {
    var head = this.panel.querySelector(".vl-head");
    if (head) head.classList.toggle("vl-head-loose", head.offsetHeight > 0.4 * this.panel.clientHeight);
  };

  // What the panel shows for a message: its own payloads, then those of the message paired
  // with it, so a request's panel also holds the response its reply carried (and the reply's
  // panel the request), each marked with the message that carries it.
  Diagram.prototype.exchange = function (message) {
    var own = message.payloads.map(function (payload) { return { payload: payload, via: null }; });
    var partner = this.data.messages[(message.reply || message.request) - 1];
    if (!partner) return own;
    return own.concat(partner.payloads.map(function (payload) {
      return { payload: payload, via: partner };
    }));
  };

  // A message as its own button names it ("Message 11", "Unnumbered message"): the words
  // before the first comma of what a screen reader hears for it.
  function named(message) {
    return message.aria.split(",")[0];
  }

  Diagram.prototype.header = function (message) {
    var related = message.reply ? ["Reply", message.reply] : message.request ? ["Answers", message.request] : null;
    var children = [
      // the number the picture shows (its autonumber, or its payload marker's); empty if none
      el("span", { "class": "vl-badge", "aria-hidden": "true" }, message.badge),
      el("div", { "class": "vl-route" }, [
        el("span", { "class": "vl-who" }, message.from),
        el("span", { "class": "vl-arrow", "aria-label": message.both ? "and" : "to" }, message.both ? "\u2194" : "\u2192"),
        el("span", { "class": "vl-who" }, message.to)
      ]),
      el("div", { "class": "vl-tools" }, [
        iconButton("prev", "Previous message", "prev", message.n <= 1),
        iconButton("next", "Next message", "next", message.n >= this.count()),
        this.exchange(message).length ? iconButton("pin", "Pin this payload, to compare it with another", "pin") : null,
        iconButton("close", "Close", "close")
      ]),
      el("h2", { "class": "vl-title", dir: "auto" }, spans(message.label))
    ];
    if (related) {
      // the picture's number for it on the button; in words, the message as its own button
      // says it (a payload marker's number is no message's count)
      var other = this.data.messages[related[1] - 1];
      var said = related[0] + ": " + named(other) + (other.text ? ", " + other.text : "");
      children.push(el("button", {
        type: "button", "class": "vl-related", "data-vl-action": "goto", "data-vl-index": related[1],
        title: said, "aria-label": said
      }, [related[0] + " ", other.badge ? el("b", null, other.badge) : null, el("span", { dir: "auto" }, other.text)]));
    }
    return el("div", { "class": "vl-head" }, children);
  };

  // The pinned payload, as it was shown when pinned (table or raw), with its message's badge
  // and label and a button that unpins it. It stays while other arrows are clicked.
  Diagram.prototype.pinnedView = function () {
    var pin = this.pinned, payload = pin.payload;
    var view = payload.hasTable ? pin.view : "raw";
    return el("section", { "class": "vl-pin", "aria-label": "Pinned: " + pin.message.text + ", " + payload.label }, [
      el("div", { "class": "vl-pin-head" }, [
        el("span", { "class": "vl-badge", "aria-hidden": "true" }, pin.message.badge),
        el("div", { "class": "vl-pin-what" }, [
          el("span", { "class": "vl-pin-mark" }, "Pinned"),
          el("h3", { "class": "vl-title", dir: "auto" }, spans(pin.message.label)),
          el("span", { "class": "vl-pin-payload" }, [
            el("span", { "class": "vl-dir vl-dir-" + payload.dir }, payload.dir), " ",
            el("span", { dir: "auto" }, payload.label)
          ])
        ]),
        el("button", { type: "button", "class": "vl-unpin", "data-vl-action": "unpin" }, [icon("close"), "Unpin"])
      ]),
      el("div", { "class": "vl-body" }, view === "table" ? table(payload, false, this.data.kinds) :
        el("pre", { "class": "vl-raw vl-wrapped", tabindex: "0", "aria-label": payload.label + ", raw" },
          el("code", null, coloured(payload))))
    ]);
  };

  Diagram.prototype.pin = function () {
    var message = this.data.messages[this.current - 1];
    var shown = this.exchange(message);
    if (!shown.length) return;
    var item = shown[Math.min(this.tab, shown.length - 1)];
    this.pinned = { message: item.via || message, payload: item.payload, view: this.view };
    this.fit();
    this.redraw(".vl-unpin");
    this.status.textContent = "Pinned " + item.payload.label + ". Click another arrow to compare.";
  };

  Diagram.prototype.payload = function (payload) {
    var hasTable = payload.hasTable;
    var view = hasTable ? this.view : "raw";
    var toolbar = el("div", { "class": "vl-toolbar" }, [
      el("div", { "class": "vl-seg", role: "group", "aria-label": "Show as" }, [
        el("button", {
          type: "button", "data-vl-action": "view", "data-vl-view": "table",
          "aria-pressed": view === "table" ? "true" : "false", disabled: !hasTable,
          title: hasTable ? null : payload.reason
        }, "Table"),
        el("button", {
          type: "button", "data-vl-action": "view", "data-vl-view": "raw",
          "aria-pressed": view === "raw" ? "true" : "false"
        }, "Raw")
      ]),
      view === "raw" ? el("button", {
        type: "button", "class": "vl-wrap-btn", "data-vl-action": "wrap",
        "aria-pressed": this.wrap ? "true" : "false", title: "Wrap long lines"
      }, "Wrap") : null,
      el("span", { "class": "vl-lang" }, payload.lang || ""),
      copyButton()
    ]);
    var content = [toolbar];
    if (view === "table") {
      content.push(table(payload, this.allRows, this.data.kinds));
    } else {
      // Why there is no table: a notice where the body was meant to give one (JSON that does
      // not parse), a quiet line for text, which reads as it should.
      if (!hasTable && payload.reason) {
        content.push(el("p", { "class": payload.warn ? "vl-notice" : "vl-why" }, payload.reason + "."));
      }
      content.push(el("pre", {
        "class": "vl-raw" + (this.wrap ? " vl-wrapped" : ""), tabindex: "0", "aria-label": payload.label + ", raw"
      }, el("code", null, coloured(payload))));
    }
    return content;
  };

  // Copies the body as the Raw view shows it, in either view (a control character shown as
  // \ufffd, a turning mark as its escape, as the page carries it); says so.
  function copyButton() {
    return el("button", {
      type: "button", "class": "vl-copy", "data-vl-action": "copy", title: "Copy the body as the Raw view shows it"
    }, [icon("copy"), "Copy body"]);
  }

  // A key's or a value's control characters as their escapes (`\u0000`), as the body writes
  // them: in a cell they were invisible ("v\u0000nul" read "vnul"). Tabs and line breaks stay.
  function visibleControls(text) {
    return String(text).replace(/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/g, function (c) {
      return "\\u" + ("000" + c.charCodeAt(0).toString(16)).slice(-4);
    });
  }

  // A body of thousands of rows (a list response of a megabyte) shows its first rows and a
  // button for the rest: drawing them all at once holds the page still for seconds.
  var FIRST_ROWS = 500;

  function table(payload, all, kinds) {
    var nodes = [];
    var start = payload.start;
    if (start) nodes.push(startLine(start));
    var groups = [];
    var left = all ? Infinity : FIRST_ROWS, total = 0;
    rowGroups(payload, kinds).forEach(function (group) {
      total += group.rows.length;
      if (left <= 0) return;
      if (group.title) {
        groups.push(el("tbody", { "class": "vl-section" },
          el("tr", null, el("th", { colspan: "2", scope: "colgroup" }, group.title))));
      }
      var rows = group.rows.slice(0, left);
      left -= rows.length;
      groups.push(el("tbody", null, rows.map(function (row) {
        var key = visibleControls(row[0]);
        return el("tr", null, [
          // named as written: the break opportunities between a path's segments are read as
          // spaces ("params .protocolVersion")
          el("th", { scope: "row", "aria-label": /.[.[]/.test(key) ? key : null }, pathNodes(key)),
          el("td", { "class": "vl-k-" + row[2], dir: "auto" }, visibleControls(row[1]))
        ]);
      })));
    });
    if (!all && total > FIRST_ROWS) {
      groups.push(el("tbody", null, el("tr", { "class": "vl-note" }, el("td", { colspan: "2" }, [
        "The first " + FIRST_ROWS.toLocaleString("en") + " of " + total.toLocaleString("en") + " rows.",
        el("button", { type: "button", "class": "vl-more", "data-vl-action": "rows" }, "Show all rows")
      ]))));
    }
    if (payload.bodyReason) {
      groups.push(el("tbody", null, el("tr", { "class": "vl-note" },
        el("td", { colspan: "2" }, "Body: " + payload.bodyReason + ". See Raw."))));
    }
    if (groups.length) nodes.push(el("table", { "class": "vl-table" }, groups));
    return nodes;
  }

  // A payload's rows under their headings, each [key, value, kind]. The page's data (format 2,
  // volley/output/page_rows.py) writes a row as an index into the body: [keep, key, kind,
  // value], where the key keeps the first `keep` characters of the one before it, the kind is
  // a place in the data's kinds, and the value is its text or where it starts and ends in the
  // body. Format 1 wrote the rows out, as this gives them.
  function rowGroups(payload, kinds) {
    if (!payload.table) return payload.groups;
    var key = "";
    return payload.table.map(function (group) {
      return { title: group.title, rows: group.rows.map(function (row) {
        key = key.slice(0, row[0]) + row[1];
        var value = typeof row[3] === "number" ? payload.body.slice(row[3], row[4]) : row[3];
        return [key, value, kinds[row[2]]];
      }) };
    });
  }

  // Whether a payload has a Table view: rows, or an HTTP message's start line alone.
  function hasRows(payload) {
    return payload.table.length > 0 || !!payload.start;
  }

  // An older copy of this script serves the page (a notebook's earlier output brought it) and
  // reads format 1 only: each diagram in format 2 is rewritten in format 1 for it, in place.
  // One whose data does not read is left alone, as that copy leaves it: a static picture.
  function rowsForAnOlderViewer() {
    document.querySelectorAll(ROOT + " > template.vl-data").forEach(function (node) {
      var holder = node.content || node;
      var data;
      try { data = JSON.parse(holder.textContent); } catch (error) { return; }
      if (data.format !== 2) return;
      data.messages.forEach(function (message) {
        message.payloads.forEach(function (payload) {
          payload.hasTable = hasRows(payload);
          payload.groups = rowGroups(payload, data.kinds);
          delete payload.table;
        });
      });
      delete data.format;
      delete data.kinds;
      holder.textContent = JSON.stringify(data);
    });
  }

  // A dotted path with break opportunities before each segment, so long keys wrap at a dot.
  function pathNodes(key) {
    var out = [];
    key.split(/(?=[.[])/).forEach(function (part, index) {
      if (index) out.push(el("wbr"));
      out.push(part);
    });
    return out;
  }

  function startLine(start) {
    var parts;
    if (start.kind === "request") {
      parts = [el("span", { "class": "vl-pill" }, start.method), el("span", { "class": "vl-target" }, start.target)];
    } else {
      parts = [
        el("span", { "class": "vl-pill vl-status-" + String(start.status).charAt(0) }, start.status),
        start.reason ? el("span", null, start.reason) : null
      ];
    }
    if (start.version) parts.push(el("span", { "class": "vl-version" }, start.version));
    return el("p", { "class": "vl-start", title: start.text }, parts);
  }

  Diagram.prototype.action = function (button) {
    var action = button.getAttribute("data-vl-action");
    var index = parseInt(button.getAttribute("data-vl-index"), 10);
    if (action === "close") this.close();
    else if (action === "prev") this.step(-1);
    else if (action === "next") this.step(1);
    else if (action === "goto") this.open(index, { focus: "panel", reveal: "nearest" });
    else if (action === "tab") this.selectTab(index, false);
    else if (action === "pin") this.pin();
    else if (action === "unpin") {
      this.pinned = null;
      this.fit();
      this.redraw("[data-vl-action=pin]");
    }
    else if (action === "view") {
      this.view = button.getAttribute("data-vl-view");
      this.redraw("[data-vl-view=" + this.view + "]");
    } else if (action === "wrap") {
      this.wrap = !this.wrap;
      this.redraw("[data-vl-action=wrap]");
    } else if (action === "copy") this.copy(button);
    else if (action === "rows") { // on from the first row not shown before, where the reader was
      var rows = ".vl-table tbody:not(.vl-section) > tr:not(.vl-note) > th";
      var live = this; // the open payload's rows, not a pinned one's beside them
      var within = function () { return live.panel.querySelector(".vl-live") || live.panel; };
      var shown = within().querySelectorAll(rows).length;
      this.allRows = true;
      this.redraw();
      var next = within().querySelectorAll(rows)[shown];
      if (next) {
        next.tabIndex = -1;
        next.focus({ preventScroll: true });
      }
    }
  };

  // Draw again, keeping the panel's scroll and putting focus back on the control that was used.
  Diagram.prototype.redraw = function (selector) {
    this.redrawing = true;
    this.draw();
    this.redrawing = false;
    var again = selector && this.panel.querySelector(selector);
    if (again) again.focus();
  };

  Diagram.prototype.selectTab = function (index) {
    var count = this.exchange(this.data.messages[this.current - 1]).length;
    this.tab = (index + count) % count;
    this.allRows = false;
    this.redraw("#" + CSS.escape(this.panel.id + "-tab-" + this.tab));
  };

  Diagram.prototype.copy = function (button) {
    var payload = this.exchange(this.data.messages[this.current - 1])[this.tab].payload;
    var text = payload.body;
    var status = this.status;
    var done = function () {
      status.textContent = "Copied " + payload.label + ".";
      button.classList.add("vl-done");
      button.replaceChildren(icon("check"), "Copied");
      setTimeout(function () {
        button.classList.remove("vl-done");
        button.replaceChildren(icon("copy"), "Copy body");
      }, 1600);
    };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(done, function () { if (copyBySelection(text)) done(); });
    } else if (copyBySelection(text)) {
      done();
    }
  };

  // For pages where the clipboard API is not allowed (an old browser, some file:// setups).
  function copyBySelection(text) {
    var area = el("textarea", { readonly: true, "aria-hidden": "true", style: "position:fixed;top:0;left:-9999px" });
    area.value = text;
    document.body.appendChild(area);
    area.select();
    var ok = false;
    try { ok = document.execCommand("copy"); } catch (error) { ok = false; }
    area.remove();
    return ok;
  }

  /* --- finding diagrams and events ---------------------------------------------------------- */

  function diagramOf(node) {
    var root = node && node.closest ? node.closest(ROOT) : null;
    if (!root) return null;
    for (var i = 0; i < diagrams.length; i++) if (diagrams[i].root === root) return diagrams[i];
    return setUp(root);
  }

  function setUp(root) {
    try {
      var diagram = new Diagram(root);
      diagrams.push(diagram);
      return diagram;
    } catch (error) {
      return null; // a broken fragment stays a static picture
    }
  }

  function scan() {
    diagrams = diagrams.filter(function (diagram) { return diagram.root.isConnected; });
    document.querySelectorAll(ROOT).forEach(function (root) { diagramOf(root); });
  }

  function setAddress(url) {
    try { history.replaceState(history.state, "", url); } catch (error) { /* sandboxed frame */ }
  }

  function openFromAddress() {
    var match = HASH.exec(location.hash);
    if (!match) return;
    var anchor;
    try { anchor = decodeURIComponent(match[1]); } catch (error) { return; } // a broken %-escape
    var target = null;
    for (var i = 0; i < diagrams.length && !target; i++) if (diagrams[i].anchor === anchor) target = diagrams[i];
    if (!target && anchor === "" && diagrams.length) target = diagrams[0];
    if (!target) target = gathered(anchor);
    // A diagram's own page answers #message-N, and also any address its diagram has as a
    // fragment elsewhere (#login-message-2, a link copied from a docs site that shows it).
    if (!target && diagrams.length === 1 && diagrams[0].root.classList.contains("vl-page")) {
      target = diagrams[0];
    }
    if (!target) return;
    var n = parseInt(match[2], 10);
    if (!target.data.messages[n - 1]) { // no such message: no panel stays open under its address
      target.close({ quiet: true });
      return;
    }
    uncover(target.root);
    target.open(n, { focus: "message", reveal: "center", address: false });
  }

  // A page made of a site's pages (mkdocs-print-site-plugin's) writes a link to another page's
  // diagram as #PAGE-login-message-2: the diagram whose anchor as written ends it (each page
  // may have a "login"), in the element whose id is PAGE when there is one.
  function gathered(anchor) {
    var found = diagrams.filter(function (diagram) {
      return diagram.written && anchor.slice(-diagram.written.length - 1) === "-" + diagram.written;
    });
    var within = found.filter(function (diagram) {
      var page = anchor.slice(0, -diagram.written.length - 1);
      for (var node = diagram.root.parentElement; node; node = node.parentElement) {
        if (node.id === page) return true;
      }
      return false;
    });
    return within[0] || found[0] || null;
  }

  // A deep link's diagram may stand in a closed details element or in a tab not shown
  // (pymdownx's tabbed, as mkdocs-material draws it): each is opened, outermost first, so
  // that it is seen.
  function uncover(root) {
    var chain = [];
    for (var node = root.parentElement; node; node = node.parentElement) chain.unshift(node);
    chain.forEach(function (node) {
      if (node.tagName === "DETAILS") node.open = true;
      var input = tabOf(node);
      if (input && !input.checked) input.click();
    });
  }

  // The radio button that shows a tab's content: the nth input of its set for the nth block
  // (tabbed's alternate style, Material's), or the input before its label (the classic one).
  function tabOf(node) {
    var parent = node.parentElement;
    if (!parent || !node.classList) return null;
    if (node.classList.contains("tabbed-block") && parent.classList.contains("tabbed-content")) {
      var set = parent.parentElement;
      var inputs = set ? Array.prototype.filter.call(set.children, function (child) {
        return child.tagName === "INPUT";
      }) : [];
      return inputs[Array.prototype.indexOf.call(parent.children, node)] || null;
    }
    var label = node.previousElementSibling;
    if (node.classList.contains("tabbed-content") && parent.classList.contains("tabbed-set") &&
        label && label.tagName === "LABEL") {
      var input = label.previousElementSibling;
      return input && input.tagName === "INPUT" ? input : null;
    }
    return null;
  }

  function messageOf(node) {
    var group = node && node.closest ? node.closest(".vl-canvas [data-message]") : null;
    return group ? parseInt(group.getAttribute("data-message"), 10) : 0;
  }

  function editable(node) {
    return node && (node.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(node.tagName));
  }

  document.addEventListener("click", function (event) {
    var diagram = diagramOf(event.target);
    if (!diagram) return;
    var button = event.target.closest("[data-vl-action]");
    if (button && diagram.panel.contains(button)) {
      diagram.action(button);
      return;
    }
    var zoom = event.target.closest && event.target.closest("[data-vl-zoom]");
    if (zoom && diagram.zoomBar && diagram.zoomBar.contains(zoom)) {
      diagram.setZoom(zoom.getAttribute("data-vl-zoom"));
      return;
    }
    var head = event.target.closest && event.target.closest(".vl-canvas .block [data-vl-fold-head]");
    if (head) {
      diagram.toggleFold(head.parentNode);
      return;
    }
    var n = messageOf(event.target);
    if (n && !event.target.closest("a")) diagram.open(n, { focus: "message" });
  });

  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || editable(event.target)) return;
    var key = event.key;
    var diagram = diagramOf(event.target);
    var n = messageOf(event.target);
    var foldKey = event.target.closest && event.target.closest(".vl-canvas .vl-fold-key");
    if (diagram && foldKey && (key === "Enter" || key === " ")) {
      event.preventDefault();
      diagram.toggleFold(blockOf(foldKey));
      return;
    }
    if (diagram && n && (key === "Enter" || key === " ")) {
      event.preventDefault();
      diagram.open(n, { focus: "panel" });
      return;
    }
    var role = event.target.getAttribute && event.target.getAttribute("role");
    if (diagram && role === "tab" && (key === "ArrowLeft" || key === "ArrowRight")) {
      event.preventDefault();
      diagram.selectTab(diagram.tab + (key === "ArrowRight" ? 1 : -1));
      return;
    }
    if (diagram && role === "tab" && (key === "Home" || key === "End")) {
      event.preventDefault();
      diagram.selectTab(key === "Home" ? 0 : -1);
      return;
    }
    // Tab past the panel's last control goes on to the arrow after the open one, and Shift+Tab
    // before its first back to the open one, as if the panel stood beside its arrow (it comes
    // after the whole drawing in the page: Tab went round the page to the drawing's start).
    if (diagram && key === "Tab" && diagram.current && diagram.panel.contains(event.target)) {
      var stops = tabStops(diagram.panel);
      var to = null;
      if (event.shiftKey && (event.target === diagram.panel || event.target === stops[0])) {
        to = diagram.groups[diagram.current];
      } else if (!event.shiftKey && event.target === stops[stops.length - 1]) {
        to = tabStops(diagram.svg).filter(function (stop) {
          return diagram.groups[diagram.current].compareDocumentPosition(stop) & Node.DOCUMENT_POSITION_FOLLOWING;
        })[0];
      }
      if (to) {
        event.preventDefault();
        to.focus();
      }
      return;
    }
    // Esc outside any diagram closes the panel left open; the other keys are the host page's
    // (its scrolling, its own shortcuts) unless the focus is in a diagram.
    if (!diagram && key === "Escape" && lastActive && lastActive.current && lastActive.root.isConnected) diagram = lastActive;
    if (!diagram) return;
    if (key === "Escape" && diagram.current) {
      event.preventDefault();
      diagram.close();
    } else if (key === "ArrowRight" || key === "ArrowLeft" || key === "j" || key === "k") {
      // Not while reading a raw body, where arrows scroll it sideways.
      if ((!diagram.current && !n) || event.shiftKey || event.target.closest(".vl-raw")) return;
      event.preventDefault();
      diagram.step(key === "ArrowRight" || key === "j" ? 1 : -1, n);
    }
  });

  // What Tab stops at in `within`, in the page's order: what the viewer made tabbable and
  // the panel's buttons, as shown (not in a folded block or a hidden tab).
  function tabStops(within) {
    return Array.prototype.filter.call(within.querySelectorAll("button, a[href], [tabindex='0']"), function (stop) {
      return !stop.disabled && stop.getClientRects().length > 0;
    });
  }

  // The viewer's own moves of focus to a message, which scroll as the viewer decides (reveal).
  var movingFocus = false;
  function focusQuietly(group) {
    movingFocus = true;
    try {
      group.focus({ preventScroll: true });
    } finally {
      movingFocus = false;
    }
  }

  // A message reached with Tab: the browser has scrolled it into view, perhaps under the sticky
  // copy of the top boxes; bring it out from under the copy.
  document.addEventListener("focusin", function (event) {
    if (movingFocus || !event.target.matches(":focus-visible")) return; // a click focuses too
    if (event.target.matches(".vl-canvas .vl-fold-key")) return showFoldKey(event.target, true);
    var n = messageOf(event.target);
    var diagram = n && diagramOf(event.target);
    if (!diagram || diagram.groups[n] !== event.target) return;
    diagram.clearOfHeads(event.target);
    event.target.scrollIntoView({ block: "nearest", inline: "nearest" });
  });

  // A block's key has no shape of its own: its block's tab shows the focus, and is scrolled to.
  function showFoldKey(key, on) {
    var block = blockOf(key);
    if (!block) return;
    block.classList.toggle("vl-key-focus", on);
    var tab = block.querySelector(":scope > .tab") || block;
    var diagram = on && diagramOf(key);
    if (diagram) {
      diagram.clearOfHeads(tab);
      tab.scrollIntoView({ block: "nearest", inline: "nearest" });
    }
  }
  document.addEventListener("focusout", function (event) {
    if (event.target.matches && event.target.matches(".vl-canvas .vl-fold-key")) showFoldKey(event.target, false);
  });

  window.addEventListener("hashchange", function () {
    if (location.hash) return openFromAddress();
    // Back to the address that names no message: no panel stays open over it
    diagrams.forEach(function (diagram) { if (diagram.address) diagram.close({ quiet: true }); });
  });
  // Scrolls of the window and of any pane holding diagrams (capture: scroll does not bubble).
  var headsFrame = 0;
  var resized = false; // the window's height may have changed: the panels' heights follow it
  var headsSoon = function () {
    if (!headsFrame) {
      headsFrame = requestAnimationFrame(function () {
        headsFrame = 0;
        if (resized) diagrams.forEach(function (diagram) { diagram.fitHeight(); });
        resized = false;
        placeAllHeads();
      });
    }
  };
  document.addEventListener("scroll", headsSoon, { capture: true, passive: true });
  window.addEventListener("resize", function () { resized = true; headsSoon(); }, { passive: true });

  function start() {
    scan();
    openFromAddress();
  }

  // A later run of this script: new content may hold diagrams, and the address may name one
  // (an instant navigation to page#x-message-2 changes the address without a hashchange).
  function refresh() {
    if (document.readyState !== "loading") start(); // else the first run's start() is to come
  }

  // zoom(root): the diagram's zoom (0 when never zoomed); zoom(root, z) sets it, or steps it
  // with "in", "out", "fit". For a host page (the editor) that redraws the diagram as it is edited.
  function zoom(root, how) {
    var diagram = diagramOf(root);
    if (!diagram || !diagram.zoomBar) return 0;
    if (how) diagram.setZoom(how);
    diagram.fit();
    return diagram.zoom;
  }

  window.__volleyViewer = { scan: scan, refresh: refresh, zoom: zoom, version: 4 };

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
  // mkdocs-material swaps pages without reloading and says so on document$. It is there when this
  // script is a site file linked after Material's bundle (volley's MkDocs plugin), or when the
  // first page with a diagram came in a swap; otherwise each page carries this script inline,
  // and the new page's copy, run again by Material, calls refresh().
  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(start);
  }
})();
