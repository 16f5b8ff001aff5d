/* The volley editor: a source pane that colours the text as you type, a preview rendered by the
 * server a moment after each edit, share links that carry the diagram, downloads, and (with
 * `volley serve FILE`) saving to the file and following its changes on disk.
 *
 * The source is a plain <textarea> (so typing, undo, IME and screen readers work as anywhere)
 * over a painted copy of the same text that carries the colours and the error mark. Everything
 * typed reaches the page as text: the painter escapes it, the rest uses textContent.
 */
(function () {
  "use strict";

  var config = JSON.parse(document.getElementById("volley-config").textContent);
  var $ = function (id) { return document.getElementById(id); };
  var source = $("source");
  var paint = $("paint");
  var gutter = $("gutter");
  var preview = $("preview");
  var previewPane = preview.parentElement;
  var statusBox = $("status");
  var file = config.file; // the file's name with `volley serve FILE`, else null

  var RENDER_DELAY = 120; // ms after the last keystroke: quick, but not one request per key
  var POLL_EVERY = 1000; // ms between looks at FILE on disk
  var DRAFT_KEY = "volley.draft";
  var SPLIT_KEY = "volley.split";
  var THEME_KEY = "volley.theme";
  var SHARE_PREFIX = "v1.";

  /* --- painting the source ------------------------------------------------------------------ */

  var ARROWS = "<-->|<->|<=>|-->>|<--|-->|--x|->>|=>>|<-|->|-x|=>|<=";
  var RULES = {
    comment: /^\s*\/\/.*$/,
    directive: /^(\s*)(title|order)(\s*:)(.*)$/,
    autonumber: /^(\s*)(autonumber)(\s+(?:\d+|off))?(\s*)$/i,
    block: /^(\s*)(if|else|group|loop|opt|par|and|rect|box)(\s*:)(.*)$/,
    end: /^(\s*)(end)(\s*)$/,
    note: /^(\s*)(note)([^:]*)(:)(.*)$/,
    divider: /^(\s*)(\.\.\.|--|=|-|_)(:)(.*)$/,
    payload: /^(\s*)(in|out)(\s*:)(.*)$/,
    fence: /^(\s*)(`{3,}|~{3,})(.*)$/,
    message: new RegExp("^(\\s*)([^:]*?)(\\s*)(" + ARROWS + ")(\\s*)([^:]*?)(\\s*)(?:(:)(.*))?$")
  };

  function escapeHtml(text) {
    return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  }

  function span(cls, text) {
    return text ? '<span class="' + cls + '">' + escapeHtml(text) + "</span>" : "";
  }

  // Inline markup in labels, lightly: icons, `code`, **bold**. Input is escaped first.
  function inline(text) {
    return escapeHtml(text)
      .replace(/`[^`]+`/g, '<span class="s-code">$&</span>')
      .replace(/\{fa[a-z]?-[a-z0-9-]+(?: [a-z0-9- ]+)?\}/g, '<span class="s-icon">$&</span>')
      .replace(/\*\*[^*]+\*\*/g, '<span class="s-strong">$&</span>');
  }

  function indentOf(line) {
    var match = /^[ \t]*/.exec(line)[0];
    var width = 0;
    for (var i = 0; i < match.length; i++) width += match[i] === "\t" ? 2 : 1;
    return width;
  }

  // One line at a time, remembering only what the next lines need: an open fence, an indented
  // body or note continuing, or a body that may start on the next line.
  function paintLines(lines) {
    var out = [];
    var fence = null; // {mark, length}
    var body = null; // {indent} while an indented body or a note's lines continue
    var expectBody = -1; // indent of the in:/out: line just seen, or -1
    for (var i = 0; i < lines.length; i++) {
      var line = lines[i];
      var m;
      if (fence) {
        m = /^\s*(`{3,}|~{3,})\s*$/.exec(line);
        if (m && m[1][0] === fence.mark && m[1].length >= fence.length) {
          out.push(span("s-fence", line));
          fence = null;
        } else out.push(span("s-body", line));
        continue;
      }
      if (body && (line.trim() === "" || indentOf(line) >= body.indent)) {
        out.push(line.trim() === "" ? "" : span(body.cls, line));
        continue;
      }
      body = null;
      var opening = expectBody >= 0 || (out.length && RULES.note.test(lines[i - 1] || ""));
      if (opening && (m = RULES.fence.exec(line))) {
        fence = { mark: m[2][0], length: m[2].length };
        out.push(span("s-fence", line));
        expectBody = -1;
        continue;
      }
      if (expectBody >= 0 && line.trim() && indentOf(line) >= expectBody + 2) {
        body = { indent: expectBody + 2, cls: "s-body" };
        expectBody = -1;
        out.push(span("s-body", line));
        continue;
      }
      expectBody = -1;
      out.push(paintLine(line, function (indent, kind) {
        if (kind === "payload") expectBody = indent;
        if (kind === "note") body = { indent: indent + 2, cls: "s-note" };
      }));
    }
    return out;
  }

  function paintLine(line, saw) {
    var m;
    if (!line.trim()) return "";
    if (RULES.comment.test(line)) return span("s-comment", line);
    if ((m = RULES.directive.exec(line)))
      return escapeHtml(m[1]) + span("s-kw", m[2]) + span("s-punct", m[3]) + '<span class="s-title">' + inline(m[4]) + "</span>";
    if ((m = RULES.autonumber.exec(line))) return escapeHtml(m[1]) + span("s-kw", m[2]) + span(/off/i.test(m[3] || "") ? "s-kw" : "s-num", m[3] || "") + escapeHtml(m[4]);
    if ((m = RULES.block.exec(line)))
      return escapeHtml(m[1]) + span("s-block", m[2]) + span("s-punct", m[3]) + inline(m[4]);
    if ((m = RULES.end.exec(line))) return escapeHtml(m[1]) + span("s-block", m[2]) + escapeHtml(m[3]);
    if ((m = RULES.payload.exec(line))) {
      saw(indentOf(line), "payload");
      return escapeHtml(m[1]) + span("s-payload", m[2]) + span("s-punct", m[3]) + span("s-plabel", m[4]);
    }
    if ((m = RULES.note.exec(line))) {
      saw(indentOf(line), "note");
      return escapeHtml(m[1]) + span("s-kw", m[2]) + span("s-name", m[3]) + span("s-punct", m[4]) + '<span class="s-note">' + inline(m[5]) + "</span>";
    }
    if ((m = RULES.divider.exec(line)))
      return escapeHtml(m[1]) + span("s-divider", m[2] + m[3]) + '<span class="s-divlabel">' + inline(m[4]) + "</span>";
    if ((m = RULES.message.exec(line)) && m[2].trim() && m[6].trim())
      return escapeHtml(m[1]) + span("s-name", m[2]) + escapeHtml(m[3]) + span("s-arrow", m[4]) + escapeHtml(m[5]) +
        span("s-name", m[6]) + escapeHtml(m[7]) + span("s-punct", m[8] || "") + (m[9] ? '<span class="s-label">' + inline(m[9]) + "</span>" : "");
    return escapeHtml(line);
  }

  var problems = {}; // line number → {column, message} of each error the server named
  var warned = {}; // line number → its warnings, from the last picture that rendered
  var secrets = 0; // of those, how many are about values that look like live secrets

  function escapeAttribute(text) {
    return escapeHtml(text).replace(/"/g, "&quot;");
  }

  function splitLines(text) {
    return text.split(/\r\n|\r|\n/);
  }

  // The line's text before `column`, counted in characters as volley counts them (an emoji is
  // one, where JavaScript counts two). A mark under a column follows that text drawn unseen in
  // the same font (as generated content, no text of the page), so it lands under the character
  // itself, however wide (CJK, emoji, a tab).
  function textBefore(line, column) {
    return Array.from(line).slice(0, Math.max(0, column - 1)).join("");
  }

  function repaint() {
    var lines = splitLines(source.value);
    var painted = paintLines(lines);
    var html = "";
    for (var i = 0; i < painted.length; i++) {
      var cls = problems[i + 1] ? "ln ln-error" : warned[i + 1] ? "ln ln-warn" : "ln";
      var mark = "";
      if (problems[i + 1]) {
        var pad = escapeAttribute(textBefore(lines[i], problems[i + 1].column || 1));
        mark = '<span class="err-mark"><span class="err-pad" data-pad="' + pad + '"></span><span class="err-wave"></span></span>';
      }
      html += '<span class="' + cls + '">' + painted[i] + mark + "</span>";
    }
    paint.innerHTML = html;
    // Every problem known at once: the error, and each warning of the last picture that rendered.
    var marks = lines.length + "/" + JSON.stringify(problems) + "/" + JSON.stringify(warned);
    if (gutter.dataset.marks !== marks) {
      var numbers = "";
      for (var n = 1; n <= lines.length; n++) {
        if (problems[n]) numbers += '<span class="ln ln-error" title="' + escapeAttribute(problems[n].message) + '">' + n + "</span>";
        else if (warned[n]) numbers += '<span class="ln ln-warn" title="' + escapeAttribute(warned[n]) + '">' + n + "</span>";
        else numbers += '<span class="ln">' + n + "</span>";
      }
      gutter.innerHTML = numbers;
      gutter.dataset.marks = marks;
    }
    syncScroll();
  }

  function syncScroll() {
    paint.scrollTop = source.scrollTop;
    paint.scrollLeft = source.scrollLeft;
    gutter.scrollTop = source.scrollTop;
  }

  source.addEventListener("scroll", syncScroll);

  /* --- editing ------------------------------------------------------------------------------ */

  // Typing through execCommand keeps the browser's own undo history; assigning .value would
  // wipe it. Falls back to setRangeText where insertText is not supported.
  function insertText(text) {
    var ok = false;
    try { ok = document.execCommand("insertText", false, text); } catch (error) { ok = false; }
    if (!ok) {
      source.setRangeText(text, source.selectionStart, source.selectionEnd, "end");
      changed();
    }
  }

  // Replace the whole source. `undoable`: Ctrl+Z brings the old text back (a template picked
  // by mistake); otherwise the cursor and scroll stay where they were (a reload from disk).
  // Chromium reports a text of many lines inserted so as an input event or two a line: the
  // text is painted and rendered once, after it is all in (each repaint walks every line).
  var settingSource = false;
  function setSource(text, undoable) {
    if (text === source.value) return;
    maskChosen = null; // another diagram: its own values decide whether downloads are masked
    if (undoable) {
      source.focus();
      source.select();
      settingSource = true;
      try {
        if (text) insertText(text);
        else document.execCommand("delete");
      } finally {
        settingSource = false;
      }
      source.setSelectionRange(0, 0);
      source.scrollTop = 0;
      previewPane.scrollTop = 0; // another diagram: start at its top
    } else {
      var start = source.selectionStart, end = source.selectionEnd, top = source.scrollTop;
      source.value = text;
      source.setSelectionRange(Math.min(start, text.length), Math.min(end, text.length));
      source.scrollTop = top;
    }
    changed();
  }

  source.addEventListener("keydown", function (event) {
    if (completeKey(event)) return;
    if (event.key === "Tab" && !event.shiftKey && !event.ctrlKey && !event.altKey && !event.metaKey) {
      event.preventDefault();
      insertText("  ");
    } else if (event.key === "Enter" && !event.shiftKey && !event.ctrlKey && !event.altKey && !event.metaKey && !event.isComposing) {
      // Keep the current line's indentation: indented bodies and notes go on without counting.
      // Enter on a line that holds nothing but its indent ends the body instead, back at the
      // margin, where the next message belongs (as Enter on an empty list item ends a list).
      var at = source.selectionStart, value = source.value;
      var lineStart = value.lastIndexOf("\n", at - 1) + 1;
      var lineEnd = value.indexOf("\n", at);
      var line = value.slice(lineStart, lineEnd < 0 ? value.length : lineEnd);
      var indent = /^[ \t]*/.exec(value.slice(lineStart, at))[0];
      if (line && !line.trim() && at === source.selectionEnd) {
        event.preventDefault();
        source.setSelectionRange(lineStart, lineStart + line.length);
        document.execCommand("delete");
      } else if (indent) {
        event.preventDefault();
        insertText("\n" + indent);
      }
    }
  });

  // Typing paints, titles and renders once a frame, whatever number of input events came
  // in it: Chromium reports a text of many lines put in at once (dropped, typed by a tool,
  // inserted by an input method) as an input event or two a line, and each change walks every
  // line. The frame's callback runs before the frame is drawn: no keystroke shows late.
  var changeFrame = 0;
  source.addEventListener("input", function (event) {
    if (settingSource) return; // setSource calls changed() once the text is in
    if (!changeFrame) changeFrame = requestAnimationFrame(function () { changeFrame = 0; changed(); });
    // Suggest as a word is typed; deleting or pasting does not open the list.
    if (event.inputType === "insertText" && event.data && /[\w\-<>=x ]/.test(event.data)) suggest(false);
    else hideSuggestions();
  });

  /* --- suggestions: participants already used, arrows, keywords ------------------------------ */
  // Ctrl+Space asks; typing a word at the start of a line, an arrow after a name, or a name after
  // an arrow offers what fits. Up/Down pick, Enter or Tab takes, Escape closes. Each choice is a
  // list item whose text is set with textContent.

  var KEYWORDS = ["title: ", "order: ", "autonumber", "note: ", "loop: ", "if: ", "else: ", "opt: ",
    "par: ", "and: ", "group: ", "end", "in: ", "out: ", "=: ", "--: ", "...: "];
  var ARROW_LIST = ["->", "-->", "->>", "-->>", "=>", "-x ", "--x ", "<-", "<--", "<->", "<-->"];
  var ARROW_NAMES = {
    "->": "request", "-->": "reply", "->>": "asynchronous", "-->>": "asynchronous reply", "=>": "bold",
    "-x ": "lost", "--x ": "lost reply", "<-": "leftwards", "<--": "leftwards reply", "<->": "both ways", "<-->": "both ways, dashed"
  };
  var AFTER_ARROW = new RegExp("^(\\s*[^:]*?\\S\\s*(?:" + ARROWS + ")\\s+)([^:<>=-]*)$");
  var list = document.createElement("ul");
  list.className = "suggest";
  list.id = "suggest";
  list.setAttribute("role", "listbox");
  list.setAttribute("aria-label", "Suggestions");
  list.hidden = true;
  source.parentNode.appendChild(list);
  var offered = null; // {items, index, from}: the choices and where the word being replaced starts

  function participants() {
    var names = [], seen = {};
    var add = function (name) {
      name = name.trim();
      if (name && !seen[name] && !/[:,]/.test(name)) { seen[name] = true; names.push(name); }
    };
    splitLines(source.value).forEach(function (line, index) {
      if (paintedClass(index) !== "") return; // a body's lines are not names
      var m;
      if ((m = /^\s*order\s*:(.*)$/.exec(line))) m[1].split(",").forEach(add);
      else if ((m = /^\s*note\s+([^:]+):/.exec(line))) m[1].split(",").forEach(add);
      else if ((m = RULES.message.exec(line)) && m[2].trim() && m[6].trim()) { add(m[2]); add(m[6]); }
    });
    return names;
  }

  // "" for a line of diagram syntax; the class of a body, note or fence line.
  function paintedClass(index) {
    var row = paint.children[index];
    var first = row && row.firstElementChild;
    return first && /^s-(body|fence|note)$/.test(first.className) && row.firstChild === first ? first.className : "";
  }

  // What fits where the cursor is: {from, items: [{text, hint}]} or null.
  function choicesHere(asked) {
    var at = source.selectionStart;
    if (at !== source.selectionEnd) return null;
    var value = source.value;
    var lineStart = value.lastIndexOf("\n", at - 1) + 1;
    var before = value.slice(lineStart, at);
    var index = value.slice(0, lineStart).split("\n").length - 1;
    if (paintedClass(index)) return null;
    var names = participants();
    var m, word, items;
    if ((m = /^(\s*order\s*:(?:[^,]*,)*\s*)([^,]*)$/.exec(before))) {
      word = m[2];
      items = names.map(function (n) { return { text: n, hint: "participant" }; });
    } else if ((m = AFTER_ARROW.exec(before))) {
      // after an arrow and a space: the receiver
      word = m[2];
      items = names.map(function (n) { return { text: n, hint: "participant" }; });
    } else if ((m = /^\s*[^:<>=-]*?\S(\s+)([-<=>x]*)$/.exec(before))) {
      // after a name and a space: an arrow
      word = m[2];
      if (!word && !asked) return null;
      items = ARROW_LIST.map(function (a) { return { text: a, hint: ARROW_NAMES[a] }; });
    } else if ((m = /^\s*(\S*)$/.exec(before))) {
      word = m[1];
      if (!word && !asked) return null;
      items = names.map(function (n) { return { text: n, hint: "participant" }; })
        .concat(KEYWORDS.map(function (k) { return { text: k, hint: "keyword" }; }));
    } else return null;
    var lower = word.toLowerCase();
    items = items.filter(function (item) {
      return item.text.toLowerCase().indexOf(lower) === 0 && item.text !== word;
    });
    return items.length ? { from: at - word.length, items: items.slice(0, 12), index: 0, asked: asked } : null;
  }

  function suggest(asked) {
    offered = choicesHere(asked);
    if (!offered) return hideSuggestions();
    list.replaceChildren();
    offered.items.forEach(function (item, i) {
      var option = document.createElement("li");
      option.setAttribute("role", "option");
      option.id = "suggest-" + i;
      var text = document.createElement("span");
      text.className = "suggest-text";
      text.textContent = item.text.trim();
      var hint = document.createElement("small");
      hint.textContent = item.hint;
      option.append(text, hint);
      option.addEventListener("mousedown", function (event) {
        event.preventDefault(); // keep the focus in the source
        offered.index = i;
        takeSuggestion();
      });
      list.appendChild(option);
    });
    showSelected();
    placeSuggestions();
    list.hidden = false;
    source.setAttribute("aria-controls", "suggest");
    source.setAttribute("aria-expanded", "true");
  }

  function showSelected() {
    Array.prototype.forEach.call(list.children, function (option, i) {
      option.setAttribute("aria-selected", i === offered.index ? "true" : "false");
    });
    source.setAttribute("aria-activedescendant", "suggest-" + offered.index);
    var chosen = list.children[offered.index];
    if (chosen) chosen.scrollIntoView({ block: "nearest" });
  }

  // Under the cursor: the place is line × line height, and the width of the line's text before
  // it, measured in the textarea's font (a CJK character or an emoji is wider than a letter),
  // a tab reaching the next stop of four spaces.
  function placeSuggestions() {
    var style = getComputedStyle(source);
    var probe = document.createElement("canvas").getContext("2d");
    probe.font = style.fontSize + " " + style.fontFamily;
    var stop = 4 * probe.measureText(" ").width;
    var lineHeight = parseFloat(style.lineHeight) || 20;
    var typed = source.value.slice(0, offered.from);
    var line = typed.split("\n").length - 1;
    var width = 0;
    typed.slice(typed.lastIndexOf("\n") + 1).split("\t").forEach(function (piece, k) {
      if (k) width = (Math.floor(width / stop + 1e-6) + 1) * stop;
      width += probe.measureText(piece).width;
    });
    var x = parseFloat(style.paddingLeft) + width - source.scrollLeft;
    var y = parseFloat(style.paddingTop) + (line + 1) * lineHeight - source.scrollTop + 2;
    var box = source.getBoundingClientRect();
    list.style.left = Math.max(0, Math.min(x, box.width - 240)) + "px";
    list.style.top = y + "px";
  }

  function hideSuggestions() {
    offered = null;
    list.hidden = true;
    source.removeAttribute("aria-activedescendant");
    source.setAttribute("aria-expanded", "false");
  }

  function takeSuggestion() {
    var item = offered.items[offered.index];
    source.setSelectionRange(offered.from, source.selectionStart);
    hideSuggestions();
    insertText(item.text);
  }

  // The list's keys while it is open; Ctrl+Space opens it. True if the key was used.
  function completeKey(event) {
    if (event.key === " " && event.ctrlKey && !event.altKey && !event.metaKey) {
      event.preventDefault();
      suggest(true);
      return true;
    }
    if (!offered || list.hidden || event.isComposing) return false;
    var key = event.key;
    if (key === "ArrowDown" || key === "ArrowUp") {
      event.preventDefault();
      var count = offered.items.length;
      offered.index = (offered.index + (key === "ArrowDown" ? 1 : count - 1)) % count;
      offered.asked = true; // chosen with the keys: Enter takes it
      showSelected();
      return true;
    }
    if ((key === "Enter" || key === "Tab") && !event.shiftKey && !event.ctrlKey && !event.altKey && !event.metaKey) {
      // A list that opened by itself leaves Enter to end the line; Tab takes from it.
      if (key === "Enter" && !offered.asked) {
        hideSuggestions();
        return false;
      }
      event.preventDefault();
      takeSuggestion();
      return true;
    }
    if (key === "Escape") {
      event.preventDefault();
      event.stopPropagation(); // the preview's viewer closes its panel on Escape: not this time
      hideSuggestions();
      return true;
    }
    if (key === "ArrowLeft" || key === "ArrowRight" || key === "Home" || key === "End" || key === "PageUp" || key === "PageDown") hideSuggestions();
    return false;
  }

  source.addEventListener("blur", hideSuggestions);
  source.addEventListener("scroll", function () { if (offered) placeSuggestions(); });

  function changed() {
    repaint();
    showTitle();
    scheduleRender();
    saveDraft();
    followInAddress();
    if (file) showSaveState();
  }

  function goTo(line, column) {
    var lines = splitLines(source.value);
    var offset = 0;
    for (var i = 0; i < Math.min(line - 1, lines.length); i++) offset += lines[i].length + 1;
    offset += textBefore(lines[line - 1] || "", column || 1).length; // in UTF-16 units, as the textarea counts
    source.focus();
    source.setSelectionRange(offset, offset);
    var lineHeight = parseFloat(getComputedStyle(source).lineHeight) || 20;
    var target = (line - 1) * lineHeight;
    if (target < source.scrollTop || target > source.scrollTop + source.clientHeight - 2 * lineHeight)
      source.scrollTop = Math.max(0, target - source.clientHeight / 3);
  }

  /* --- the title in the bar ----------------------------------------------------------------- */

  function diagramTitle() {
    var m = /^[ \t]*title[ \t]*:[ \t]*(.+)$/m.exec(source.value.replace(/^\uFEFF/, ""));
    return m ? m[1].replace(/\{[^}]*\}|[*_~`]/g, "").trim() : "";
  }

  function showTitle() {
    var title = diagramTitle();
    document.title = (file || title || "Untitled diagram") + " · volley editor";
    var shown = $("doc-title");
    if (shown) shown.textContent = title || "Untitled diagram";
  }

  /* --- the preview -------------------------------------------------------------------------- */

  var renderTimer = 0;
  var renderSeq = 0;
  var inflight = null;

  function scheduleRender() {
    clearTimeout(renderTimer);
    renderTimer = setTimeout(renderNow, RENDER_DELAY);
  }

  function renderQuery() {
    var theme = "&theme=" + currentTheme();
    return config.preview === "html" ? "format=html&fragment=1&assets=0" + theme : "format=svg" + theme;
  }

  function renderNow() {
    var text = source.value;
    var seq = ++renderSeq;
    if (inflight) inflight.abort();
    if (new Blob([text]).size > config.maxBytes) {
      showProblem({ message: "the diagram is larger than this server's limit of " + config.maxBytes.toLocaleString() + " bytes" });
      return;
    }
    inflight = new AbortController();
    setState("working");
    fetch("/render?" + renderQuery(), {
      method: "POST",
      body: text,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
      signal: inflight.signal
    }).then(function (response) {
      if (response.ok) {
        return response.text().then(function (html) {
          if (seq !== renderSeq) return;
          showPreview(html);
          showFine(parseWarnings(response.headers.get("X-Volley-Warnings")),
            parseInt(response.headers.get("X-Volley-Secrets") || "0", 10) || 0);
        });
      }
      return errorOf(response).then(function (error) {
        if (seq === renderSeq) showProblem(error);
      });
    }).catch(function (error) {
      if (error.name === "AbortError" || seq !== renderSeq) return;
      showProblem({ message: "cannot reach the volley server (" + error.message + ")", hint: "is volley serve still running?" });
    });
  }

  function errorOf(response) {
    return response.json().then(function (body) {
      if (!body || !body.error) return { message: "the server answered " + response.status };
      var error = body.error;
      error.all = Array.isArray(body.errors) ? body.errors : [error];
      return error;
    }, function () {
      return { message: "the server answered " + response.status + " " + response.statusText };
    });
  }

  function parseWarnings(header) {
    try { return header ? JSON.parse(header) : []; } catch (error) { return []; }
  }

  // Swap in the new picture where the old one was; a message whose payload was open stays
  // open, so editing a body shows its table change, and typing keeps its focus.
  function showPreview(html) {
    var top = previewPane.scrollTop, left = previewPane.scrollLeft;
    var selected = preview.querySelector(".vl-canvas [data-message].vl-selected");
    var open = selected && selected.getAttribute("data-message");
    var typing = document.activeElement === source;
    var viewer = window.__volleyViewer;
    var diagram = preview.querySelector(".volley-diagram");
    var zoomed = viewer && viewer.zoom && diagram ? viewer.zoom(diagram) : 0;
    var canvas = preview.querySelector(".vl-canvas");
    var sideways = canvas ? canvas.scrollLeft : 0;
    preview.innerHTML = html; // markup rendered by the server, every user string escaped there
    if (viewer) viewer.scan();
    diagram = preview.querySelector(".volley-diagram");
    if (zoomed && diagram) viewer.zoom(diagram, zoomed); // an edit keeps the zoom and the place
    canvas = preview.querySelector(".vl-canvas");
    if (canvas) canvas.scrollLeft = sideways;
    var again = open && preview.querySelector('.vl-canvas [data-message="' + CSS.escape(open) + '"]');
    if (again) {
      again.dispatchEvent(new MouseEvent("click", { bubbles: true }));
      if (typing) source.focus({ preventScroll: true });
    }
    previewPane.scrollTop = top;
    previewPane.scrollLeft = left;
    previewPane.classList.remove("is-stale");
    $("stale-note").hidden = true;
  }

  /* --- pan and zoom of the preview ---------------------------------------------------------- */
  // Ctrl + wheel (a trackpad's pinch) zooms the diagram; dragging its background pans it. A
  // drag that starts on an arrow or a button is a click, as before.

  previewPane.addEventListener("wheel", function (event) {
    var diagram = preview.querySelector(".volley-diagram");
    var viewer = window.__volleyViewer;
    if (!event.ctrlKey || !diagram || !viewer || !viewer.zoom) return;
    event.preventDefault();
    viewer.zoom(diagram, event.deltaY < 0 ? "in" : "out");
  }, { passive: false });

  var pan = null;
  preview.addEventListener("pointerdown", function (event) {
    var canvas = event.target.closest && event.target.closest(".vl-canvas");
    if (!canvas || event.button !== 0 || event.pointerType === "touch" ||
      event.target.closest("[data-message], .blocks .block, a, button")) return; // a rect's colour (.highlights) pans
    pan = { x: event.clientX, y: event.clientY, left: canvas.scrollLeft, top: previewPane.scrollTop, canvas: canvas, moved: false, id: event.pointerId };
  });
  preview.addEventListener("pointermove", function (event) {
    if (!pan || event.pointerId !== pan.id) return;
    var dx = event.clientX - pan.x, dy = event.clientY - pan.y;
    if (!pan.moved && Math.abs(dx) + Math.abs(dy) < 4) return;
    if (!pan.moved) {
      pan.moved = true;
      preview.setPointerCapture(event.pointerId);
      preview.classList.add("is-panning");
    }
    pan.canvas.scrollLeft = pan.left - dx;
    previewPane.scrollTop = pan.top - dy;
  });
  var endPan = function () {
    if (pan && pan.moved) preview.classList.remove("is-panning");
    pan = null;
  };
  preview.addEventListener("pointerup", endPan);
  preview.addEventListener("pointercancel", endPan);

  /* --- the status line beside the source ---------------------------------------------------- */

  function setState(state) {
    statusBox.dataset.state = state;
  }

  function showFine(warnings, secretCount) {
    problems = {};
    warned = {};
    secrets = secretCount;
    warnings.forEach(function (w) {
      if (w.line) warned[w.line] = (warned[w.line] ? warned[w.line] + "\n" : "") + w.message;
    });
    repaint();
    var count = preview.querySelectorAll("svg [data-message]").length;
    var text = count === 1 ? "1 message" : count + " messages";
    var lineBox = $("status-line"), hint = $("status-hint");
    lineBox.hidden = true;
    var link = SWIMLANES_LINK.test(source.value);
    convertButton.hidden = !link;
    if (link) {
      // A link renders as the diagram it carries; its text is what one edits.
      setState("ok");
      $("status-text").textContent = "Rendered · " + text + " · a swimlanes.io link";
      statusBox.dataset.line = "";
      hint.hidden = false;
      hint.textContent = "The button writes the diagram it carries as volley here, to edit.";
    } else if (warnings.length) {
      setState("warning");
      var w = warnings[0];
      unbrokenArrows($("status-text"), (w.line ? "Line " + w.line + ": " : "") + w.message +
        (warnings.length > 1 ? " (and " + (warnings.length - 1) + " more)" : ""));
      statusBox.dataset.line = w.line || "";
      statusBox.dataset.column = w.column || "";
      hint.hidden = false;
      hint.textContent = "The diagram rendered; this is a warning. " + text + ".";
    } else {
      setState("ok");
      $("status-text").textContent = "Rendered · " + text;
      statusBox.dataset.line = "";
      hint.hidden = true;
    }
  }

  // A message's text, with each arrow it names ("->", "-->", "A <<- B", "-x", Mermaid's "-)")
  // kept on one line: a browser may break a line after a hyphen, which reads "--" and ">" as
  // two things.
  function unbrokenArrows(node, text) {
    node.textContent = "";
    text.split(/(\S*[-=]+(?:>|\)|x(?![A-Za-z]))\S*|\S*<[-=]\S*)/).forEach(function (part, index) {
      if (!part) return;
      var piece = index % 2 ? document.createElement("span") : document.createTextNode(part);
      if (index % 2) {
        piece.className = "unbroken";
        piece.textContent = part;
      }
      node.appendChild(piece);
    });
  }

  // Every error the server named is marked in the gutter and the text; the status line
  // tells the first one in full and counts the rest.
  function showProblem(error) {
    problems = {};
    (error.all || [error]).forEach(function (each) {
      if (!each.line || problems[each.line]) return;
      problems[each.line] = { column: each.column || 1, message: each.message };
    });
    repaint();
    setState("error");
    var where = error.line ? "Line " + error.line + (error.column ? ", column " + error.column : "") + ": " : "";
    var more = error.all && error.all.length > 1 ? " (and " + (error.all.length - 1) + " more)" : "";
    unbrokenArrows($("status-text"), where + error.message + more);
    statusBox.dataset.line = error.line || "";
    statusBox.dataset.column = error.column || "";
    var lineBox = $("status-line");
    if (error.source_line !== null && error.source_line !== undefined && error.line) {
      var shown = function (text) { return text.replace(/\t/g, "    "); };
      lineBox.textContent = shown(error.source_line) + "\n";
      var pad = document.createElement("span");
      pad.className = "err-pad";
      pad.setAttribute("data-pad", shown(textBefore(error.source_line, error.column || 1)));
      lineBox.appendChild(pad);
      lineBox.appendChild(document.createTextNode("^"));
      lineBox.hidden = false;
    } else lineBox.hidden = true;
    var hint = $("status-hint");
    var foreign = FOREIGN.test(error.message || "");
    var page = !foreign && PAGE_OF_DIAGRAMS.test(source.value);
    hint.hidden = !error.hint && !page;
    // Here the button converts it; the command is for a file on disk.
    hint.textContent = foreign ? "The button writes it as volley here (or run volley import on a file)."
      : page ? "This page holds Mermaid or PlantUML diagrams: the button writes its first as volley here (volley import on the page writes every one)."
      : error.hint || "";
    convertButton.hidden = !foreign && !page;
    if (preview.childElementCount) {
      previewPane.classList.add("is-stale");
      $("stale-note").hidden = false;
    }
  }

  /* --- a diagram written for Mermaid, PlantUML or swimlanes.io, converted in place -------- */
  // The error the server gives such a text (volley.language.parser.refuse_foreign_files); a
  // Markdown page holding such diagrams in fenced blocks; a swimlanes.io link alone, which
  // renders as the diagram it carries (volley.swimlanes_links.is_link).
  var FOREIGN = /, not volley; volley import converts it$/;
  var PAGE_OF_DIAGRAMS = /^[ \t]*(?:`{3,}|~{3,})[ \t]*\{?(?:mermaid|plantuml|puml|uml)\b/im;
  var SWIMLANES_LINK = /^\ufeff?\s*<?(?:https?:\/\/)?(?:www\.|cdn\.)?swimlanes\.io(?:\/[^#\s>]*)?(?:#[^\s>]*)?>?\s*$/i;
  var convertButton = $("convert");

  convertButton.addEventListener("click", function (event) {
    event.stopPropagation(); // the status box's own click goes to the error's line
    convertButton.disabled = true;
    fetch("/import", {
      method: "POST",
      headers: { "Content-Type": "text/plain; charset=utf-8" },
      body: source.value
    }).then(function (response) {
      if (!response.ok) return errorOf(response).then(showProblem);
      return response.json().then(function (body) {
        setSource(body.text, true); // undo brings the original back
      });
    }).catch(function (error) {
      showProblem({ message: "cannot reach the volley server (" + error.message + ")", hint: "is volley serve still running?" });
    }).then(function () { convertButton.disabled = false; });
  });

  statusBox.addEventListener("click", function () {
    var line = parseInt(statusBox.dataset.line, 10);
    if (line) goTo(line, parseInt(statusBox.dataset.column, 10) || 1);
  });

  /* --- share links: the source compressed into the URL's fragment ---------------------------- */
  // The same format as volley.server.share: "v1." + URL-safe base64 (no padding) of zlib-compressed
  // UTF-8. Browsers' CompressionStream("deflate") writes exactly that zlib stream.

  function toBase64Url(bytes) {
    var binary = "";
    for (var i = 0; i < bytes.length; i += 0x8000)
      binary += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function fromBase64Url(text) {
    var binary = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4));
    var bytes = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  }

  function encodeShare(text) {
    var stream = new Blob([text]).stream().pipeThrough(new CompressionStream("deflate"));
    return new Response(stream).arrayBuffer().then(function (buffer) {
      return SHARE_PREFIX + toBase64Url(new Uint8Array(buffer));
    });
  }

  function ShareError(message) {
    this.message = message;
  }

  // Inflate at most config.maxBytes, as the server does: a tiny link can hold a huge stream.
  function decodeShare(encoded) {
    var version = /^(v\d+)\./.exec(encoded);
    if (!version) return Promise.reject(new ShareError("this is not a volley share link"));
    if (version[1] + "." !== SHARE_PREFIX)
      return Promise.reject(new ShareError("this link uses share format " + version[1] + "; this editor reads v1"));
    var payload = encoded.slice(SHARE_PREFIX.length);
    var bytes;
    try {
      if (!/^[A-Za-z0-9_-]+$/.test(payload)) throw new Error("alphabet");
      bytes = fromBase64Url(payload);
    } catch (error) {
      return Promise.reject(new ShareError("the share link is damaged; it may have been cut when it was copied"));
    }
    var reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate")).getReader();
    var chunks = [], total = 0;
    function pump() {
      return reader.read().then(function (step) {
        if (step.done) return;
        total += step.value.length;
        if (total > config.maxBytes) {
          reader.cancel();
          throw new ShareError("the shared diagram is larger than this editor's limit of " + config.maxBytes.toLocaleString() + " bytes");
        }
        chunks.push(step.value);
        return pump();
      });
    }
    return pump().then(function () {
      var all = new Uint8Array(total), at = 0;
      chunks.forEach(function (chunk) { all.set(chunk, at); at += chunk.length; });
      return new TextDecoder("utf-8", { fatal: true }).decode(all);
    }, function (error) {
      throw error instanceof ShareError ? error : new ShareError("the share link is damaged; it does not decompress");
    });
  }

  function sharedFromAddress() {
    var hash = location.hash.slice(1);
    return /^v\d+\./.test(hash) ? hash : null;
  }

  function openShared(encoded) {
    return decodeShare(encoded).then(function (text) {
      inAddress = text;
      setSource(text, source.value !== "");
    }, function (error) {
      showProblem({ message: error.message || String(error), hint: "ask for the link again, or copy all of it" });
    });
  }

  // Once the address holds a share link (Share was pressed, or a link opened), it follows the
  // edits, so the address bar always carries the diagram on screen. The preview's viewer
  // leaves the address alone (data-volley-keep-address), so clicks never replace the link.
  var inAddress = null; // the source the link in the address carries
  var addressTimer = 0;
  function followInAddress() {
    if (!sharedFromAddress() || source.value === inAddress) return;
    clearTimeout(addressTimer);
    addressTimer = setTimeout(function () {
      var text = source.value;
      encodeShare(text).then(function (encoded) {
        if (text !== source.value || !sharedFromAddress()) return; // typed on, or left
        inAddress = text;
        try { history.replaceState(null, "", "#" + encoded); } catch (error) { /* sandboxed */ }
      });
    }, 400);
  }

  window.addEventListener("hashchange", function () {
    var encoded = sharedFromAddress();
    if (encoded) openShared(encoded);
  });

  // A server on the loopback address: its links open on this machine only (a README's
  // readers would get a broken picture).
  function onThisMachine(host) {
    return host === "localhost" || /\.localhost$/.test(host) || /^127\./.test(host) ||
      host === "[::1]" || host === "::1" || host === "0.0.0.0";
  }

  $("share").addEventListener("click", function () {
    var text = source.value;
    encodeShare(text).then(function (encoded) {
      var base = location.origin + location.pathname;
      var link = base + "#" + encoded;
      inAddress = text;
      try { history.replaceState(null, "", "#" + encoded); } catch (error) { /* ignore */ }
      var root = location.origin;
      var title = diagramTitle().replace(/[\[\]]/g, "") || "Sequence diagram";
      $("share-link").value = link;
      $("share-markdown").value = "![" + title + "](" + root + "/svg/" + encoded + ")";
      $("share-png").value = root + "/png/" + encoded;
      $("share-local").hidden = !onThisMachine(location.hostname);
      // An image link is one request's address: with its headers, the server reads maxHead.
      var image = ("/svg/" + encoded).length;
      $("share-size").textContent = "Link length: " + link.length.toLocaleString() + " characters" +
        (link.length > 8000 ? " — long links may be cut by some chat apps and servers." : ".") +
        (image > config.maxHead - 2000 ? " The image links are longer than this server reads in a request (" +
          config.maxHead.toLocaleString() + " bytes with its headers): draw the picture into your repository with volley render instead." : "");
      $("share-secrets").hidden = !secrets;
      $("share-secrets").textContent = secrets ? "This diagram holds " +
        (secrets === 1 ? "a value that looks like a live secret" : secrets + " values that look like live secrets") +
        " (the warnings say where), and these links carry the text as it is: replace " +
        (secrets === 1 ? "it" : "them") + " with <redacted> before you share." : "";
      openDialog($("share-dialog"));
      $("share-link").select();
    });
  });

  document.querySelectorAll("[data-copy]").forEach(function (button) {
    button.addEventListener("click", function () {
      var field = $(button.getAttribute("data-copy"));
      var done = function () {
        button.textContent = "Copied";
        button.classList.add("is-done");
        setTimeout(function () { button.textContent = "Copy"; button.classList.remove("is-done"); }, 1500);
      };
      field.select();
      if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(field.value).then(done, function () {
        if (document.execCommand("copy")) done();
      });
      else if (document.execCommand("copy")) done();
    });
  });

  /* --- dialogs and the templates gallery ---------------------------------------------------- */

  function openDialog(dialog) {
    if (typeof dialog.showModal === "function") dialog.showModal();
    else dialog.setAttribute("open", "");
  }

  document.querySelectorAll("dialog").forEach(function (dialog) {
    dialog.addEventListener("click", function (event) {
      if (event.target === dialog || event.target.closest("[data-close]")) dialog.close();
    });
    // Close here, before the viewer's page-wide Escape (which closes its panel) can cancel it.
    dialog.addEventListener("keydown", function (event) {
      if (event.key === "Escape") {
        event.preventDefault();
        event.stopPropagation();
        dialog.close();
      }
    });
  });

  $("open-templates").addEventListener("click", function () { openDialog($("templates")); });

  document.querySelectorAll("[data-template]").forEach(function (card) {
    card.addEventListener("click", function () {
      var id = card.getAttribute("data-template");
      fetch("/templates/" + encodeURIComponent(id)).then(function (response) {
        if (!response.ok) return errorOf(response).then(showProblem);
        return response.json().then(function (template) {
          $("templates").close();
          setSource(template.source, true);
        });
      });
    });
  });

  /* --- light and dark ----------------------------------------------------------------------- */
  // The system's setting until the reader picks one with the switch; the pick is remembered in
  // this browser. The preview is rendered in the same theme.

  var darkQuery = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;

  function chosenTheme() {
    try { return localStorage.getItem(THEME_KEY); } catch (error) { return null; }
  }

  function currentTheme() {
    var chosen = chosenTheme();
    if (chosen === "light" || chosen === "dark") return chosen;
    return darkQuery && darkQuery.matches ? "dark" : "light";
  }

  function showTheme() {
    var theme = currentTheme();
    document.documentElement.setAttribute("data-theme", theme);
    var button = $("theme");
    button.setAttribute("aria-pressed", theme === "dark" ? "true" : "false");
  }

  $("theme").addEventListener("click", function () {
    try { localStorage.setItem(THEME_KEY, currentTheme() === "dark" ? "light" : "dark"); } catch (error) { /* private mode */ }
    showTheme();
    renderNow();
  });
  if (darkQuery && darkQuery.addEventListener) darkQuery.addEventListener("change", function () {
    if (chosenTheme()) return;
    showTheme();
    renderNow();
  });
  showTheme();

  /* --- the cheat sheet ---------------------------------------------------------------------- */

  function openCheats() {
    var dialog = $("cheats");
    if (!dialog.open) openDialog(dialog);
  }
  $("open-cheats").addEventListener("click", openCheats);
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.altKey || event.metaKey) return;
    var typing = event.target === source || /^(INPUT|TEXTAREA|SELECT)$/.test(event.target.tagName || "");
    if (event.key === "F1" || (event.key === "?" && !typing)) {
      event.preventDefault();
      openCheats();
    }
  });

  /* --- downloads ---------------------------------------------------------------------------- */

  var menu = $("download-menu");
  document.addEventListener("click", function (event) {
    if (menu.open && !menu.contains(event.target)) menu.open = false;
  });

  // Downloads are what gets published: values that look like live secrets are masked in them
  // (as volley render --redact masks them) when the diagram holds some, until the writer says
  // otherwise; the preview, the writer's own, shows them as written.
  var maskChosen = null; // the writer's choice, once made
  var maskButton = $("download-redact");
  function masking() {
    return maskChosen === null ? secrets > 0 : maskChosen;
  }
  function showMasking() {
    maskButton.setAttribute("aria-checked", String(masking()));
    $("download-redact-note").textContent = secrets
      ? (secrets === 1 ? "1 value looks live" : secrets + " values look live")
      : "as <redacted>";
  }
  menu.addEventListener("toggle", showMasking);
  maskButton.addEventListener("click", function () {
    maskChosen = !masking();
    showMasking();
  });
  // Until the writer chooses, the server decides from the text it renders (the last preview
  // may be of older text, without a secret just pasted).
  function masked(query) {
    return query + "&redact=" + (maskChosen === null ? "auto" : maskChosen ? "1" : "0");
  }

  // The picture as PNG on the clipboard, to paste into a chat, a slide or an issue. A promise
  // for the blob lets the clipboard keep the user's gesture while the server renders.
  $("copy-picture").addEventListener("click", function () {
    var button = $("copy-picture");
    menu.open = false;
    var picture = fetch("/render?" + masked("format=png&scale=2"), {
      method: "POST", body: source.value, headers: { "Content-Type": "text/plain; charset=utf-8" }
    }).then(function (response) {
      if (!response.ok) return errorOf(response).then(function (error) { showProblem(error); throw error; });
      return response.blob();
    });
    if (!navigator.clipboard || !window.ClipboardItem) {
      showProblem({ message: "this browser cannot put a picture on the clipboard", hint: "use Download, then PNG" });
      return;
    }
    navigator.clipboard.write([new ClipboardItem({ "image/png": picture })]).then(function () {
      $("status-text").textContent = "Picture copied";
    }, function (error) {
      if (error && error.message && !error.name) return; // the render failed: already shown
      showProblem({ message: "the picture could not be copied (" + (error && error.message) + ")", hint: "use Download, then PNG" });
    });
  });

  function baseName() {
    if (file) return file.replace(/\.[^.]+$/, "");
    // letters and digits of any script (a title in Greek or Japanese names its file too)
    var slug = diagramTitle().normalize("NFC").toLowerCase().replace(/[^\p{L}\p{M}\p{N}]+/gu, "-").replace(/^-|-$/g, "");
    return Array.from(slug).slice(0, 60).join("").replace(/-$/, "") || "diagram";
  }

  document.querySelectorAll("[data-download]").forEach(function (button) {
    button.addEventListener("click", function () {
      var format = button.getAttribute("data-download");
      menu.open = false;
      var query = format === "png" ? "format=png&scale=2" : "format=" + format;
      fetch("/render?" + masked(query), { method: "POST", body: source.value, headers: { "Content-Type": "text/plain; charset=utf-8" } })
        .then(function (response) {
          if (!response.ok) return errorOf(response).then(showProblem);
          return response.blob().then(function (blob) {
            var url = URL.createObjectURL(blob);
            var link = document.createElement("a");
            link.href = url;
            link.download = baseName() + "." + format;
            document.body.appendChild(link);
            link.click();
            link.remove();
            setTimeout(function () { URL.revokeObjectURL(url); }, 10000);
          });
        });
    });
  });

  /* --- FILE: save, and follow changes made on disk ------------------------------------------- */

  var disk = { source: null, version: null }; // what the file held when last read or saved
  var pending = null; // a newer version on disk, waiting while the page has unsaved edits
  var saving = false;

  // Text not in the file: any, while nothing was read from it (another program saved what
  // volley cannot read).
  function dirty() {
    return file && source.value !== (disk.source === null ? "" : disk.source);
  }

  function showSaveState(state) {
    var label = $("doc-state");
    if (!label) return;
    // (the file on disk holds what volley cannot read: nothing here is saved, empty or not)
    var unread = disk.source === null && (pending !== null || disk.version !== null);
    state = state || (unread ? "failed" : dirty() ? "edited" : "saved");
    label.dataset.state = state;
    label.textContent = { saved: "Saved", edited: "Edited", saving: "Saving…", failed: "Not saved" }[state];
  }

  // `loadable`: the version on disk can be loaded (it is text volley reads).
  function showBanner(text, loadable) {
    $("banner-text").textContent = text;
    $("banner-load").hidden = loadable === false;
    $("banner").hidden = false;
  }

  // The file as GET /file answers it: its snapshot, or, where another program saved it in an
  // encoding volley does not read, a version without text, which the author may keep theirs
  // over (that is no mistake in the editor's text); null for any other failure, shown.
  function fromDisk(response) {
    if (response.ok) return response.json();
    var version = (response.headers.get("ETag") || "").replace(/"/g, "");
    return errorOf(response).then(function (error) {
      if (response.status !== 422 || !version) {
        showProblem(error);
        return null;
      }
      return { source: null, version: version, error: error };
    });
  }

  function askAboutDisk() {
    if (pending.source === null) {
      showBanner(file + " on disk is not text volley reads (" + pending.error.message + "). Keep yours and save to write it over the file.", false);
    } else {
      showBanner(file + " changed on disk since it was loaded. Load that version, or keep yours and save again.");
    }
  }

  function readFile(first) {
    var seen = pending ? pending.version : disk.version; // a change already shown: asked once
    var headers = seen && !first ? { "If-None-Match": '"' + seen + '"' } : {};
    return fetch("/file", { headers: headers, cache: "no-store" }).then(function (response) {
      if (response.status === 304 || saving) return;
      return fromDisk(response).then(function (snapshot) {
        if (!snapshot || (pending && pending.version === snapshot.version)) return;
        if (snapshot.source === null) {
          pending = snapshot; // nothing to load: the author keeps theirs, or mends the file
          showSaveState("failed"); // the file no longer holds the editor's text
          askAboutDisk();
        } else if (first || !dirty()) {
          disk = snapshot;
          pending = null;
          $("banner").hidden = true;
          setSource(snapshot.source, false);
          showSaveState();
        } else {
          pending = snapshot; // the save waits until the author chooses (Load, or Keep mine)
          showBanner(file + " changed on disk, and you have unsaved edits here.");
        }
      });
    });
  }

  function save() {
    if (!file || saving) return;
    if (pending) { // a change on disk not yet answered: saving now would overwrite it unseen
      showSaveState("failed");
      askAboutDisk();
      return;
    }
    saving = true;
    showSaveState("saving");
    var text = source.value;
    fetch("/file", {
      method: "PUT",
      body: text,
      headers: { "Content-Type": "text/plain; charset=utf-8", "If-Match": '"' + disk.version + '"' }
    }).then(function (response) {
      saving = false;
      if (response.status === 409) {
        showSaveState("failed");
        return fetch("/file", { cache: "no-store" }).then(fromDisk).then(function (snapshot) {
          if (!snapshot) return;
          pending = snapshot;
          askAboutDisk();
        });
      }
      if (!response.ok) {
        showSaveState("failed");
        return errorOf(response).then(showProblem);
      }
      return response.json().then(function (saved) {
        disk = { source: text, version: saved.version };
        $("banner").hidden = true;
        showSaveState();
      });
    }, function () {
      saving = false;
      showSaveState("failed");
    });
  }

  if (file) {
    $("save").addEventListener("click", save);
    document.addEventListener("keydown", function (event) {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === "s") {
        event.preventDefault();
        save();
      }
    });
    $("banner-load").addEventListener("click", function () {
      if (pending && pending.source !== null) {
        disk = pending;
        setSource(pending.source, true);
      }
      pending = null;
      $("banner").hidden = true;
      showSaveState();
    });
    $("banner-keep").addEventListener("click", function () {
      if (pending) {
        disk.version = pending.version; // the next save replaces the disk version
        if (pending.source === null) disk.source = null; // which holds none of the editor's text
      }
      pending = null;
      $("banner").hidden = true;
    });
    window.addEventListener("beforeunload", function (event) {
      if (dirty()) event.preventDefault();
    });
  }

  function poll() {
    var next = function () { setTimeout(poll, document.hidden ? POLL_EVERY * 3 : POLL_EVERY); };
    readFile(false).then(next, next);
  }

  /* --- draft, splitter, start --------------------------------------------------------------- */

  var draftTimer = 0;
  function saveDraft() {
    if (file) return;
    clearTimeout(draftTimer);
    draftTimer = setTimeout(function () {
      try { localStorage.setItem(DRAFT_KEY, source.value); } catch (error) { /* private mode */ }
    }, 400);
  }

  function loadDraft() {
    try { return localStorage.getItem(DRAFT_KEY); } catch (error) { return null; }
  }

  (function splitter() {
    var handle = $("splitter"), panes = $("panes");
    var set = function (percent) {
      percent = Math.max(20, Math.min(80, percent));
      panes.style.setProperty("--split", percent + "%");
      handle.setAttribute("aria-valuenow", String(Math.round(percent)));
      try { localStorage.setItem(SPLIT_KEY, String(percent)); } catch (error) { /* ignore */ }
    };
    var saved = null;
    try { saved = parseFloat(localStorage.getItem(SPLIT_KEY)); } catch (error) { saved = null; }
    if (saved) set(saved);
    handle.addEventListener("pointerdown", function (event) {
      handle.setPointerCapture(event.pointerId);
      document.body.classList.add("is-resizing");
      var move = function (e) {
        var box = panes.getBoundingClientRect();
        set(((e.clientX - box.left) / box.width) * 100);
      };
      var up = function () {
        handle.removeEventListener("pointermove", move);
        handle.removeEventListener("pointerup", up);
        document.body.classList.remove("is-resizing");
      };
      handle.addEventListener("pointermove", move);
      handle.addEventListener("pointerup", up);
    });
    handle.addEventListener("keydown", function (event) {
      var now = parseFloat(panes.style.getPropertyValue("--split")) || 42;
      if (event.key === "ArrowLeft") set(now - 2);
      else if (event.key === "ArrowRight") set(now + 2);
      else return;
      event.preventDefault();
    });
  })();

  // What the page opens with: a share link in the address wins, then FILE, then the draft
  // left in this browser, then the starter diagram.
  function start() {
    var shared = sharedFromAddress();
    if (file) {
      readFile(true).then(function () { if (shared) return openShared(shared); }).then(poll, poll);
    } else if (shared) {
      openShared(shared);
    } else {
      var draft = loadDraft();
      setSource(draft ? draft : config.starter, false);
    }
  }

  repaint();
  start();
})();
