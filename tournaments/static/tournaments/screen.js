// The room's screen (tournaments/screen.html): draws the event's live picture from its
// WebSocket ({"type": "event", ...}) on a projector that nobody touches. It turns the
// pages of lists too long for the screen, counts the round's time, shows who sits where
// in a round's first minutes, and reconnects by itself, with backoff, after a drop.
// No build step.
"use strict";
(() => {
  const page = JSON.parse(document.getElementById("atu-screen").textContent);
  const T = page.text;
  const $ = (id) => document.getElementById(id);
  const fmt = (text, values) => text.replace(/%\((\w+)\)s/g, (_, key) => String(values[key]));
  const lang = document.documentElement.lang || undefined;
  const collator = new Intl.Collator(lang, { sensitivity: "base" });
  const clockTime = new Intl.DateTimeFormat(lang, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  // The screen has room for a few announcements: the newest.
  const ANNOUNCEMENTS_SHOWN = 3;
  // The round's clock counts in the server's time, whatever this computer's clock says.
  const skew = Date.parse(page.server_now) - Date.now();

  let live = null;
  let changed = new Set(); // the players whose points the last picture changed
  let seating = false; // whether "find your table" takes the standings' place
  const pagers = { board: { page: 0, pages: 1 }, seating: { page: 0, pages: 1 }, tables: { page: 0, pages: 1 } };

  function node(tag, attributes = {}, children = []) {
    const element = document.createElement(tag);
    for (const [key, value] of Object.entries(attributes)) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "text") element.textContent = String(value);
      else element.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children) if (child !== null && child !== undefined) element.append(child);
    return element;
  }

  // --- the socket ---------------------------------------------------------------

  let socket = null;
  let retries = 0;
  let retry = null; // the timer of the next attempt
  let digest = null; // the digest of the socket's last picture, its next patch's base

  // A socket silent for too long is given up and opened again.
  const silence = window.atuSilence((dead) => {
    socket = null;
    dead.close();
    reconnect();
  });

  function connect() {
    clearTimeout(retry);
    retry = null;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const opened = new WebSocket(`${scheme}//${location.host}${page.socket}`);
    socket = opened;
    silence.watch(opened);
    opened.addEventListener("message", (message) => {
      if (opened !== socket) return;
      silence.heard();
      const data = JSON.parse(message.data);
      if (data.type === "event") {
        retries = 0;
        digest = data.digest;
        setConnection("");
        show(data.event);
      } else if (data.type === "event.patch" && live && data.from === digest) {
        digest = data.digest;
        show({ ...window.atuPatched(live, data.patch), me: data.me });
      } else if (data.type === "event.patch") {
        // A patch of a picture this screen does not hold: the whole one instead.
        opened.send(JSON.stringify({ type: "refresh" }));
      } else if (data.type === "pong" && live && data.version > live.version) {
        opened.send(JSON.stringify({ type: "refresh" }));
      }
    });
    opened.addEventListener("close", (closed) => {
      // One given up for dead has its successor already.
      if (opened !== socket) return;
      socket = null;
      // One socket too many of this client: a screen waits longer, then tries again.
      reconnect(closed.code === 4430 ? T.too_many_sockets : T.reconnecting);
    });
  }

  function reconnect(text = T.reconnecting) {
    setConnection(text);
    if (retry !== null) return;
    const wait = Math.min(15000, 500 * 2 ** retries++) * (0.75 + Math.random() / 2);
    retry = setTimeout(connect, wait);
  }

  // The browser knows when the network went and came back: no need to wait for a timer.
  window.addEventListener("offline", () => {
    const gone = socket;
    socket = null;
    if (gone) gone.close();
    reconnect();
  });
  window.addEventListener("online", () => {
    if (socket && socket.readyState === WebSocket.OPEN) return;
    retries = 0;
    connect();
  });

  function setConnection(text) {
    const element = $("connection");
    element.textContent = text;
    element.hidden = !text;
    document.body.dataset.connection = text ? "lost" : "live";
  }

  // --- drawing ------------------------------------------------------------------

  function show(data) {
    const before = live;
    live = data;
    const previous = new Map(before ? before.leaderboard.map((row) => [row.player_id, row.points_text]) : []);
    changed = new Set(
      before ? live.leaderboard.filter((row) => previous.get(row.player_id) !== row.points_text).map((row) => row.player_id) : [],
    );
    document.body.dataset.eventVersion = String(data.version);
    drawStatus();
    drawAnnouncements();
    tick();
    drawBoard();
    drawTables();
  }

  function drawStatus() {
    const round = live.round ? fmt(T.round_of, { round: live.round, total: live.rounds_total }) : T.no_round;
    $("screen-status").textContent = `${T.status[live.status] || live.status} · ${round}`;
  }

  function drawAnnouncements() {
    const shown = live.announcements.slice(0, ANNOUNCEMENTS_SHOWN);
    $("announcement-list").replaceChildren(
      ...shown.map((made) =>
        node("li", { "data-number": made.number }, [
          made.at ? node("time", { datetime: made.at, text: clockTime.format(new Date(made.at)) }) : null,
          node("span", { class: "text", text: made.text }),
        ]),
      ),
    );
    $("screen-announcements").hidden = !shown.length;
  }

  // The seconds since the current round started, in the server's time; null if none.
  function roundSeconds() {
    if (!live.round || !live.round_started_at) return null;
    return Math.max(0, Math.floor((Date.now() + skew - Date.parse(live.round_started_at)) / 1000));
  }

  function duration(seconds) {
    const h = Math.floor(seconds / 3600);
    const m = Math.floor((seconds % 3600) / 60);
    const s = String(seconds % 60).padStart(2, "0");
    return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
  }

  // Every second: the clock, and whether the round is young enough to show the seating.
  function tick() {
    const seconds = roundSeconds();
    const over = live.status === "finished" || live.status === "published";
    // A round with a time limit counts down (atu/clock.js) instead of counting up.
    const countdown = Boolean(live.round_playing && live.round_ends_at);
    $("round-clock").dataset.endsAt = countdown ? live.round_ends_at : "";
    $("round-clock").dataset.called = live.round_time_called ? "true" : "";
    window.atuClock();
    $("clock-box").hidden = seconds === null || over || countdown;
    if (seconds !== null && live.round_playing) {
      $("clock-label").textContent = fmt(T.round_time, { round: live.round });
      $("clock").textContent = duration(seconds);
      $("clock").hidden = false;
    } else if (seconds !== null) {
      $("clock-label").textContent = fmt(T.round_over, { round: live.round });
      $("clock").hidden = true;
    }
    const young = seconds !== null && live.round_playing && seconds < page.find_seconds && live.tables.length > 0;
    if (young !== seating) {
      seating = young;
      drawBoard();
    }
  }

  // Lays ``rows`` in ``list``: all of them if they fit its viewport, else the pager's
  // current page of as many as fit.
  function paged(name, list, rows, label) {
    const pager = pagers[name];
    list.replaceChildren(...rows);
    const view = list.closest(".viewport");
    let per = rows.length;
    if (rows.length && view.scrollHeight > view.clientHeight + 1) {
      const bottom = view.getBoundingClientRect().bottom;
      per = Math.max(1, rows.filter((row) => row.getBoundingClientRect().bottom <= bottom + 0.5).length);
    }
    pager.pages = Math.max(1, Math.ceil(rows.length / per));
    if (pager.page >= pager.pages) pager.page = 0;
    if (pager.pages > 1) list.replaceChildren(...rows.slice(pager.page * per, (pager.page + 1) * per));
    label.textContent = pager.pages > 1 ? fmt(T.page_of, { page: pager.page + 1, pages: pager.pages }) : "";
  }

  function drawBoard() {
    if (!live) return;
    $("leaderboard-view").hidden = seating;
    $("seating-view").hidden = !seating;
    $("board-title").textContent = seating ? fmt(T.find_your_table, { round: live.round }) : T.standings;
    $("board-note").textContent = seating || !live.leaderboard.length ? "" : live.provisional ? T.provisional : T.final;
    if (seating) paged("seating", $("seating"), seatingRows(), $("board-pages"));
    else paged("board", document.querySelector("#screen-leaderboard tbody"), leaderboardRows(), $("board-pages"));
  }

  function leaderboardRows() {
    if (!live.leaderboard.length) {
      return [node("tr", { class: "empty" }, [node("td", { colspan: 4, text: live.screened ? T.screened : T.no_standings })])];
    }
    return live.leaderboard.map((row) =>
      node("tr", { "data-player": row.player_id, class: changed.has(row.player_id) ? "changed" : null }, [
        node("td", { class: "rank", text: row.rank }),
        node("td", { class: "name" }, [
          row.name,
          row.disqualified ? " " : null,
          row.disqualified ? node("span", { class: "tag disqualified", text: fmt(T.disqualified, { reason: row.disqualified }) }) : null,
        ]),
        node("td", { class: "points", text: row.points_text }),
        node("td", { class: "games", text: row.games }),
      ]),
    );
  }

  // The current round's players by name, each with their table.
  function seatingRows() {
    const seats = live.tables.flatMap((table) => table.players.map((player) => ({ name: player.name, table: table.number })));
    seats.sort((a, b) => collator.compare(a.name, b.name) || a.table - b.table);
    return seats.map((seat) =>
      node("li", { "data-table": seat.table }, [
        node("span", { class: "name", text: seat.name }),
        node("span", { class: "at", text: fmt(T.table, { number: seat.table }) }),
      ]),
    );
  }

  function tableState(table) {
    if (table.finished) return T.finished;
    if (table.paused) return T.paused;
    if (table.status !== "playing") return T.waiting_start;
    return fmt(T.deal_of, { hand: table.hand, total: table.hands_total });
  }

  function tableTile(table) {
    const status = table.paused ? "paused" : table.status;
    const done = table.finished ? table.hands_total : Math.max(0, table.hand - 1);
    return node("li", { "data-game": table.game_code, "data-status": status, "data-place": table.place }, [
      node("div", { class: "head" }, [
        node("span", { class: "number", text: fmt(T.table, { number: table.number }) }),
        node("span", { class: `place ${table.place}`, text: table.place === "room" ? T.room : T.online }),
      ]),
      node("p", { class: "state", text: tableState(table) }),
      table.hands_total ? node("progress", { value: done, max: table.hands_total }) : null,
    ]);
  }

  function drawTables() {
    if (!live) return;
    const tiles = live.tables.length ? live.tables.map(tableTile) : [node("li", { class: "none", text: T.no_tables })];
    paged("tables", $("screen-tables"), tiles, $("tables-pages"));
  }

  function turnPages() {
    let turned = false;
    for (const pager of Object.values(pagers)) {
      if (pager.pages > 1) {
        pager.page = (pager.page + 1) % pager.pages;
        turned = true;
      }
    }
    if (turned) {
      drawBoard();
      drawTables();
    }
  }

  show(page.live);
  connect();
  setInterval(tick, 1000);
  setInterval(turnPages, page.page_seconds * 1000);
  window.addEventListener("resize", () => {
    drawBoard();
    drawTables();
  });
})();
