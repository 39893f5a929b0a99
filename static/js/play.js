// The practice game, made live: the latest move's events appear one at a time and the
// pegs follow them; at most two cards stay chosen for the crib. Without this file every
// event is listed at once and the forms post as usual.
(function () {
  "use strict";
  var STEP_MS = 650;
  var timers = [];

  function reducedMotion() {
    return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  }

  function holeKey(score, back) {
    if (score <= 0) return back ? "0b" : "0a";
    return String(Math.min(score, 121));
  }

  function placePeg(board, player, back, score) {
    var peg = board.querySelector('[data-peg="' + player + "-" + (back ? "back" : "front") + '"]');
    var hole = board.querySelector('[data-hole="' + player + "-" + holeKey(score, back) + '"]');
    if (!peg || !hole) return;
    // The SVG attribute, not a style: the page's Content-Security-Policy allows no inline
    // styles. The peg's CSS transition animates the change all the same.
    peg.setAttribute("transform", "translate(" + hole.getAttribute("cx") + ", " + hole.getAttribute("cy") + ")");
    peg.setAttribute("data-score", String(score));
  }

  function setPegs(game, text) {
    var board = game.querySelector("[data-board]");
    var pegs = (text || "").split(" ").map(Number);
    // Two pegs a side: two sides, or three in a game of three.
    if (!board || pegs.length < 4 || pegs.length % 2) return;
    for (var player = 0; player < pegs.length / 2; player++) {
      placePeg(board, player, false, pegs[2 * player]);
      placePeg(board, player, true, pegs[2 * player + 1]);
      var score = game.querySelector('[data-score-text="' + player + '"]');
      if (score) score.textContent = String(pegs[2 * player]);
    }
  }

  function finish(game) {
    timers.forEach(clearTimeout);
    timers = [];
    if (!game) return;
    game.querySelectorAll(".line.pending").forEach(function (line) {
      line.classList.remove("pending");
    });
    var lines = game.querySelectorAll("[data-news] .line[data-pegs]");
    if (lines.length) setPegs(game, lines[lines.length - 1].getAttribute("data-pegs"));
    var skip = game.querySelector("[data-news-skip]");
    if (skip) skip.hidden = true;
  }

  function reveal(game) {
    var list = game.querySelector("[data-news]");
    var lines = list ? Array.prototype.slice.call(list.querySelectorAll(".line[data-pegs]")) : [];
    if (!lines.length || reducedMotion()) return;
    var board = game.querySelector("[data-board]");
    if (board) board.classList.add("no-anim");
    setPegs(game, list.getAttribute("data-pegs-before"));
    if (board) {
      board.getBoundingClientRect();
      requestAnimationFrame(function () { board.classList.remove("no-anim"); });
    }
    lines.forEach(function (line) { line.classList.add("pending"); });
    var skip = game.querySelector("[data-news-skip]");
    if (skip && lines.length > 1) {
      skip.hidden = false;
      skip.onclick = function () { finish(game); };
    }
    lines.forEach(function (line, index) {
      timers.push(setTimeout(function () {
        line.classList.remove("pending");
        line.classList.add("fresh");
        setPegs(game, line.getAttribute("data-pegs"));
        if (index === lines.length - 1 && skip) skip.hidden = true;
      }, 60 + index * STEP_MS));
    });
  }

  // At most two cards chosen for the crib: a third choice lets go of the earliest.
  var chosen = [];
  document.addEventListener("change", function (event) {
    var box = event.target;
    if (!box.classList || !box.classList.contains("card-check")) return;
    chosen = chosen.filter(function (other) { return other !== box && other.isConnected && other.checked; });
    if (box.checked) chosen.push(box);
    while (chosen.length > 2) chosen.shift().checked = false;
  });

  document.addEventListener("htmx:beforeRequest", function (event) {
    var game = document.getElementById("game");
    if (event.detail && event.detail.elt === game) return;  // its poll: let the telling run
    finish(game);
  });

  // A game against a member polls its table. A poll sent before one's own move and
  // answered after it would bring the older table back, and an answer no newer than the
  // page would only disturb the cards being chosen: only a newer table is swapped in.
  // A newer one (the other player laid away meanwhile) keeps the cards being chosen and
  // the focus: they are noted here and chosen again in the new table.
  var kept = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    if (!target || target.id !== "game" || event.detail.elt !== target) return;
    var found = /data-version="(\d+)"/.exec(event.detail.serverResponse || "");
    if (found && Number(found[1]) <= Number(target.getAttribute("data-version"))) {
      event.detail.shouldSwap = false;
      return;
    }
    var focused = document.activeElement;
    kept = {
      cards: chosen.filter(function (box) { return box.isConnected && box.checked; })
        .map(function (box) { return box.value; }),
      focus: focused && focused.classList.contains("card-check") ? focused.value : null
    };
  });

  function chooseAgain(game) {
    if (!kept) return;
    var boxes = Array.prototype.slice.call(game.querySelectorAll(".card-check"));
    function box(value) {
      return boxes.filter(function (each) { return each.value === value; })[0];
    }
    chosen = kept.cards.map(box).filter(Boolean);
    chosen.forEach(function (each) { each.checked = true; });
    var focus = kept.focus && box(kept.focus);
    if (focus) focus.focus();
    kept = null;
  }

  // Moves pushed: a game whose #game names its event stream (data-events) fetches its
  // table (the "refresh" trigger: htmx's GET with its ETag) when the stream announces a
  // version newer than the page's, and asks nothing while the game is idle. Where the
  // stream cannot be had (no EventSource; the server answers 204, which closes it; three
  // breaks without an event between) the page polls every data-poll-ms, as it did before.
  // While one's own move is on its way its answer brings the table: no fetch meanwhile.
  var stream = null;
  var streamUrl = "";
  var polling = null;
  var breaks = 0;
  var announced = 0;
  var moving = 0;

  function currentGame() {
    return document.getElementById("game");
  }

  function behind(game) {
    return game && announced > Number(game.getAttribute("data-version"));
  }

  function fetchTable() {
    var game = currentGame();
    if (game && game.getAttribute("hx-get") && window.htmx) window.htmx.trigger(game, "refresh");
  }

  function closeStream() {
    if (stream) stream.close();
    stream = null;
    streamUrl = "";
  }

  function poll(game) {
    closeStream();
    if (!polling) polling = setInterval(fetchTable, Number(game.getAttribute("data-poll-ms")) || 1000);
  }

  function follow(game) {
    var url = game && game.getAttribute("data-events");
    if (!url) {  // the game is over (or polled by htmx itself): nothing more to follow
      closeStream();
      if (polling) clearInterval(polling);
      polling = null;
      return;
    }
    if (polling || streamUrl === url) return;
    if (!window.EventSource) {
      poll(game);
      return;
    }
    streamUrl = url;
    stream = new EventSource(url);
    stream.addEventListener("version", function (event) {
      breaks = 0;
      announced = Math.max(announced, Number(event.data));
      if (!moving && behind(currentGame())) fetchTable();
    });
    stream.onerror = function () {
      breaks += 1;
      if (stream.readyState === EventSource.CLOSED || breaks >= 3) poll(currentGame());
    };
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.detail && event.detail.elt;
    if (form && form.classList && form.classList.contains("move-form")) moving += 1;
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    if (elt && elt.classList && elt.classList.contains("move-form")) moving = Math.max(0, moving - 1);
    else if (!elt || elt.id !== "game") return;
    // A version announced while this request was on its way, and not brought by it.
    if (!moving && event.detail.successful && behind(currentGame())) setTimeout(fetchTable, 0);
  });

  if (window.htmx) {
    window.htmx.onLoad(function (element) {
      if (element && element.id === "game") {
        chooseAgain(element);
        reveal(element);
        follow(element);
      }
    });
  }
  follow(currentGame());
})();
