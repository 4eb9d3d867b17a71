// The event pages (public, organizer's, "my table"): draws the live picture of a
// championship event from what the event's WebSocket sends ({"type": "event", ...}),
// without reloading the page, and reconnects by itself. No build step.
"use strict";
(() => {
  const page = JSON.parse(document.getElementById("atu-event").textContent);
  const T = page.text;
  const manage = page.mode === "manage";
  const $ = (id) => document.getElementById(id);
  const fmt = (text, values) => text.replace(/%\((\w+)\)s/g, (_, key) => String(values[key]));
  // Seconds a seat may think before the organizer's page marks the table slow.
  const SLOW_SECONDS = 60;

  let live = null;
  let receivedAt = Date.now();
  let socket = null;
  let retries = 0;
  // A socket silent for too long is given up and opened again.
  const silence = window.atuSilence((dead) => {
    dead.close();
    setConnection(T.reconnecting);
    connect();
  });
  // The digest of the socket's last picture, which its next patch is made from.
  let digest = null;
  let seatKey; // the seat last shown ("round:game"), undefined before the first picture

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

  const score = (player) => (player.score === null ? "–" : String(player.score));
  const withCode = (template, code) => template.replace("CODE", encodeURIComponent(code));

  function postForm(action, label, className, fields = {}) {
    return node("form", { method: "post", class: "inline", action }, [
      node("input", { type: "hidden", name: "csrfmiddlewaretoken", value: page.csrf }),
      ...Object.entries(fields).map(([name, value]) => node("input", { type: "hidden", name, value })),
      node("button", { type: "submit", class: className, text: label }),
    ]);
  }

  // As tournaments/_confirm.html: the first press opens the question, the second acts.
  function confirmForm(action, label, question, confirm, className) {
    const form = postForm(action, confirm, `${className} confirm-yes`);
    form.prepend(node("p", { class: "question", text: question }));
    return node("details", { class: "confirm" }, [node("summary", { class: `button ${className}`, text: label }), form]);
  }

  // --- the socket -------------------------------------------------------------

  function connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const opened = new WebSocket(`${scheme}//${location.host}${page.socket}`);
    socket = opened;
    silence.watch(opened);
    opened.addEventListener("open", () => {
      retries = 0;
      setConnection("");
    });
    opened.addEventListener("message", (message) => {
      if (opened !== socket) return;
      silence.heard();
      const data = JSON.parse(message.data);
      if (data.type === "event") {
        digest = data.digest;
        setConnection("");
        show(data.event);
      } else if (data.type === "event.patch" && live && data.from === digest) {
        digest = data.digest;
        setConnection("");
        show({ ...window.atuPatched(live, data.patch), me: data.me });
      } else if (data.type === "event.patch") {
        // A patch of a picture this page does not hold: the whole one instead.
        opened.send(JSON.stringify({ type: "refresh" }));
      } else if (data.type === "pong" && live && data.version > live.version) {
        setConnection(T.catching_up);
        socket.send(JSON.stringify({ type: "refresh" }));
      }
    });
    opened.addEventListener("close", (closed) => {
      // One given up for dead has its successor already.
      if (opened !== socket) return;
      // An event this viewer may no longer see: the manage page asks whether it is so.
      if (closed.code === 4404) {
        if (manage) poll();
        return;
      }
      // One socket too many of this client (4430): refused again until a tab closes.
      if (closed.code === 4430) {
        setConnection(T.too_many_sockets);
        return;
      }
      setConnection(T.reconnecting);
      setTimeout(connect, Math.min(5000, 250 * 2 ** retries++));
    });
  }

  function setConnection(text) {
    const element = $("connection");
    if (element) element.textContent = text;
  }

  // The organizer's page also asks now and then: whose turn it is changes with every
  // move, which the event's socket does not announce.
  async function poll() {
    try {
      const response = await fetch(page.poll, { credentials: "same-origin" });
      if (response.ok) {
        // Not the socket's picture: its next patch is refused for the whole one.
        digest = null;
        show(await response.json(), true);
      } else if (response.status === 404) {
        // A deputy removed from a private event they did not enter may no longer see
        // it: the page, loaded again, says so.
        location.reload();
      }
    } catch (error) {
      // The socket's reconnection says the connection is lost.
    }
  }

  // --- drawing ------------------------------------------------------------------

  // Whether the socket has brought a picture for who directs the event.
  let heardDirecting = false;

  // ``polled``: the picture is the poll's, asked with the page's own session.
  function show(data, polled = false) {
    // A deputy removed while their manage page is open: the page, loaded again, says
    // they no longer direct the event. The socket's word is taken once it has seen the
    // viewer direct; a socket that never has (the deputy removed before its first
    // picture) is checked against the poll, which answers as the page would.
    if (manage && data.directs === false) {
      if (polled || heardDirecting) location.reload();
      else poll();
      return;
    }
    if (!polled && data !== page.live && data.directs) heardDirecting = true;
    const before = live;
    live = data;
    drawDirects();
    receivedAt = Date.now();
    document.body.dataset.eventVersion = String(data.version);
    document.body.dataset.eventStatus = data.status;
    drawStatus();
    drawCalls(before);
    drawClock();
    drawAnnouncements();
    drawLeaderboard(before);
    drawTables();
    drawRounds();
    drawEntries();
    drawMe();
    drawPublish();
    drawStartRound();
    for (const input of document.querySelectorAll("input[name=expected_version]")) {
      input.value = String(data.version);
    }
  }

  // The event page's link to the manage page, for who directs the event: a deputy named
  // while the page is open finds it there.
  function drawDirects() {
    const link = $("manage-link");
    if (link) link.hidden = !live.directs;
  }

  // The round's countdown (atu/clock.js), while its tables play.
  function drawClock() {
    const clock = $("round-clock");
    if (!clock) return;
    clock.dataset.endsAt = (live.round_playing && live.round_ends_at) || "";
    clock.dataset.called = live.round_time_called ? "true" : "";
    window.atuClock();
    drawClockControl();
  }

  // The manage page's "Call time now" and "Extend the round", offered exactly when the
  // services would take them: a round in play whose time is not called (and, to
  // extend, that has a limit). The forms name the round they act on.
  function drawClockControl() {
    const control = $("clock-control");
    if (!control) return;
    const open = live.round_playing && !live.round_time_called;
    control.hidden = !open;
    $("extend-round").hidden = !open || !live.round_ends_at;
    for (const input of control.querySelectorAll("input[name=round]")) input.value = String(live.round);
  }

  // Publishing waits until no table of the round plays.
  function drawPublish() {
    const wait = $("publish-wait");
    if (!wait) return;
    const playing = live.tables.some((table) => !table.finished);
    wait.hidden = !playing;
    $("publish-ready").hidden = playing;
  }

  // The next round is offered exactly when its service would start it (the picture's
  // next_round, by the same rule); otherwise the page says why not.
  function drawStartRound() {
    const form = $("start-round-form");
    if (!form || !live.next_round) return;
    const refusal = live.next_round.refusal;
    form.hidden = Boolean(refusal);
    $("start-round").textContent = fmt(T.start_round, { round: live.next_round.number });
    const wait = $("start-round-wait");
    wait.hidden = !refusal;
    wait.textContent = refusal ? T.start_waits[refusal] || "" : "";
  }

  // Check-in and withdrawal are for the rounds to come: none once the event is over.
  const over = () => live.status === "finished" || live.status === "published";

  function drawStatus() {
    const element = $("event-status");
    if (!element) return;
    const round = live.round
      ? fmt(T.round_of, { round: live.round, total: live.rounds_total })
      : T.no_round;
    element.textContent = `${T.status[live.status] || live.status} · ${round}`;
    element.dataset.status = live.status;
  }

  // The director's announcements, newest first; the organizer's page withdraws them.
  function drawAnnouncements() {
    const list = $("announcements");
    if (!list) return;
    list.replaceChildren(
      ...live.announcements.map((made) => {
        const item = node("li", { "data-number": made.number }, [node("span", { class: "text", text: made.text })]);
        if (manage) {
          const action = page.unannounce_url.replace("/announcements/0/", `/announcements/${made.number}/`);
          item.append(" ", postForm(action, T.withdraw, "unannounce"));
        }
        return item;
      }),
    );
    if (!manage) $("announcements-panel").hidden = !live.announcements.length;
  }

  // --- the calls to the director (the organizer's page) ---------------------------

  let audio = null;
  // A browser lets a page sound only after its reader touched it: the first touch
  // makes the page's one audio context.
  function wakeAudio() {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!audio && Context) audio = new Context();
    if (audio && audio.state === "suspended") audio.resume();
  }

  function beep() {
    // Counted on the page, so that a test (or a curious director) can tell it rang.
    document.body.dataset.callsSounded = String(Number(document.body.dataset.callsSounded || 0) + 1);
    if (!audio) return;
    for (const [start, frequency] of [[0, 880], [0.25, 1175]]) {
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = frequency;
      gain.gain.setValueAtTime(0.2, audio.currentTime + start);
      gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + start + 0.2);
      tone.connect(gain).connect(audio.destination);
      tone.start(audio.currentTime + start);
      tone.stop(audio.currentTime + start + 0.2);
    }
  }

  const clock = (seconds) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;

  function callSeconds(element) {
    return Number(element.dataset.waited) + Math.floor((Date.now() - Number(element.dataset.received)) / 1000);
  }

  function callClock(element) {
    const template = element.dataset.state === "answered" ? T.call_answered : T.call_waiting;
    element.textContent = fmt(template, { time: clock(callSeconds(element)) });
  }

  function callItem(call) {
    const number = `/calls/${call.number}/`;
    const waited = node("span", {
      class: "waited",
      "data-waited": call.waited_seconds,
      "data-received": receivedAt,
      "data-state": call.state,
    });
    callClock(waited);
    const table = call.place === "room" && page.score_url ? page.score_url : page.game_url;
    const note = node("input", {
      type: "text",
      name: "note",
      maxlength: page.max_note,
      "aria-label": T.call_note,
      placeholder: T.call_note,
    });
    const close = postForm(page.close_call_url.replace("/calls/0/", number), T.close_call, "close-call");
    close.prepend(note, " ");
    return node("li", { class: "call", "data-number": call.number, "data-state": call.state }, [
      node("p", {}, [
        node("strong", { text: fmt(T.call_from, { name: call.name, table: call.table, seat: call.seat + 1 }) }),
        " · ",
        node("span", { class: "reason", text: T.reasons[call.reason] || call.reason }),
        " · ",
        waited,
      ]),
      call.text ? node("p", { class: "call-text", text: call.text }) : null,
      node("p", { class: "call-actions" }, [
        node("a", { class: "button open-table", href: withCode(table, call.game_code), text: T.open_table }),
        " ",
        call.state === "waiting" ? postForm(page.answer_call_url.replace("/calls/0/", number), T.answer_call, "answer-call") : null,
        " ",
        close,
      ]),
    ]);
  }

  function drawCalls(before) {
    const list = $("calls");
    if (!list || !live.calls) return;
    const known = new Set(before && before.calls ? before.calls.map((call) => call.number) : []);
    if (before && live.calls.some((call) => !known.has(call.number))) beep();
    // A note being written is kept: the list is drawn again only when a call changed.
    const shape = JSON.stringify(live.calls.map((call) => [call.number, call.state]));
    if (list.dataset.shape === shape) {
      for (const element of list.querySelectorAll(".waited")) {
        const call = live.calls.find((made) => String(made.number) === element.closest(".call").dataset.number);
        element.dataset.waited = call.waited_seconds;
        element.dataset.received = receivedAt;
      }
      return;
    }
    list.dataset.shape = shape;
    list.replaceChildren(
      ...(live.calls.length ? live.calls.map(callItem) : [node("li", { class: "hint", text: T.no_calls })]),
    );
  }

  // A disqualified player's line is marked, with the reason, as on the results page.
  function disqualifiedTag(row) {
    if (!row.disqualified) return [];
    return [" ", node("span", { class: "tag disqualified", text: fmt(T.disqualified, { reason: row.disqualified }) })];
  }

  function drawLeaderboard(before) {
    const body = document.querySelector("#leaderboard tbody");
    if (!body) return;
    const previous = new Map();
    if (before) for (const row of before.leaderboard) previous.set(row.player_id, row.points_text);
    const rows = live.leaderboard.map((row) => {
      const changed = before && previous.get(row.player_id) !== row.points_text;
      return node("tr", { "data-player": row.player_id, class: changed ? "changed" : null }, [
        node("td", { text: row.rank }),
        node("td", {}, [
          // A person with a page (not a bot, nor a guest): their name leads to it.
          row.linked ? node("a", { href: page.player_url.replace(/\/0\/$/, `/${row.player_id}/`), text: row.name }) : row.name,
          ...disqualifiedTag(row),
        ]),
        node("td", { class: "points", text: row.points_text }),
        // A whist drive has no bids to make exactly.
        live.kind === "classic" ? null : node("td", { text: row.exact_bids }),
        node("td", { text: row.games }),
      ]);
    });
    if (!rows.length) {
      const empty = live.screened ? T.screened : T.no_standings;
      rows.push(node("tr", { class: "empty" }, [node("td", { colspan: live.kind === "classic" ? 4 : 5, text: empty })]));
    }
    body.replaceChildren(...rows);
    drawNote();
  }

  // Published results are provisional until their protest window ends, then final:
  // told again at that moment, as no change of the event may come to say so.
  let noteTimer = null;
  function drawNote() {
    const note = $("standings-note");
    if (!note) return;
    clearTimeout(noteTimer);
    const left = live.final_at ? Date.parse(live.final_at) - Date.now() : 0;
    if (left > 0) {
      const time = new Date(live.final_at).toLocaleString();
      note.textContent = fmt(T.provisional_until, { time });
      noteTimer = setTimeout(drawNote, Math.min(left + 500, 2 ** 31 - 1));
    } else {
      note.textContent = live.provisional && !live.final_at ? T.provisional : T.final;
    }
  }

  function tableState(table) {
    if (table.finished) return T.finished;
    if (table.paused) return T.paused;
    if (table.status !== "playing") return T.waiting_start;
    return fmt(T.deal_of, { hand: table.hand, total: table.hands_total });
  }

  function idle(turn) {
    return turn.idle_seconds + Math.floor((Date.now() - receivedAt) / 1000);
  }

  function turnLine(turn) {
    const seconds = idle(turn);
    return node("p", {
      class: seconds >= SLOW_SECONDS ? "turn slow" : "turn",
      "data-idle": turn.idle_seconds,
      "data-name": turn.name,
      text: fmt(T.to_act, { name: turn.name, seconds }),
    });
  }

  function tableLinks(table, tag) {
    const links = node(tag, { class: "links" }, [
      node("a", {
        href: withCode(page.game_url, table.game_code),
        text: table.finished ? T.replay : T.watch,
      }),
    ]);
    if (table.record) {
      links.append(" · ", node("a", { href: withCode(page.record_url, table.game_code), text: T.record }));
    }
    if (manage && page.score_url && table.place === "room") {
      links.append(" · ", node("a", { href: withCode(page.score_url, table.game_code), text: T.score }));
    }
    return links;
  }

  function tableCard(table) {
    const toAct = table.turn ? table.turn.seat : null;
    const seats = node(
      "ol",
      { class: "seats" },
      table.players.map((player) =>
        node("li", { "data-player": player.player_id, class: player.seat === toAct ? "to-act" : null }, [
          node("span", { class: "name", text: player.name }),
          " ",
          node("span", { class: "score", text: score(player) }),
        ]),
      ),
    );
    const children = [
      node("h3", { text: fmt(T.table, { number: table.number }) }),
      node("p", { class: "state", text: tableState(table) }),
      seats,
    ];
    if (table.place === "room") children.splice(1, 0, node("p", { class: "place", text: T.in_room }));
    if (manage && table.turn) children.push(turnLine(table.turn));
    children.push(tableLinks(table, "p"));
    if (manage && page.pause_url && table.status === "playing") {
      children.push(
        table.paused
          ? postForm(withCode(page.resume_url, table.game_code), T.resume, "resume")
          : postForm(withCode(page.pause_url, table.game_code), T.pause, "pause"),
      );
    }
    if (manage && page.move_url && live.place === "both" && !table.finished && !table.hands_scored) {
      const room = table.place !== "room";
      const action = page.move_url.replace("/0/", `/${table.number}/`);
      children.push(postForm(action, room ? T.move_to_room : T.move_online, "move-table", { place: room ? "room" : "online" }));
    }
    const status = table.paused ? "paused" : table.status;
    return node("article", { class: "table-card", id: `table-${table.game_code}`, "data-game": table.game_code, "data-status": status }, children);
  }

  function drawTables() {
    const box = $("tables");
    if (!box) return;
    const title = $("tables-title");
    if (title) {
      const playing = live.tables.some((table) => !table.finished);
      title.textContent = playing || !live.round ? T.tables_in_play : fmt(T.tables_of_round, { round: live.round });
    }
    const cards = live.tables.map(tableCard);
    box.replaceChildren(...(cards.length ? cards : [node("p", { class: "hint", text: T.no_tables })]));
  }

  function drawRounds() {
    const box = $("rounds");
    if (!box) return;
    const rounds = live.rounds.slice().reverse().map((round) =>
      node("section", { class: "round", "data-round": round.number }, [
        node("h3", { text: fmt(T.round, { round: round.number }) }),
        node("table", { class: "list", tabindex: "0" }, [
          node(
            "tbody",
            {},
            round.tables.map((table) =>
              node("tr", { "data-game": table.game_code }, [
                node("td", { text: fmt(T.table, { number: table.number }) }),
                node("td", {
                  text: table.players.map((player) => `${player.name} ${score(player)}`).join(", "),
                }),
                tableLinks(table, "td"),
              ]),
            ),
          ),
        ]),
      ]),
    );
    box.replaceChildren(...(rounds.length ? rounds : [node("p", { class: "hint", text: T.no_round })]));
  }

  function entryState(entry) {
    if (entry.withdrawn) return T.withdrawn;
    if (!entry.checked_in) return T.registered;
    if (live.place !== "both") return T.checked_in;
    return entry.in_room ? T.checked_in_room : T.checked_in_online;
  }

  function drawEntries() {
    const list = $("entries");
    if (list) {
      list.replaceChildren(
        ...live.entries.map((entry) =>
          node("li", { "data-player": entry.player_id }, [
            entry.name,
            " ",
            node("span", { class: "hint", text: entryState(entry) }),
          ]),
        ),
      );
    }
    const body = document.querySelector("#manage-entries tbody");
    if (!manage || !body || !live.entries.length) return;
    // Every picture (a trick played at any table) would close a Withdraw question the
    // director has open: the rows are drawn again only when what they show changed,
    // and then the questions open before stay open.
    const shape = JSON.stringify([live.entries, live.place, over()]);
    if (body.dataset.shape === shape) return;
    body.dataset.shape = shape;
    const asking = new Set(
      [...body.querySelectorAll("details.confirm[open]")].map((details) => details.closest("tr").dataset.player),
    );
    body.replaceChildren(
      ...live.entries.map((entry) => {
        const forms = node("td");
        const player = `/players/${entry.player_id}/`;
        const checkIn = page.check_in_url.replace("/players/0/", player);
        if (over()) {
          // Nothing to check in or withdraw from.
        } else if (live.place === "both") {
          // Checked in on one side: the other side's button moves them.
          if (entry.withdrawn || !entry.checked_in || !entry.in_room) {
            forms.append(postForm(checkIn, T.check_in_room, "check-in-room", { in_room: "1" }), " ");
          }
          if (entry.withdrawn || !entry.checked_in || entry.in_room) {
            forms.append(postForm(checkIn, T.check_in_online, "check-in", { in_room: "0" }), " ");
          }
        } else if (entry.withdrawn || !entry.checked_in) {
          forms.append(postForm(checkIn, T.check_in, "check-in"), " ");
        }
        if (!entry.withdrawn && !over()) {
          const question = fmt(T.withdraw_question, { name: entry.name });
          forms.append(confirmForm(page.withdraw_url.replace("/players/0/", player), T.withdraw, question, T.withdraw_confirm, "withdraw"));
        }
        const asked = forms.querySelector("details.confirm");
        if (asked && asking.has(String(entry.player_id))) asked.open = true;
        return node("tr", { "data-player": entry.player_id }, [
          node("td", { text: entry.name }),
          node("td", { text: entryState(entry) }),
          forms,
        ]);
      }),
    );
  }

  function drawMe() {
    const me = live.me;
    if (!me) return;
    const seat = me.seat;
    const key = seat ? `${seat.round}:${seat.game_code}` : null;
    if (seatKey !== undefined && key && key !== seatKey) announce(seat);
    seatKey = key;
    const box = $("my-seat");
    if (!box) return;
    let children;
    if (!me.entered) {
      children = [node("p", { text: T.not_entered })];
    } else if (!seat) {
      children = [node("p", { text: T.no_seat })];
    } else {
      children = [
        node("h2", { text: fmt(T.seat_title, { round: seat.round, table: seat.table, seat: seat.seat }) }),
      ];
      if (seat.tablemates.length) {
        children.push(node("p", { text: fmt(T.tablemates, { names: seat.tablemates.join(", ") }) }));
      }
      children.push(
        node("p", {}, [
          node("a", {
            class: "button",
            id: "go-to-table",
            href: withCode(page.game_url, seat.game_code),
            text: T.go_to_table,
          }),
        ]),
      );
    }
    box.replaceChildren(...children);
  }

  // The "notification when seated": a banner on the page, and the browser's own
  // notification when the player allowed it.
  function announce(seat) {
    const text = fmt(T.seated_banner, { round: seat.round, table: seat.table });
    const banner = $("seated-banner");
    if (banner) {
      banner.replaceChildren(
        text,
        " ",
        node("a", { href: withCode(page.game_url, seat.game_code), text: T.go_to_table }),
      );
      banner.hidden = false;
    }
    if ("Notification" in window && Notification.permission === "granted") {
      try {
        new Notification(T.notify_title, { body: text });
      } catch (error) {
        // Some browsers only notify from a service worker; the banner is there.
      }
    }
  }

  function offerNotifications() {
    const button = $("notify");
    if (!button || !("Notification" in window) || Notification.permission !== "default") return;
    button.hidden = false;
    button.addEventListener("click", async () => {
      await Notification.requestPermission();
      button.hidden = Notification.permission === "default" ? false : true;
    });
  }

  function tick() {
    for (const element of document.querySelectorAll("#calls .waited")) callClock(element);
    for (const element of document.querySelectorAll(".table-card .turn[data-idle]")) {
      const seconds = idle({ idle_seconds: Number(element.dataset.idle) });
      element.textContent = fmt(T.to_act, { name: element.dataset.name, seconds });
      element.classList.toggle("slow", seconds >= SLOW_SECONDS);
    }
  }

  show(page.live);
  offerNotifications();
  connect();
  if (manage) {
    for (const kind of ["pointerdown", "keydown"]) document.addEventListener(kind, wakeAudio, { passive: true });
    setInterval(tick, 1000);
    if (page.poll) setInterval(poll, 5000);
  }
})();
