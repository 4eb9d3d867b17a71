// The table page: draws what the table's WebSocket sends. The server decides what
// this viewer may see and do (the socket's `with_state` view); no rule lives here.
"use strict";
(() => {
  const page = JSON.parse(document.getElementById("atu-table").textContent);
  const T = page.text;
  const $ = (id) => document.getElementById(id);
  const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
  const COLOURS = ["#1565c0", "#c62828", "#2e7d32", "#ef6c00", "#6a1b9a", "#00838f"];
  // Each player's line has its own dash too, so lines that coincide stay apart.
  const DASHES = ["", "8 4", "2 3", "10 3 2 3", "5 5", "1 4"];
  // A completed trick stays in the middle this long before it is gathered.
  const TRICK_PAUSE_MS = 1000;
  const GATHER_MS = 250;
  const ALERT_KEY = "atu.turn-alert";
  const RING = 2 * Math.PI * 15;
  const REMATCH_POLL_MS = 5000;
  // How often a replay looks again for an analysis being computed.
  const ANALYSIS_POLL_MS = 15000;
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
  // A socket silent for too long is given up and opened again, resuming where it was.
  const silence = window.atuSilence((dead) => {
    dead.close();
    $("connection").textContent = T.reconnecting;
    connect();
  });
  let pending = false; // a command is on its way: no double plays
  let keepFocus = false; // a move was made from the hand: focus stays there
  let lastBid = null;
  let held = null; // the trick just taken, kept in view for a moment
  let myTurn = false;
  // This player asked a bot to play for them (rather than one standing in when their
  // time ran out); and a bot played for them when their time ran out, not yet seen to.
  let askedBot = false;
  let timedOut = false;
  // The level of the bot the page's buttons give a seat to, as last chosen.
  let botLevel = page.level;
  // A replay of a finished game whose record is public, as the server allowed it.
  const replaying = page.replay;
  const pageTitle = document.title;
  const reducedMotion = matchMedia("(prefers-reduced-motion: reduce)");
  const wide = matchMedia("(min-width: 1100px)");
  // Classic Whist: each hand's trump suit (null: no trump), read from the deals seen,
  // for the scoreboard; the state names only the current hand's.

  const fmt = (text, values) => text.replace(/%\((\w+)\)s/g, (_, key) => String(values[key]));
  // A text of a number, in the plural form the page's language gives it (the forms by
  // the categories Intl.PluralRules names, from the server's ngettext).
  const plurals = new Intl.PluralRules(document.documentElement.lang || "en");
  const counted = (forms, count, values) => fmt(forms[plurals.select(count)] || forms.other, values);

  // Words at the table (chat.js), where the table has them: it hears what the socket
  // says of words, and sends through it.
  const chat = window.atuChat ? window.atuChat(page, send, fmt) : null;
  const WORDS = ["chat", "chat_report"];

  function node(tag, attributes = {}, children = []) {
    const element = document.createElement(tag);
    for (const [key, value] of Object.entries(attributes)) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "text") element.textContent = value;
      else if (key === "onclick") element.addEventListener("click", value);
      // Through the CSSOM: the content security policy refuses style attributes.
      else if (key === "style") element.style.cssText = value;
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
    const label = fmt(T.card_label, { rank: text.slice(0, -1), suit: T.classic.suits[suit] });
    return node(tag, { class: classes.join(" "), "data-card": text, "aria-label": label, text: text.slice(0, -1) + SUITS[suit] });
  }

  // A card in a sentence: "10♥".
  const cardText = (text) => text.slice(0, -1) + SUITS[text.slice(-1)];

  function back(small = false) {
    return node("span", { class: small ? "card back small" : "card back", "aria-label": "?" });
  }

  function alias(seat) {
    const taken = state.seats[seat];
    return taken && taken.alias ? taken.alias : T.empty_seat;
  }

  // A seat's name where no badge is beside it: a bot's says it is one.
  function named(seat) {
    return page.bot_seats.includes(seat) ? fmt(T.bot_name, { alias: alias(seat) }) : alias(seat);
  }

  const classic = () => state.kind === "classic";

  // --- classic Whist's partnerships, as the state gives them ------------------------

  function sideOf(seat) {
    return state.sides.findIndex((seats) => seats.includes(seat));
  }

  // "Your side" and "Opponents" for a player; the seats (counted from 1) for a spectator.
  function sideName(side) {
    const C = T.classic;
    if (state.you !== null) return side === sideOf(state.you) ? C.your_side : C.opponents;
    const [first, second] = state.sides[side];
    return fmt(C.side_seats, { first: first + 1, second: second + 1 });
  }

  // The sides in the order the page lists them: a player's own side first.
  function sideOrder() {
    const sides = state.sides.map((_, side) => side);
    return state.you === null ? sides : sides.sort((a, b) => (b === sideOf(state.you)) - (a === sideOf(state.you)));
  }

  // By side, as "3–1", in the page's order.
  function bySide(values) {
    return sideOrder()
      .map((side) => values[side])
      .join("–");
  }

  function sidePlayers(side) {
    return state.sides[side].map(named).join(" & ");
  }

  function suitText(letter) {
    return letter ? `${SUITS[letter]} ${T.classic.suits[letter]}` : T.no_trump;
  }

  // --- the socket -------------------------------------------------------------

  function connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const resume = state ? `&after=${state.version}` : "";
    const opened = new WebSocket(`${scheme}//${location.host}${page.socket}?with_state=changes${resume}`);
    socket = opened;
    silence.watch(opened);
    opened.addEventListener("open", () => {
      retries = 0;
      $("connection").textContent = "";
      if (chat) chat.opened();
    });
    opened.addEventListener("message", (message) => {
      if (opened !== socket) return;
      silence.heard();
      receive(JSON.parse(message.data));
    });
    opened.addEventListener("close", (closed) => {
      // One given up for dead has its successor already.
      if (opened !== socket || closed.code === 4404) return;
      // Refused as one socket too many of this client (4430): trying again would be
      // refused again until another tab closes, so the page says so and waits.
      if (closed.code === 4430) {
        $("connection").textContent = T.too_many_sockets;
        return;
      }
      $("connection").textContent = T.reconnecting;
      setTimeout(connect, Math.min(5000, 250 * 2 ** retries++));
    });
  }

  // The view is behind what the server sent (a gap, a conflict): the whole of it again.
  function catchUp() {
    $("connection").textContent = T.catching_up;
    send({ type: "resync" });
  }

  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  }

  function command(message) {
    if (pending) return;
    pending = true;
    keepFocus = true;
    timedOut = false;
    $("notice").textContent = "";
    send({ ...message, expected_version: state.version });
    drawActions();
  }

  function receive(message) {
    if (message.type === "chat" || WORDS.includes(message.command)) {
      if (chat) chat.receive(message);
    } else if (message.type === "state") {
      $("connection").textContent = "";
      show(message.state);
    } else if (message.type === "pong") {
      if (state && message.version > state.version) catchUp();
    } else if (message.type === "events") {
      const first = message.events.length ? message.events[0].sequence : null;
      if (!state || (first !== null && first !== state.version + 1) || !message.state) {
        catchUp(); // a gap: ask for the whole view again
      } else {
        if (ranOut(message.events)) timedOut = true;
        const said = message.events.filter((event) => event.type.endsWith("TrickTaken")).map(holdTrick);
        // The members that changed since the version this view is at.
        show({ ...state, ...message.state }, said);
      }
    } else if (message.type === "error") {
      pending = false;
      $("notice").textContent = errorText(message);
      if (message.code === "version_conflict") catchUp();
      else if (state) draw();
    }
  }

  function errorText(error) {
    const cards = state && state.hand ? state.hand.cards : "";
    return refusalText(error.code, { bid: lastBid, cards }) || error.message;
  }

  // A refusal's text in the page's words, if it has one.
  function refusalText(code, values) {
    if (T.counted_errors[code]) return counted(T.counted_errors[code], values.cards, values);
    return T.errors[code] ? fmt(T.errors[code], values) : null;
  }

  // Whether a batch of events is this player's turn played by a bot because their time
  // ran out: a bot standing in for them (its seat and its move written together), or
  // a single move of their seat they did not make, while no bot plays it.
  function ranOut(events) {
    const you = state.you;
    const first = events[0];
    if (replaying || you === null || pending || !first || !first.payload || first.payload.seat !== you) return false;
    if (first.type.endsWith("SeatAutomated")) return first.payload.bot !== null && events.length > 1 && !askedBot;
    const move = /(BidPlaced|CardPlayed|OneCardModeChosen)$/.test(first.type);
    return move && !first.payload.forced && !state.bots[you];
  }

  // The trick just taken stays in the middle, its winner marked, then is gathered.
  function holdTrick(event) {
    const trick = event.payload;
    const shown = { leader: trick.leader, cards: trick.cards, winner: trick.winner };
    held = shown;
    setTimeout(() => {
      if (held !== shown) return;
      const gathered = () => {
        if (held !== shown) return;
        held = null;
        if (state) drawCentre();
      };
      if (reducedMotion.matches) return gathered();
      $("trick").classList.add("gather");
      setTimeout(gathered, GATHER_MS);
    }, TRICK_PAUSE_MS);
    return fmt(T.trick_taken, { alias: named(trick.winner) });
  }

  // Emptied first: a screen reader says a live region's text again only if it changed.
  function announce(text) {
    const region = $("announce");
    region.textContent = "";
    setTimeout(() => {
      region.textContent = text;
    }, 50);
  }

  function show(view, said = []) {
    pending = false;
    // A table that opened as this page was loaded has started: the seats bots took before
    // its start are their accounts' (a creator fills the free seats with bots).
    if (page.status === "open" && view.status !== "open") {
      page.status = view.status;
      page.bot_seats = view.bots.flatMap((bot, seat) => (bot ? [seat] : []));
    }
    // The organizer resumed the game: what the pause refused is said no more.
    if (state && state.paused && !view.paused) $("notice").textContent = "";
    state = view;
    const mine = !replaying && state.you !== null && acting() && state.hand.turn === state.you;
    if (mine && !myTurn) {
      said.push(T.your_turn);
      alertTurn();
    }
    myTurn = mine;
    document.title = mine ? T.title_turn : pageTitle;
    if (said.length) announce(said.join(" "));
    if (state.status === "finished" && !$("scoreboard-drawer").open) $("scoreboard-drawer").open = true;
    document.body.dataset.version = String(view.version);
    document.body.dataset.status = view.status;
    draw();
  }

  // --- drawing ------------------------------------------------------------------

  function draw() {
    drawStatus();
    drawSeats();
    drawCentre();
    drawActions();
    drawScoreboard();
    drawEnd();
  }

  function acting() {
    return state.hand && ["bidding", "playing", "choosing-mode"].includes(state.phase);
  }

  // The seat the felt shows to act (null: none): nobody over a replay's full trick, which
  // lies there to be read before it is taken.
  function seatToAct() {
    return acting() && !(replaying && held) ? state.hand.turn : null;
  }

  function drawStatus() {
    const hand = state.hand;
    let text;
    if (state.status === "cancelled") {
      text = T.cancelled;
    } else if (state.status === "open") {
      const seated = state.seats.filter((seat) => seat.alias).length;
      text = fmt(T.waiting, { seated, total: state.player_count });
    } else if (state.status === "finished" || !hand) {
      text = state.status !== "finished" && classic() ? T.classic.dealing : T.game_over;
    } else {
      const parts = classic()
        ? classicStatus(hand)
        : [
            fmt(T.hand_of, { hand: hand.number + 1, total: state.hands_total }),
            hand.cards === 1 ? T.one_card : fmt(T.cards_dealt, { cards: hand.cards }),
          ];
      const turn = seatToAct();
      if (turn !== null) {
        const who = named(turn);
        if (turn === state.you) parts.push(T.your_turn);
        else if (state.phase === "bidding") parts.push(fmt(T.to_bid, { alias: who }));
        else if (state.phase === "playing") parts.push(fmt(T.to_play, { alias: who }));
        else parts.push(fmt(T.to_choose, { alias: who }));
      }
      if (state.paused) parts.push(T.paused);
      text = parts.join(" · ");
    }
    if (state.screened) text += ` · ${T.screened}`;
    $("status").textContent = text;
    drawDealInfo();
  }

  // On the felt: which deal of how many, and the bids so far against the cards dealt.
  function drawDealInfo() {
    const hand = state.hand;
    const total = $("bids-total");
    total.textContent = "";
    total.className = "bids-total";
    if (!hand || state.status !== "playing") {
      $("deal-info").textContent = "";
      return;
    }
    const parts = [];
    if (state.hands_total) parts.push(fmt(T.hand_of, { hand: hand.number + 1, total: state.hands_total }));
    else parts.push(fmt(T.classic.hand, { hand: hand.number + 1 }));
    if (!classic()) parts.push(hand.cards === 1 ? T.one_card : fmt(T.cards_dealt, { cards: hand.cards }));
    $("deal-info").textContent = parts.join(" · ");
    if (classic() || !hand.bids) return;
    const placed = hand.bids.filter((bid) => bid !== null);
    const sum = placed.reduce((a, b) => a + b, 0);
    total.textContent = counted(T.bids_total, hand.cards, { bids: sum, cards: hand.cards });
    if (placed.length === state.player_count) total.classList.add(sum > hand.cards ? "over" : "under");
  }

  // The hand, which game of the match, and the trump.
  function classicStatus(hand) {
    const C = T.classic;
    const options = state.options;
    const parts = [];
    if (state.hands_total) {
      parts.push(fmt(T.hand_of, { hand: hand.number + 1, total: state.hands_total }));
    } else {
      parts.push(fmt(C.hand, { hand: hand.number + 1 }));
      parts.push(options.rubber ? fmt(C.rubber_game, { game: state.game + 1 }) : fmt(C.game_to, { target: options.target }));
    }
    parts.push(hand.trump ? fmt(C.trump, { suit: suitText(hand.trump) }) : T.no_trump);
    return parts;
  }

  function drawSeats() {
    const seats = $("seats");
    const count = state.player_count;
    const hand = state.hand;
    seats.replaceChildren();
    for (let seat = 0; seat < count; seat++) {
      const place = placeOf(seat);
      const classes = ["seat", `pos-${place}`];
      if (seat === state.you) classes.push("you");
      if (classic()) classes.push(`side-${sideOf(seat)}`);
      const toAct = seatToAct() === seat;
      if (toAct) classes.push("to-act");
      const name = node("div", { class: "name" }, [
        node("span", { class: "alias", text: alias(seat) }),
        hand && hand.dealer === seat ? node("span", { class: "mark dealer", title: T.dealer, "aria-label": T.dealer, text: "D" }) : null,
        state.bots[seat] ? node("span", { class: "mark bot", text: T.bot }) : null,
        partner(seat) ? node("span", { class: "mark partner", text: T.classic.partner }) : null,
      ]);
      const stats = [];
      if (classic()) {
        stats.push(sideName(sideOf(seat)));
        if (hand) stats.push(fmt(T.classic.held, { cards: hand.held[seat] }));
      } else {
        if (hand && hand.bids) {
          const bid = hand.bids[seat];
          stats.push(`${T.bid} ${bid === null ? "–" : bid}`, `${T.tricks} ${hand.tricks[seat]}`);
        }
        stats.push(`${T.score} ${state.scores[seat] ?? 0}`);
      }
      const cards = node("div", { class: "seat-cards" });
      if (classic() && hand) {
        // The dealer's turned trump lies face up until the dealer plays to the first trick.
        const turned = hand.dealer === seat ? hand.turned_up : null;
        if (turned) {
          cards.append(
            node("div", { class: "turned-up", title: T.classic.turned_up }, [card(turned), node("span", { text: T.classic.turned_up })]),
          );
        }
        // Other hands are shown only in the replay, every hand open.
        if (seat !== state.you) {
          for (const text of hand.holdings[seat] || []) if (text && text !== turned) cards.append(card(text, { small: true }));
        }
      } else if (hand && hand.holdings && seat !== state.you) {
        const held = hand.holdings[seat];
        // On the forehead the others' cards are in plain sight.
        if (held) for (const text of held) cards.append(card(text, { small: true }));
      }
      const element = node("div", { class: classes.join(" "), "data-seat": seat }, [
        name,
        node(
          "div",
          { class: "stats" },
          stats.map((text) => node("span", { text })),
        ),
        cards,
      ]);
      if (toAct && state.turn_deadline && !replaying) name.append(ring());
      // A seat a bot's account holds is the bot's for good: handed back, nobody would play it.
      if (page.creator && !replaying && state.seats[seat].alias && state.status !== "finished" && !page.bot_seats.includes(seat)) {
        const bot = state.bots[seat];
        const question = fmt(bot ? T.confirm_unbot_seat : T.confirm_bot_seat, { alias: alias(seat) });
        element.append(
          node("button", {
            type: "button",
            class: "seat-bot",
            "aria-label": `${bot ? T.unbot_seat : T.bot_seat}: ${alias(seat)}`,
            text: bot ? T.unbot_seat : T.bot_seat,
            onclick: () => confirmThen(question, () => send({ type: "seat_bot", seat, bot: bot ? null : botLevel })),
          }),
        );
      }
      seats.append(element);
    }
  }

  // Where ``seat`` sits around the felt: the viewer's own seat at the bottom.
  function placeOf(seat) {
    const count = state.player_count;
    const first = state.you === null ? 0 : state.you;
    return PLACES[count][(seat - first + count) % count];
  }

  // The turn timer: a ring that empties as the seconds run out, to the server's
  // deadline (a page loaded mid-turn shows the time really left).
  function ring() {
    const left = Math.min(state.turn_seconds, Math.max(0, Math.ceil((Date.parse(state.turn_deadline) - Date.now()) / 1000)));
    const said = fmt(T.seconds_left, { seconds: left });
    const svgNS = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(svgNS, "svg");
    svg.setAttribute("viewBox", "0 0 36 36");
    svg.setAttribute("aria-hidden", "true");
    const circle = (colour, offset) => {
      const element = document.createElementNS(svgNS, "circle");
      const attributes = { cx: 18, cy: 18, r: 15, fill: "none", stroke: colour, "stroke-width": 3, "stroke-dasharray": RING, "stroke-dashoffset": offset };
      for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
      svg.append(element);
    };
    circle("rgba(255, 255, 255, 0.25)", 0);
    circle("#ffd54f", RING * (1 - left / state.turn_seconds));
    return node("span", { class: "ring timer", role: "timer", title: said, "aria-label": said, "data-left": left }, [
      svg,
      node("span", { class: "left", text: String(left) }),
    ]);
  }

  function partner(seat) {
    return classic() && state.you !== null && seat !== state.you && sideOf(seat) === sideOf(state.you);
  }

  function drawCentre() {
    const hand = state.hand;
    const trump = $("trump");
    const trick = $("trick");
    const last = $("last-trick");
    const sideTricks = $("side-tricks");
    trump.replaceChildren();
    trick.replaceChildren();
    trick.classList.remove("held", "gather");
    last.replaceChildren();
    sideTricks.replaceChildren();
    if (!hand || !(hand.bids || classic())) {
      // The last trick of a deal stays in view over the next deal's first moments.
      if (held && state.status !== "open") drawHeld(trick);
      return;
    }
    trump.append(node("span", { text: `${T.trump}:` }));
    if (classic()) {
      const red = hand.trump === "H" || hand.trump === "D";
      trump.append(node("strong", { class: red ? "suit red" : "suit", "data-trump": hand.trump || "", text: suitText(hand.trump) }));
      sideTricks.append(
        node("span", { text: `${T.classic.tricks_this_hand}:` }),
        ...sideOrder().map((side) =>
          node("span", { class: `side side-${side}`, "data-side": side, text: `${sideName(side)}: ${hand.tricks[side]}` }),
        ),
      );
    } else if (state.screened) trump.append(back());
    else trump.append(hand.trump_card ? card(hand.trump_card) : node("strong", { text: T.no_trump }));
    if (held) drawHeld(trick);
    else if (hand.trick && hand.trick.cards.length) trick.append(...played(hand.trick.cards, hand.trick.leader));
    if (hand.last_trick) {
      last.append(
        node("span", { text: `${T.last_trick} (${fmt(T.won_by, { alias: named(hand.last_trick.winner) })}):` }),
        ...played(hand.last_trick.cards, hand.last_trick.leader),
      );
    }
  }

  // A duplicate table's spectator is sent no card while the deals are in play elsewhere.
  function played(cards, leader, winner = null) {
    return cards.map((text, index) => {
      const seat = (leader + index) % state.player_count;
      const classes = ["played", `pos-${placeOf(seat)}`];
      if (seat === winner) classes.push("winner");
      return node("div", { class: classes.join(" "), "data-seat": seat, title: alias(seat) }, [text ? card(text) : back(), node("span", { text: alias(seat) })]);
    });
  }

  function drawHeld(trick) {
    trick.classList.add("held");
    trick.append(
      ...played(held.cards, held.leader, held.winner),
      // Short enough for a phone's narrow centre; the whole sentence is its title.
      node("div", { class: "taken", title: fmt(T.trick_taken, { alias: named(held.winner) }), text: `✓ ${alias(held.winner)}` }),
    );
  }

  function drawActions() {
    const you = state.you;
    // A classic game has cards to play and nothing else.
    const legal = { bids: [], forbidden_bids: [], cards: [], hidden_card: false, modes: [], ...state.legal };
    const hand = state.hand;
    $("watching").hidden = you !== null;
    const modes = $("mode-choice");
    const bids = $("bids");
    const cards = $("hand");
    // Redrawing removes the focused button: a keyboard player's focus goes back to the hand.
    const focused = keepFocus || $("my-play").contains(document.activeElement);
    keepFocus = false;
    modes.replaceChildren();
    bids.replaceChildren();
    cards.replaceChildren();
    $("bid-reason").textContent = "";
    $("hand-note").textContent = "";
    // Paused: nothing on the felt acts, and the felt says why until the game goes on.
    $("paused-notice").hidden = !state.paused || state.status !== "playing";
    drawTimedOut();
    drawSeatControls();
    // A replay is watched: nothing in it can be played.
    if (replaying || you === null || !hand) return;
    drawMine(legal, hand, modes, bids, cards);
    if (focused) {
      const first = cards.querySelector("button.legal:enabled") || modes.querySelector("button:enabled");
      (first || cards).focus({ preventScroll: true });
    }
  }

  function drawMine(legal, hand, modes, bids, cards) {
    const you = state.you;
    if (legal.modes.length) {
      modes.append(node("span", { class: "label", text: T.choose_mode }));
      for (const mode of legal.modes) {
        modes.append(
          node("button", {
            type: "button",
            "data-mode": mode,
            text: T.modes[mode] || mode,
            disabled: pending || state.paused,
            onclick: () => command({ type: "one_card_mode", mode }),
          }),
        );
      }
    }

    if (legal.bids.length || legal.forbidden_bids.length) {
      bids.append(node("span", { class: "label", text: `${T.your_bid}:` }));
      const reasons = new Map(legal.forbidden_bids.map((forbidden) => [forbidden.bid, forbidden]));
      for (let bid = 0; bid <= hand.cards; bid++) {
        const forbidden = reasons.get(bid);
        const reason = forbidden ? refusalText(forbidden.code, { bid, cards: hand.cards }) || forbidden.message : null;
        bids.append(
          node("button", {
            type: "button",
            "data-bid": bid,
            "aria-label": fmt(T.bid_label, { bid }),
            text: String(bid),
            disabled: !legal.bids.includes(bid) || pending || state.paused,
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
    cards.classList.toggle("many", hand.held[you] > 8);
    const playing = state.phase === "playing" && hand.turn === you;
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
        button.disabled = !allowed || pending || state.paused;
        cards.append(button);
      }
    } else {
      for (let index = 0; index < hand.held[you]; index++) {
        const button = node("button", { type: "button", class: "card back", "aria-label": T.play_hidden, title: T.play_hidden });
        if (legal.hidden_card) {
          button.classList.add("legal");
          button.addEventListener("click", () => command({ type: "play", card: null }));
        }
        button.disabled = !legal.hidden_card || pending || state.paused;
        cards.append(button);
      }
      $("hand-note").textContent = hand.visibility === "forehead" ? T.forehead : T.blind;
    }
  }

  // The player's time ran out and a bot played for them: said on the felt, with their
  // seat back in one tap while the bot plays on.
  function drawTimedOut() {
    const box = $("timed-out");
    const you = state.you;
    box.replaceChildren();
    box.hidden = !timedOut || you === null || state.status !== "playing";
    if (box.hidden) return;
    box.append(node("p", { text: T.timed_out }));
    if (state.bots[you]) {
      box.append(
        node("button", {
          type: "button",
          id: "take-seat-back",
          text: T.seat_back,
          onclick: () => {
            timedOut = false;
            askedBot = false;
            send({ type: "seat_bot", seat: you, bot: null });
          },
        }),
      );
    }
  }

  function drawSeatControls() {
    const controls = $("seat-controls");
    controls.replaceChildren();
    const you = state.you;
    if (state.status !== "playing" || replaying || (you === null && !page.creator)) return;
    controls.append(levelChoice());
    if (you === null || page.creator) return;
    const bot = state.bots[you];
    controls.append(
      node("button", {
        type: "button",
        id: "my-bot",
        text: bot ? T.seat_back : T.bot_for_me,
        onclick: () => {
          if (bot) {
            timedOut = false;
            askedBot = false;
            send({ type: "seat_bot", seat: you, bot: null });
          } else {
            confirmThen(T.confirm_bot_for_me, () => {
              askedBot = true;
              send({ type: "seat_bot", seat: you, bot: botLevel });
            });
          }
        },
      }),
    );
  }

  // The level of the bots this page's buttons seat.
  function levelChoice() {
    const select = node(
      "select",
      { id: "bot-level" },
      page.levels.map((level) => node("option", { value: level, selected: level === botLevel, text: T.levels[level] })),
    );
    select.addEventListener("change", () => {
      botLevel = select.value;
    });
    return node("label", { class: "bot-level" }, [node("span", { text: `${T.bot_level} ` }), select]);
  }

  // A bot taking a seat is asked first: the player loses their turns to it.
  function confirmThen(question, action) {
    const dialog = $("confirm");
    $("confirm-question").textContent = question;
    dialog.returnValue = "";
    dialog.addEventListener("close", () => dialog.returnValue === "yes" && action(), { once: true });
    dialog.showModal();
    $("confirm-no").focus();
  }

  // --- the scoreboard ---------------------------------------------------------------

  function drawScoreboard() {
    if (classic()) {
      drawClassicSummary();
      drawClassicScoreTable();
      $("score-chart").replaceChildren();
      return;
    }
    drawRanking();
    drawTotals();
    drawScoreTable();
    drawChart();
  }

  // Every player's score in a line each, the best first: the drawer shows the whole
  // table however narrow the screen, where the scores by deal scroll.
  function drawTotals() {
    const totals = $("score-totals");
    const over = state.status === "finished" && state.places.length;
    totals.hidden = Boolean(over) || state.status === "open";
    if (totals.hidden) return totals.replaceChildren();
    const order = [...state.seats.keys()].sort((a, b) => (state.scores[b] ?? 0) - (state.scores[a] ?? 0) || a - b);
    totals.replaceChildren(
      ...order.map((seat) =>
        node("li", { "data-seat": seat }, [
          node("span", { class: "who", text: named(seat) }),
          node("span", { class: "points", text: String(state.scores[seat] ?? 0) }),
        ]),
      ),
    );
  }

  function drawRanking() {
    const ranking = $("ranking");
    ranking.replaceChildren();
    if (state.status !== "finished" || !state.places.length) return;
    ranking.append(...finalRanking(T.final_ranking, state.scores));
  }

  // The link to the replay, a heading, what `more` says, and every player by place
  // with their `points`.
  function finalRanking(title, points, more = []) {
    const order = [...state.places.keys()].sort((a, b) => state.places[a] - state.places[b] || a - b);
    const shown = [];
    if (page.replayable && !replaying) {
      shown.push(node("p", {}, [node("a", { href: "?replay", id: "replay-link", text: T.replay })]));
    }
    shown.push(
      node("h3", { text: title }),
      ...more,
      node(
        "ol",
        { class: "ranking" },
        order.map((seat) =>
          node("li", {
            value: state.places[seat],
            "data-seat": seat,
            text: `${named(seat)} — ${counted(T.points_count, points[seat], { points: points[seat] })}`,
          }),
        ),
      ),
    );
    return shown;
  }

  // --- the end of the game ----------------------------------------------------------

  // The ranking on the felt, the winners first (a shared first place shared by all),
  // under the next steps the page rendered; not over a replay, which is watched.
  function drawEnd() {
    const end = $("game-end");
    const over = !replaying && state.status === "finished" && state.places.length > 0;
    const shown = !end.hidden;
    end.hidden = !over;
    if (!over) return;
    const points = classic() ? state.seat_points : state.scores;
    const order = [...state.places.keys()].sort((a, b) => state.places[a] - state.places[b] || a - b);
    const winners = order.filter((seat) => state.places[seat] === 1).map(named);
    let said;
    if (classic()) {
      said = state.winner === null ? fmt(T.classic.tie, { points: state.points[0] }) : fmt(T.classic.winner, { side: sidePlayers(state.winner) });
    } else {
      said = fmt(winners.length > 1 ? T.shared_win : T.winner, { names: winners.join(", ") });
    }
    $("end-winner").textContent = said;
    $("end-ranking").replaceChildren(
      ...order.map((seat) =>
        node("li", { "data-seat": seat, "data-place": state.places[seat], class: state.places[seat] === 1 ? "winner" : null }, [
          node("span", { class: "place", text: `${state.places[seat]}.` }),
          node("span", { class: "who", text: named(seat) }),
          node("span", { class: "points", title: T.points, text: String(points[seat]) }),
        ]),
      ),
    );
    if (!shown) {
      announce(`${T.game_over}. ${said}`);
      watchRematch();
    }
  }

  // A player's end screen learns that another player opened the rematch: its button
  // then joins that table. It asks the game list for the rematch (a page of none until
  // it opens), not the rematch itself, which is a 404 until then; and only where
  // another person sits (page.rematch is null at a table of bots).
  function watchRematch() {
    const button = $("rematch");
    if (!page.rematch || !button || button.textContent === button.dataset.join) return;
    const look = async () => {
      const answer = await fetch(page.rematch, { headers: { Accept: "application/json" } });
      if (answer.ok && (await answer.json()).count > 0) button.textContent = button.dataset.join;
      else setTimeout(look, REMATCH_POLL_MS);
    };
    setTimeout(look, REMATCH_POLL_MS);
  }

  // --- classic Whist's scoreboard: by side, hand by hand, game by game ----------------

  function drawClassicSummary() {
    const C = T.classic;
    const options = state.options;
    const tournament = state.hands_total !== null;
    // The score of the game in play, while there is one.
    const inGame = !tournament && state.status !== "finished";
    const ranking = $("ranking");
    let match = fmt(C.match_game, { target: options.target });
    if (tournament) match = fmt(C.match_deals, { deals: state.hands_total });
    else if (options.rubber) match = fmt(C.match_rubber, { target: options.target });
    const heads = [C.side, C.players, ...(tournament ? [] : [C.games]), ...(inGame ? [C.game_score] : []), C.match_points];
    const rows = sideOrder().map((side) =>
      node("tr", { "data-side": side, class: `side-${side}` }, [
        node("th", { text: sideName(side) }),
        node("td", { text: sidePlayers(side) }),
        tournament ? null : node("td", { class: "games", text: String(state.games[side]) }),
        inGame ? node("td", { class: "score", text: String(state.scores[side]) }) : null,
        node("td", { class: "points", text: String(state.points[side]) }),
      ]),
    );
    const shown = [node("p", { class: "match", text: match })];
    if (!tournament) {
      shown.push(node("p", { id: "games-score", class: "games-score", text: fmt(C.games_score, { score: bySide(state.games) }) }));
    }
    shown.push(
      node("table", { id: "side-summary", class: "side-summary" }, [
        node("thead", {}, [node("tr", {}, heads.map((text) => node("th", { text })))]),
        node("tbody", {}, rows),
      ]),
    );
    if (state.status === "finished") {
      const winner =
        state.winner === null
          ? fmt(C.tie, { points: state.points[0] })
          : fmt(C.winner, { side: `${sideName(state.winner)} (${sidePlayers(state.winner)})` });
      const said = node("p", { id: "winner", class: "winner", "data-side": state.winner ?? "", text: winner });
      shown.push(...finalRanking(C.final_result, state.seat_points, [said]));
    }
    ranking.replaceChildren(...shown);
  }

  // A hand's trump suit (a letter, or null: no trump).
  function trumpCell(letter) {
    const red = letter === "H" || letter === "D";
    return node("td", {
      class: red ? "suit red" : "suit",
      title: suitText(letter),
      text: letter ? SUITS[letter] : T.no_trump,
    });
  }

  function drawClassicScoreTable() {
    const C = T.classic;
    const honours = state.options.honours;
    const groups = [
      [C.tricks, "tricks"],
      [C.odd_tricks, "trick_points"],
      ...(honours ? [[C.honours, "honour_points"]] : []),
      [C.totals, "totals"],
    ];
    const sides = sideOrder();
    const head = node("tr", {}, [
      node("th", { rowspan: 2, text: C.hand_column }),
      node("th", { rowspan: 2, text: C.trump_column }),
      ...groups.map(([text]) => node("th", { colspan: sides.length, text })),
    ]);
    const sub = node("tr", {}, groups.flatMap(() => sides.map((side) => node("th", { text: sideName(side) }))));
    const width = 2 + groups.length * sides.length;
    const won = new Map(state.game_results.map((result) => [result.game, result]));
    const body = node("tbody");
    state.results.forEach((result, index) => {
      const row = node("tr", { "data-hand": result.hand, "data-game": result.game }, [
        node("td", { class: "cards", text: String(result.hand + 1) }),
        trumpCell(result.trump),
      ]);
      for (const [, key] of groups) {
        for (const side of sides) {
          const held = key === "honour_points" ? fmt(C.honours_held, { held: result.honours[side] }) : null;
          row.append(node("td", { class: key, "data-side": side, title: held, text: String(result[key][side]) }));
        }
      }
      body.append(row);
      // A game of the rubber is over: its winner, and the games won so far.
      const next = state.results[index + 1];
      const over = won.get(result.game);
      if (over && (!next || next.game !== result.game)) {
        const text = fmt(C.game_won, { game: over.game + 1, side: sideName(over.side), score: bySide(over.scores) });
        body.append(
          node("tr", { class: "game-break", "data-game": over.game }, [
            node("td", { colspan: width, text: `${text} · ${fmt(C.games_score, { score: bySide(over.games) })}` }),
          ]),
        );
      }
    });
    const hand = state.hand;
    if (hand) {
      const row = node("tr", { class: "current", "data-hand": hand.number }, [
        node("td", { class: "cards", text: String(hand.number + 1) }),
        trumpCell(hand.trump),
        ...sides.map((side) => node("td", { class: "tricks", "data-side": side, text: String(hand.tricks[side]) })),
      ]);
      for (let cell = 2 + sides.length; cell < width; cell++) row.append(node("td"));
      body.append(row);
    }
    $("score-table").replaceChildren(node("table", {}, [node("thead", {}, [head, sub]), body]));
  }

  function drawScoreTable() {
    const count = state.player_count;
    const head = node("tr", {}, [node("th", { text: T.cards })]);
    const sub = node("tr", {}, [node("th")]);
    for (let seat = 0; seat < count; seat++) {
      head.append(node("th", { colspan: 3, text: alias(seat) }));
      sub.append(node("th", { text: T.bid }), node("th", { text: T.tricks }), node("th", { text: T.score }));
    }
    const body = node("tbody");
    const results = new Map(state.results.map((result) => [result.hand, result]));
    const current = state.hand && state.hand.bids ? state.hand : null;
    // After time is called the game is played to fewer deals than its schedule holds.
    const deals = state.hands_total ? state.schedule.slice(0, state.hands_total) : state.schedule;
    deals.forEach((cards, number) => {
      const result = results.get(number);
      const row = node("tr", { "data-hand": number, class: current && current.number === number ? "current" : null }, [
        node("td", { class: "cards", text: String(cards) }),
      ]);
      for (let seat = 0; seat < count; seat++) {
        if (result) {
          const missed = result.bids[seat] !== result.tricks[seat];
          const total = node("td", { class: missed ? "missed" : null, title: missed ? T.missed : null, text: String(result.totals[seat]) });
          const streak = result.streak_points[seat];
          if (streak) total.append(streakMark(streak));
          row.append(
            node("td", { class: missed ? "missed" : null, text: String(result.bids[seat]) }),
            node("td", { class: "taken", text: String(result.tricks[seat]) }),
            total,
          );
        } else if (current && current.number === number) {
          const bid = current.bids[seat];
          row.append(node("td", { text: bid === null ? "" : String(bid) }), node("td", { class: "taken", text: String(current.tricks[seat]) }), node("td"));
        } else {
          row.append(node("td"), node("td"), node("td"));
        }
      }
      body.append(row);
    });
    $("score-table").replaceChildren(node("table", {}, [node("thead", {}, [head, sub]), body]));
  }

  // A streak's bonus or penalty, beside the points it was added to.
  function streakMark(streak) {
    return node("span", {
      class: streak > 0 ? "streak bonus" : "streak penalty",
      title: streak > 0 ? T.streak_bonus : T.streak_penalty,
      text: streak > 0 ? `★+${streak}` : `▼${streak}`,
    });
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
      const drawn = { tag: "polyline", points: points.join(" "), fill: "none", stroke: COLOURS[seat], "stroke-width": 2, "data-seat": seat };
      if (DASHES[seat]) drawn["stroke-dasharray"] = DASHES[seat];
      line(drawn);
    }
    // Each name beside a sample of its line, dash and colour.
    const sample = (seat) => {
      const drawn = document.createElementNS(svgNS, "svg");
      drawn.setAttribute("class", "swatch");
      drawn.setAttribute("viewBox", "0 0 28 10");
      drawn.setAttribute("aria-hidden", "true");
      const stroke = document.createElementNS(svgNS, "line");
      const attributes = { x1: 0, x2: 28, y1: 5, y2: 5, stroke: COLOURS[seat], "stroke-width": 3 };
      if (DASHES[seat]) attributes["stroke-dasharray"] = DASHES[seat];
      for (const [key, value] of Object.entries(attributes)) stroke.setAttribute(key, String(value));
      drawn.append(stroke);
      return drawn;
    };
    const legend = node(
      "div",
      { class: "legend" },
      state.seats.map((seat, index) => node("span", { "data-seat": index }, [sample(index), document.createTextNode(named(index))])),
    );
    chart.append(node("h3", { text: T.chart }), svg, legend);
  }

  // The turn timer counts down between messages. Only its ring is drawn again: seats
  // drawn anew every second would swallow a tap on their buttons.
  setInterval(() => {
    if (!(state && state.turn_deadline && acting())) return;
    const shown = document.querySelector("#seats .seat.to-act .ring");
    if (shown) shown.replaceWith(ring());
    else drawSeats();
  }, 1000);

  // --- the replay of a finished game ---------------------------------------------------

  // The deals of a game's log, and where a replay stops in each: its start (dealt, before
  // the first bid) and each trick as it lies complete on the table, just before it is taken.
  // Each deal: its hand's number, the version of its start, whether it is bid, the version
  // of its first card, the version at which each trick lies complete and the trick (its
  // TrickTaken), and the version of its score (null: none).
  function dealsOf(events) {
    const deals = [];
    for (const { type, sequence, payload } of events) {
      const deal = deals[deals.length - 1];
      if (type.endsWith("HandDealt")) {
        deals.push({ hand: payload.hand, start: sequence, bidding: false, played: null, complete: [], tricks: [], scored: null });
      } else if (!deal) {
        continue;
      } else if (type.endsWith("BidPlaced")) {
        deal.bidding = true;
      } else if (type.endsWith("CardPlayed")) {
        deal.played ??= sequence;
      } else if (type.endsWith("TrickTaken")) {
        deal.complete.push(sequence - 1);
        deal.tricks.push(payload);
      } else if (type.endsWith("HandScored")) {
        deal.scored = sequence;
      }
    }
    return deals;
  }

  // Step through the log one event at a time, trick by trick or deal by deal; every hand
  // is open (the record is public). The address says where, to come back to or share.
  async function replay() {
    $("replay").hidden = false;
    $("table-page").classList.add("replaying");
    const api = `/api/games/${page.game}/`;
    const log = await (await fetch(`${api}events/`)).json();
    const last = log.version;
    const deals = dealsOf(log.events);
    // Every stop of the previous and next trick, in order: deal starts and full tricks.
    const stops = deals.flatMap((deal) => [deal.start, ...deal.complete]);
    const choice = $("replay-deal");
    choice.replaceChildren(
      ...deals.map((deal, index) => node("option", { value: String(index), text: fmt(T.hand_of, { hand: index + 1, total: deals.length }) })),
    );

    // The deal a version lies in (-1: before the first), and where in it: its bidding,
    // a trick (counted from 1), or its score.
    const positionAt = (version) => {
      const index = deals.findLastIndex((deal) => deal.start <= version);
      const deal = deals[index];
      if (!deal) return { deal: -1 };
      if (deal.scored !== null && version >= deal.scored) return { deal: index, scored: true };
      if (!deal.tricks.length || (deal.bidding && (deal.played === null || version < deal.played))) return { deal: index, bidding: true };
      const taken = deal.complete.filter((full) => full < version).length;
      return { deal: index, trick: Math.min(taken + 1, deal.tricks.length) };
    };

    // Where a link lands: its deal's start, or one of its tricks (counted from 1); the
    // end without a deal. Values out of range land at the nearest deal or trick.
    const linked = (query) => {
      const number = Number.parseInt(query.get("deal"), 10);
      if (!deals.length || Number.isNaN(number)) return last;
      const deal = deals[Math.min(Math.max(number, 1), deals.length) - 1];
      const trick = Number.parseInt(query.get("trick"), 10);
      if (Number.isNaN(trick) || trick < 1 || !deal.tricks.length) return deal.start;
      return deal.complete[Math.min(trick, deal.complete.length) - 1];
    };

    // The address of a version: the deal and the trick it lies in (at a trick's stop or
    // nearest before it); the end is the replay alone.
    const linkOf = (version, position) => {
      let query = "?replay";
      if (version < last && position.deal >= 0) {
        const deal = deals[position.deal];
        query += `&deal=${position.deal + 1}`;
        if (position.scored) query += `&trick=${deal.tricks.length}`;
        else if (position.trick) query += `&trick=${position.trick}`;
      }
      return `${location.pathname}${query}`;
    };

    const positionText = (version, position) => {
      const parts = [];
      if (position.deal >= 0) {
        parts.push(fmt(T.hand_of, { hand: position.deal + 1, total: deals.length }));
        if (position.scored) parts.push(T.replay_scored);
        else if (position.bidding) parts.push(T.replay_bidding);
        else parts.push(fmt(T.trick_of, { trick: position.trick, total: deals[position.deal].tricks.length }));
      }
      parts.push(fmt(T.step_of, { at: version, last }));
      return parts.join(" · ");
    };

    let at = last;
    let asked = 0;
    let timer = null;
    const analysis = replayAnalysis(deals, last, (version) => go(version));
    const go = async (version) => {
      at = Math.max(0, Math.min(last, version));
      const mine = ++asked;
      const answer = await fetch(`${api}?at=${at}`);
      // A later step was asked meanwhile (a slider dragged): only its answer is drawn.
      if (mine !== asked) return;
      if (!answer.ok) {
        const error = await answer.json();
        $("notice").textContent = refusalText(error.code, {}) || error.message;
        return;
      }
      const position = positionAt(at);
      const deal = deals[position.deal];
      // A full trick shows who takes it, as the live table does.
      const full = deal ? deal.complete.indexOf(at) : -1;
      held = full < 0 ? null : deal.tricks[full];
      show(await answer.json());
      drawDealPanel(deal ? deal.hand : null, position.deal, deals.length);
      $("replay-at").textContent = positionText(at, position);
      analysis.draw(at, position.deal);
      // Only when it changed: a browser refuses a page that replaces its address too often.
      const link = linkOf(at, position);
      if (link !== location.pathname + location.search) history.replaceState(null, "", link);
      $("replay-slider").value = String(at);
      if (deal) choice.value = String(position.deal);
      $("replay-previous-deal").disabled = position.deal <= 0;
      $("replay-next-deal").disabled = position.deal >= deals.length - 1;
      $("replay-previous-trick").disabled = !stops.some((stop) => stop < at);
      $("replay-next-trick").disabled = !stops.some((stop) => stop > at);
    };
    const slider = $("replay-slider");
    slider.max = String(last);
    slider.addEventListener("input", () => go(Number(slider.value)));
    choice.addEventListener("change", () => go(deals[Number(choice.value)].start));
    const dealAt = () => positionAt(at).deal;
    $("replay-previous-deal").addEventListener("click", () => go(deals[Math.max(0, dealAt() - 1)].start));
    $("replay-next-deal").addEventListener("click", () => go(deals[Math.min(deals.length - 1, dealAt() + 1)].start));
    $("replay-previous-trick").addEventListener("click", () => go(stops.findLast((stop) => stop < at) ?? at));
    $("replay-next-trick").addEventListener("click", () => go(stops.find((stop) => stop > at) ?? at));
    $("replay-first").addEventListener("click", () => go(0));
    $("replay-back").addEventListener("click", () => go(at - 1));
    $("replay-next").addEventListener("click", () => go(at + 1));
    $("replay-last").addEventListener("click", () => go(last));
    const stop = () => {
      clearInterval(timer);
      timer = null;
    };
    $("replay-play").addEventListener("click", () => {
      if (timer) return stop();
      if (at >= last) go(0);
      timer = setInterval(() => (at >= last ? stop() : go(at + 1)), 400);
    });
    const copy = $("replay-copy");
    copy.addEventListener("click", () => copyText(location.href, copy));
    await go(linked(new URLSearchParams(location.search)));
    // Its words name the players of the state shown.
    if (state) analysis.ask();
  }

  // The strong bot's analysis of the replayed game (decision 3602), as this viewer may
  // see it: a mark under the slider at each flagged decision, the flagged decisions of
  // the deal shown, and what the bot thinks of the move just made; ``go`` steps the
  // replay to a version. A game with no analysis (classic Whist, a table in the room)
  // or a refusal says nothing of one.
  function replayAnalysis(deals, last, go) {
    const A = T.analysis;
    const number = new Intl.NumberFormat(document.documentElement.lang || "en", { minimumFractionDigits: 1, maximumFractionDigits: 1 });
    const marks = $("replay-marks");
    let status = null; // "ready", "pending", or null: nothing to say
    let decisions = new Map(); // each reviewed bid and card, by the version it was made at
    let flagged = []; // those flagged, in the order made
    let shown = { at: null, deal: null };
    let poll = null;

    // A reviewed bid or card of ``hand``, its values in the page's words.
    const reviewed = (hand, kind, entry) => {
      const made = kind === "bid" ? entry.bid : entry.card;
      const words = kind === "bid" ? String : cardText;
      return {
        at: entry.at,
        kind,
        deal: deals.findIndex((deal) => deal.hand === hand.hand),
        seat: entry.seat,
        trick: entry.trick,
        flagged: entry.flagged,
        agrees: entry.best === made,
        made: words(made),
        best: words(entry.best),
        loss: number.format(entry.loss),
      };
    };
    const values = (one) => ({ deal: one.deal + 1, trick: one.trick + 1, name: named(one.seat), made: one.made, best: one.best, loss: one.loss });
    // What the bot thinks of a move: the same, or what it would have chosen and what
    // that would have been worth more (under a point: not flagged).
    const verdict = (one) => (one.agrees ? A.agrees : fmt((one.flagged ? A.flagged : A.close)[one.kind], values(one)));

    const read = (review) => {
      decisions = new Map();
      for (const hand of review.hands) {
        for (const bid of hand.bids) decisions.set(bid.at, reviewed(hand, "bid", bid));
        for (const play of hand.plays) decisions.set(play.at, reviewed(hand, "play", play));
      }
      flagged = [...decisions.values()].filter((one) => one.flagged).sort((a, b) => a.at - b.at);
    };

    // One mark in the tab order; the arrows, Home and End move between them (a toolbar).
    const drawMarks = () => {
      marks.hidden = !flagged.length;
      marks.replaceChildren(
        ...flagged.map((one, index) => {
          const label = fmt(A.mark[one.kind], values(one));
          return node("button", {
            type: "button",
            class: one.kind,
            tabindex: index ? "-1" : "0",
            "aria-label": label,
            title: label,
            "data-at": one.at,
            style: `left: ${(100 * one.at) / last}%`,
            onclick: () => go(one.at),
          });
        }),
      );
    };
    marks.addEventListener("keydown", (event) => {
      const buttons = [...marks.children];
      const from = buttons.indexOf(document.activeElement);
      const to = { ArrowLeft: from - 1, ArrowUp: from - 1, ArrowRight: from + 1, ArrowDown: from + 1, Home: 0, End: buttons.length - 1 }[event.key];
      if (from < 0 || to === undefined) return;
      event.preventDefault();
      const next = buttons[Math.max(0, Math.min(buttons.length - 1, to))];
      for (const button of buttons) button.tabIndex = button === next ? 0 : -1;
      next.focus();
    });

    // The deal's list, drawn again only for another deal or another answer: a button
    // pressed keeps the focus.
    const drawList = (deal) => {
      const section = $("replay-flags");
      section.hidden = status === null || deal < 0;
      const mine = status === "ready" ? flagged.filter((flag) => flag.deal === deal) : [];
      $("replay-flags-pending").hidden = status !== "pending";
      $("replay-flags-none").hidden = status !== "ready" || mine.length > 0;
      $("replay-flags-list").replaceChildren(
        ...mine.map((flag) =>
          node("li", { "data-kind": flag.kind }, [
            node("button", { type: "button", class: "link", "data-at": flag.at, text: fmt(A.flag[flag.kind], values(flag)), onclick: () => go(flag.at) }),
          ]),
        ),
      );
    };

    // The replay stands at version ``at``, in the ``deal``-th deal (-1: before the first).
    const draw = (at, deal) => {
      if (deal !== shown.deal) drawList(deal);
      shown = { at, deal };
      const one = status === "ready" ? decisions.get(at) : undefined;
      $("replay-bot").textContent = one ? verdict(one) : "";
      for (const button of document.querySelectorAll("#replay-marks button, #replay-flags-list button")) {
        if (Number(button.dataset.at) === at) button.setAttribute("aria-current", "step");
        else button.removeAttribute("aria-current");
      }
    };

    // Asked for, the analysis of a finished game is computed if it is not yet: the
    // replay looks again until it is there, while the page is shown.
    const ask = async () => {
      poll = null;
      let answer = null;
      try {
        const response = await fetch(`/api/games/${page.game}/analysis/`);
        if (response.ok) answer = await response.json();
      } catch {
        // No answer: nothing is said of the analysis.
      }
      status = answer && ["ready", "pending"].includes(answer.status) ? answer.status : null;
      if (status === "ready") read(answer.review);
      if (status === "pending") poll = setTimeout(ask, ANALYSIS_POLL_MS);
      drawMarks();
      drawList(shown.deal);
      draw(shown.at, shown.deal);
    };
    addEventListener("pagehide", () => clearTimeout(poll));
    addEventListener("pageshow", (event) => {
      if (event.persisted && status === "pending") ask();
    });

    return { ask, draw };
  }

  // The replay's panel on the felt, for the deal shown (its hand ``number``, the
  // ``index``-th of ``total`` deals; null: before the first): each player's bid and
  // tricks so far, or each side's tricks in classic Whist, and once the deal is scored
  // its points.
  function drawDealPanel(number, index, total) {
    const panel = $("replay-hand");
    panel.hidden = number === null;
    if (panel.hidden) return;
    const result = state.results.find((scored) => scored.hand === number);
    const hand = state.hand && state.hand.number === number ? state.hand : null;
    const tricks = result ? result.tricks : hand && hand.tricks;
    $("replay-hand-title").textContent = fmt(T.hand_of, { hand: index + 1, total });
    let head;
    let rows;
    if (classic()) {
      head = [T.classic.side, T.tricks, T.hand_points];
      rows = sideOrder().map((side) =>
        node("tr", { "data-side": side }, [
          node("th", { scope: "row", text: sidePlayers(side) }),
          node("td", { class: "tricks", text: tricks ? String(tricks[side]) : "0" }),
          node("td", { class: "points", text: result ? String(result.trick_points[side] + result.honour_points[side]) : "" }),
        ]),
      );
    } else {
      const bids = result ? result.bids : hand && hand.bids;
      head = [T.player, T.bid, T.tricks, T.hand_points];
      rows = state.seats.map((_, seat) => {
        const missed = result && result.bids[seat] !== result.tricks[seat];
        const points = node("td", { class: "points", text: result ? String(result.points[seat]) : "" });
        if (result && result.streak_points[seat]) points.append(streakMark(result.streak_points[seat]));
        return node("tr", { "data-seat": seat }, [
          node("th", { scope: "row", text: named(seat) }),
          node("td", { class: missed ? "bid missed" : "bid", title: missed ? T.missed : null, text: bids && bids[seat] !== null ? String(bids[seat]) : "–" }),
          node("td", { class: "tricks", text: tricks ? String(tricks[seat]) : "0" }),
          points,
        ]);
      });
    }
    $("replay-hand-table").replaceChildren(
      node("thead", {}, [node("tr", {}, head.map((text) => node("th", { scope: "col", text })))]),
      node("tbody", {}, rows),
    );
  }

  // Copies ``text`` for the ``button`` that says so; where the clipboard API is missing
  // (a page not served over HTTPS), through a selection, the old way.
  function copyText(text, button) {
    const label = button.dataset.label || button.textContent;
    button.dataset.label = label;
    const copied = () => {
      button.textContent = button.dataset.copied;
      setTimeout(() => {
        button.textContent = label;
      }, 2000);
    };
    const bySelection = () => {
      const field = node("textarea", { readonly: true, class: "visually-hidden" });
      field.value = text;
      document.body.append(field);
      field.select();
      if (document.execCommand("copy")) copied();
      field.remove();
    };
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(copied, bySelection);
    else bySelection();
  }

  // --- turn alerts, the keyboard, the scoreboard's place -----------------------------

  function alertOn() {
    try {
      return localStorage.getItem(ALERT_KEY) === "on";
    } catch {
      return false; // storage refused (private mode): alerts stay off
    }
  }

  // A short beep and buzz, only for a player who asked for them.
  function alertTurn() {
    if (!alertOn()) return;
    if (navigator.vibrate) navigator.vibrate(150);
    try {
      const audio = new AudioContext();
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      gain.gain.value = 0.08;
      tone.frequency.value = 880;
      tone.connect(gain).connect(audio.destination);
      tone.addEventListener("ended", () => audio.close());
      tone.start();
      tone.stop(audio.currentTime + 0.15);
    } catch {
      // No audio here: the highlight, title and announcement still say it.
    }
  }

  const toggle = $("alert-toggle");
  toggle.setAttribute("aria-pressed", String(alertOn()));
  toggle.addEventListener("click", () => {
    const on = !alertOn();
    try {
      localStorage.setItem(ALERT_KEY, on ? "on" : "off");
    } catch {
      return;
    }
    toggle.setAttribute("aria-pressed", String(on));
  });

  // Number keys bid; the arrows move between the cards you may play; Enter plays.
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.target.closest("input, select, textarea")) return;
    if (/^[0-9]$/.test(event.key)) {
      const button = document.querySelector(`#bids button[data-bid="${event.key}"]:enabled`);
      if (button) {
        event.preventDefault();
        button.click();
      }
      return;
    }
    const steps = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 };
    if (!(event.key in steps) || event.target.closest("#replay")) return;
    const cards = [...document.querySelectorAll("#hand button.legal:enabled")];
    if (!cards.length) return;
    event.preventDefault();
    const at = cards.indexOf(document.activeElement);
    const next = at < 0 ? 0 : (at + steps[event.key] + cards.length) % cards.length;
    cards[next].focus();
  });

  // Beside the felt on a wide screen; a drawer to open on a phone.
  const placeScoreboard = () => {
    if (!wide.matches) return;
    $("scoreboard-drawer").open = true;
    $("rules-summary").open = true;
  };
  wide.addEventListener("change", placeScoreboard);
  placeScoreboard();

  if (replaying) {
    replay();
  } else {
    $("connection").textContent = T.connecting;
    connect();
  }
})();
