// The table page: draws what the table's WebSocket sends. The server decides what
// this viewer may see and do (the socket's `with_state` view); no rule lives here.
"use strict";
(() => {
  const page = JSON.parse(document.getElementById("atu-table").textContent);
  const T = page.text;
  const $ = (id) => document.getElementById(id);
  const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
  const COLOURS = ["#1565c0", "#c62828", "#2e7d32", "#ef6c00", "#6a1b9a", "#00838f"];
  // Where seats sit around the felt, counted from the viewer's own seat.
  const PLACES = {
    3: ["b", "tl", "tr"],
    4: ["b", "l", "t", "r"],
    5: ["b", "l", "tl", "tr", "r"],
    6: ["b", "l", "tl", "t", "tr", "r"],
  };

  let state = null;
  let socket = null;
  let retries = 0;
  let pending = false; // a command is on its way: no double plays
  let lastBid = null;
  let turnSince = 0;
  let turnKey = "";

  const fmt = (text, values) => text.replace(/%\((\w+)\)s/g, (_, key) => String(values[key]));

  function node(tag, attributes = {}, children = []) {
    const element = document.createElement(tag);
    for (const [key, value] of Object.entries(attributes)) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "text") element.textContent = value;
      else if (key === "onclick") element.addEventListener("click", value);
      else element.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children) if (child) element.append(child);
    return element;
  }

  function card(text, { tag = "span", small = false } = {}) {
    const suit = text.slice(-1);
    const classes = ["card"];
    if (suit === "H" || suit === "D") classes.push("red");
    if (small) classes.push("small");
    return node(tag, { class: classes.join(" "), "data-card": text, text: text.slice(0, -1) + SUITS[suit] });
  }

  function back(small = false) {
    return node("span", { class: small ? "card back small" : "card back", "aria-label": "?" });
  }

  function alias(seat) {
    const taken = state.seats[seat];
    return taken && taken.alias ? taken.alias : T.empty_seat;
  }

  // --- the socket -------------------------------------------------------------

  function connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const resume = state ? `&after=${state.version}` : "";
    socket = new WebSocket(`${scheme}//${location.host}${page.socket}?with_state=1${resume}`);
    socket.addEventListener("open", () => {
      retries = 0;
      $("connection").textContent = "";
    });
    socket.addEventListener("message", (message) => receive(JSON.parse(message.data)));
    socket.addEventListener("close", (closed) => {
      if (closed.code === 4404) return;
      $("connection").textContent = T.reconnecting;
      setTimeout(connect, Math.min(5000, 250 * 2 ** retries++));
    });
  }

  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  }

  function command(message) {
    if (pending) return;
    pending = true;
    $("notice").textContent = "";
    send({ ...message, expected_version: state.version });
    drawActions();
  }

  function receive(message) {
    if (message.type === "state") {
      show(message.state);
    } else if (message.type === "events") {
      const first = message.events.length ? message.events[0].sequence : null;
      if (!state || (first !== null && first !== state.version + 1) || !message.state) {
        send({ type: "resync" }); // a gap: ask for the whole view again
      } else {
        show(message.state);
      }
    } else if (message.type === "error") {
      pending = false;
      $("notice").textContent = errorText(message);
      if (message.code === "version_conflict") send({ type: "resync" });
      else if (state) draw();
    }
  }

  function errorText(error) {
    const text = T.errors[error.code];
    if (!text) return error.message;
    return fmt(text, { bid: lastBid, cards: state && state.hand ? state.hand.cards : "" });
  }

  function show(view) {
    pending = false;
    state = view;
    document.body.dataset.version = String(view.version);
    document.body.dataset.status = view.status;
    const hand = view.hand;
    const key = hand ? `${hand.number}:${hand.turn}:${view.phase}:${(hand.trick || {}).cards}` : "";
    if (key !== turnKey) {
      turnKey = key;
      turnSince = Date.now();
    }
    draw();
  }

  // --- drawing ------------------------------------------------------------------

  function draw() {
    drawStatus();
    drawSeats();
    drawCentre();
    drawActions();
    drawScoreboard();
  }

  function acting() {
    return state.hand && ["bidding", "playing", "choosing-mode"].includes(state.phase);
  }

  function drawStatus() {
    const hand = state.hand;
    let text;
    if (state.status === "open") {
      const seated = state.seats.filter((seat) => seat.alias).length;
      text = fmt(T.waiting, { seated, total: state.player_count });
    } else if (state.status === "finished" || !hand) {
      text = T.game_over;
    } else {
      const parts = [
        fmt(T.hand_of, { hand: hand.number + 1, total: state.hands_total }),
        hand.cards === 1 ? T.one_card : fmt(T.cards_dealt, { cards: hand.cards }),
      ];
      if (acting()) {
        const who = alias(hand.turn);
        if (hand.turn === state.you) parts.push(T.your_turn);
        else if (state.phase === "bidding") parts.push(fmt(T.to_bid, { alias: who }));
        else if (state.phase === "playing") parts.push(fmt(T.to_play, { alias: who }));
        else parts.push(fmt(T.to_choose, { alias: who }));
      }
      if (state.paused) parts.push(T.paused);
      text = parts.join(" · ");
    }
    if (state.screened) text += ` · ${T.screened}`;
    $("status").textContent = text;
  }

  function drawSeats() {
    const seats = $("seats");
    const count = state.player_count;
    const first = state.you === null ? 0 : state.you;
    const hand = state.hand;
    seats.replaceChildren();
    for (let seat = 0; seat < count; seat++) {
      const place = PLACES[count][(seat - first + count) % count];
      const classes = ["seat", `pos-${place}`];
      if (seat === state.you) classes.push("you");
      const toAct = acting() && hand.turn === seat;
      if (toAct) classes.push("to-act");
      const name = node("div", {}, [
        node("span", { class: "alias", text: alias(seat) }),
        hand && hand.dealer === seat ? node("span", { class: "mark dealer", title: T.dealer, text: "D" }) : null,
        state.bots[seat] ? node("span", { class: "mark bot", text: T.bot }) : null,
      ]);
      const stats = [];
      if (hand && hand.bids) {
        const bid = hand.bids[seat];
        stats.push(`${T.bid} ${bid === null ? "–" : bid}`, `${T.tricks} ${hand.tricks[seat]}`);
      }
      stats.push(`${T.score} ${state.scores[seat] ?? 0}`);
      const cards = node("div", { class: "seat-cards" });
      if (hand && hand.holdings && seat !== state.you) {
        const held = hand.holdings[seat];
        // On the forehead the others' cards are in plain sight.
        if (held) for (const text of held) cards.append(card(text, { small: true }));
      }
      const element = node("div", { class: classes.join(" "), "data-seat": seat }, [
        name,
        node("div", { class: "stats", text: stats.join(" · ") }),
        cards,
      ]);
      if (toAct && state.turn_seconds) {
        const left = Math.max(0, state.turn_seconds - Math.floor((Date.now() - turnSince) / 1000));
        element.append(node("div", { class: "timer", text: fmt(T.seconds_left, { seconds: left }) }));
      }
      if (page.creator && state.seats[seat].alias && state.status !== "finished") {
        const bot = state.bots[seat];
        element.append(
          node("button", {
            type: "button",
            class: "seat-bot",
            text: bot ? T.unbot_seat : T.bot_seat,
            onclick: () => send({ type: "seat_bot", seat, bot: bot ? null : "heuristic" }),
          }),
        );
      }
      seats.append(element);
    }
  }

  function drawCentre() {
    const hand = state.hand;
    const trump = $("trump");
    const trick = $("trick");
    const last = $("last-trick");
    trump.replaceChildren();
    trick.replaceChildren();
    last.replaceChildren();
    if (!hand || !hand.bids) return;
    trump.append(node("span", { text: `${T.trump}:` }));
    if (state.screened) trump.append(back());
    else trump.append(hand.trump_card ? card(hand.trump_card) : node("strong", { text: T.no_trump }));
    // A duplicate table's spectator is sent no card while the deals are in play elsewhere.
    const played = (cards, leader) =>
      cards.map((text, index) =>
        node("div", { class: "played" }, [
          text ? card(text) : back(),
          node("span", { text: alias((leader + index) % state.player_count) }),
        ]),
      );
    if (hand.trick && hand.trick.cards.length) {
      trick.append(node("span", { text: `${T.current_trick}:` }), ...played(hand.trick.cards, hand.trick.leader));
    }
    if (hand.last_trick) {
      last.append(
        node("span", { text: `${T.last_trick} (${fmt(T.won_by, { alias: alias(hand.last_trick.winner) })}):` }),
        ...played(hand.last_trick.cards, hand.last_trick.leader),
      );
    }
  }

  function drawActions() {
    const you = state.you;
    const legal = state.legal;
    const hand = state.hand;
    $("watching").hidden = you !== null;
    const modes = $("mode-choice");
    const bids = $("bids");
    const cards = $("hand");
    modes.replaceChildren();
    bids.replaceChildren();
    cards.replaceChildren();
    $("bid-reason").textContent = "";
    $("hand-note").textContent = "";
    drawSeatControls();
    if (you === null || !hand) return;

    if (legal.modes.length) {
      modes.append(node("span", { text: T.choose_mode }));
      for (const mode of legal.modes) {
        modes.append(
          node("button", { type: "button", "data-mode": mode, text: T.modes[mode] || mode, onclick: () => command({ type: "one_card_mode", mode }) }),
        );
      }
    }

    if (legal.bids.length || legal.forbidden_bids.length) {
      bids.append(node("span", { text: `${T.your_bid}:` }));
      const reasons = new Map(legal.forbidden_bids.map((forbidden) => [forbidden.bid, forbidden]));
      for (let bid = 0; bid <= hand.cards; bid++) {
        const forbidden = reasons.get(bid);
        const reason = forbidden ? (T.errors[forbidden.code] ? fmt(T.errors[forbidden.code], { bid, cards: hand.cards }) : forbidden.message) : null;
        bids.append(
          node("button", {
            type: "button",
            "data-bid": bid,
            text: String(bid),
            disabled: !legal.bids.includes(bid) || pending,
            title: reason,
            onclick: () => {
              lastBid = bid;
              command({ type: "bid", bid });
            },
          }),
        );
        if (reason) $("bid-reason").textContent = reason;
      }
    }

    if (!hand.holdings) return;
    const mine = hand.holdings[you];
    const playing = state.phase === "playing" && hand.turn === you;
    cards.append(node("span", { text: `${T.your_hand}:` }));
    if (mine) {
      for (const text of mine) {
        const button = card(text, { tag: "button" });
        button.type = "button";
        const allowed = playing && legal.cards.includes(text);
        if (allowed) {
          button.classList.add("legal");
          button.addEventListener("click", () => command({ type: "play", card: text }));
        } else if (playing) {
          button.classList.add("dimmed");
        }
        button.disabled = !allowed || pending;
        cards.append(button);
      }
    } else {
      for (let index = 0; index < hand.held[you]; index++) {
        const button = node("button", { type: "button", class: "card back", "aria-label": T.play_hidden, title: T.play_hidden });
        if (legal.hidden_card) {
          button.classList.add("legal");
          button.addEventListener("click", () => command({ type: "play", card: null }));
        }
        button.disabled = !legal.hidden_card || pending;
        cards.append(button);
      }
      $("hand-note").textContent = hand.visibility === "forehead" ? T.forehead : T.blind;
    }
  }

  function drawSeatControls() {
    const controls = $("seat-controls");
    controls.replaceChildren();
    const you = state.you;
    if (you === null || state.status !== "playing" || page.creator) return;
    const bot = state.bots[you];
    controls.append(
      node("button", {
        type: "button",
        id: "my-bot",
        text: bot ? T.seat_back : T.bot_for_me,
        onclick: () => send({ type: "seat_bot", seat: you, bot: bot ? null : "heuristic" }),
      }),
    );
  }

  // --- the scoreboard ---------------------------------------------------------------

  function drawScoreboard() {
    drawRanking();
    drawScoreTable();
    drawChart();
  }

  function drawRanking() {
    const ranking = $("ranking");
    ranking.replaceChildren();
    if (state.status !== "finished" || !state.places.length) return;
    const order = [...state.places.keys()].sort((a, b) => state.places[a] - state.places[b] || a - b);
    if (!new URLSearchParams(location.search).has("replay")) {
      ranking.append(node("p", {}, [node("a", { href: "?replay", id: "replay-link", text: T.replay })]));
    }
    ranking.append(
      node("h3", { text: T.final_ranking }),
      node(
        "ol",
        { class: "ranking" },
        order.map((seat) =>
          node("li", { value: state.places[seat], "data-seat": seat, text: `${alias(seat)} — ${state.scores[seat]} ${T.points}` }),
        ),
      ),
    );
  }

  function drawScoreTable() {
    const count = state.player_count;
    const head = node("tr", {}, [node("th", { text: T.cards })]);
    const sub = node("tr", {}, [node("th")]);
    for (let seat = 0; seat < count; seat++) {
      head.append(node("th", { colspan: 2, text: alias(seat) }));
      sub.append(node("th", { text: T.bid }), node("th", { text: T.score }));
    }
    const body = node("tbody");
    const results = new Map(state.results.map((result) => [result.hand, result]));
    const current = state.hand && state.hand.bids ? state.hand : null;
    state.schedule.forEach((cards, number) => {
      const result = results.get(number);
      const row = node("tr", { "data-hand": number, class: current && current.number === number ? "current" : null }, [
        node("td", { class: "cards", text: String(cards) }),
      ]);
      for (let seat = 0; seat < count; seat++) {
        if (result) {
          const missed = result.bids[seat] !== result.tricks[seat];
          const total = node("td", { class: missed ? "missed" : null, title: missed ? T.missed : null, text: String(result.totals[seat]) });
          const streak = result.streak_points[seat];
          if (streak) {
            total.append(
              node("span", {
                class: streak > 0 ? "streak bonus" : "streak penalty",
                title: streak > 0 ? T.streak_bonus : T.streak_penalty,
                text: streak > 0 ? `★+${streak}` : `▼${streak}`,
              }),
            );
          }
          row.append(node("td", { class: missed ? "missed" : null, text: String(result.bids[seat]) }), total);
        } else if (current && current.number === number) {
          const bid = current.bids[seat];
          row.append(node("td", { text: bid === null ? "" : String(bid) }), node("td"));
        } else {
          row.append(node("td"), node("td"));
        }
      }
      body.append(row);
    });
    $("score-table").replaceChildren(node("table", {}, [node("thead", {}, [head, sub]), body]));
  }

  function drawChart() {
    const chart = $("score-chart");
    chart.replaceChildren();
    if (!state.results.length) return;
    const width = 640;
    const height = 220;
    const pad = 30;
    const totals = state.results.map((result) => result.totals);
    const values = totals.flat().concat([0]);
    const low = Math.min(...values);
    const high = Math.max(...values, low + 1);
    const x = (index) => pad + ((width - 2 * pad) * (index + 1)) / Math.max(1, state.hands_total);
    const y = (value) => height - pad - ((height - 2 * pad) * (value - low)) / (high - low);
    const svgNS = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(svgNS, "svg");
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", T.chart);
    const line = (attributes) => {
      const element = document.createElementNS(svgNS, attributes.tag);
      for (const [key, value] of Object.entries(attributes)) if (key !== "tag") element.setAttribute(key, value);
      svg.append(element);
      return element;
    };
    line({ tag: "line", x1: pad, x2: width - pad, y1: y(0), y2: y(0), stroke: "#bbb" });
    line({ tag: "text", x: 2, y: y(high) + 4, "font-size": 11, fill: "#666" }).textContent = String(high);
    line({ tag: "text", x: 2, y: y(low) + 4, "font-size": 11, fill: "#666" }).textContent = String(low);
    for (let seat = 0; seat < state.player_count; seat++) {
      const points = [`${pad},${y(0)}`, ...totals.map((row, index) => `${x(index)},${y(row[seat])}`)];
      line({ tag: "polyline", points: points.join(" "), fill: "none", stroke: COLOURS[seat], "stroke-width": 2, "data-seat": seat });
    }
    const legend = node(
      "div",
      { class: "legend" },
      state.seats.map((seat, index) =>
        node("span", {}, [node("span", { class: "swatch", style: `background:${COLOURS[index]}` }), document.createTextNode(alias(index))]),
      ),
    );
    chart.append(node("h3", { text: T.chart }), svg, legend);
  }

  // The turn timer counts down between messages.
  setInterval(() => {
    if (state && state.turn_seconds && acting()) drawSeats();
  }, 1000);

  // --- the replay of a finished game ---------------------------------------------------

  // Step through the log one event at a time; every hand is open (the record is public).
  async function replay() {
    const controls = $("replay");
    controls.hidden = false;
    const api = `/api/games/${page.game}/`;
    const last = (await (await fetch(api)).json()).version;
    let at = last;
    let timer = null;
    const go = async (version) => {
      at = Math.max(0, Math.min(last, version));
      const answer = await fetch(`${api}?at=${at}`);
      if (!answer.ok) {
        $("notice").textContent = (await answer.json()).message;
        return;
      }
      show(await answer.json());
      $("replay-at").textContent = fmt(T.replay_at, { at, last });
      $("replay-slider").value = String(at);
    };
    const slider = $("replay-slider");
    slider.max = String(last);
    slider.addEventListener("input", () => go(Number(slider.value)));
    $("replay-first").addEventListener("click", () => go(0));
    $("replay-back").addEventListener("click", () => go(at - 1));
    $("replay-next").addEventListener("click", () => go(at + 1));
    $("replay-last").addEventListener("click", () => go(last));
    $("replay-play").addEventListener("click", () => {
      if (timer) {
        clearInterval(timer);
        timer = null;
        return;
      }
      if (at >= last) go(0);
      timer = setInterval(() => (at >= last ? clearInterval(timer) : go(at + 1)), 400);
    });
    await go(last);
  }

  if (new URLSearchParams(location.search).has("replay")) {
    replay();
  } else {
    $("connection").textContent = T.connecting;
    connect();
  }
})();
