// The scorer page of a table in the room: a phone at the table writes each deal down
// (the bids in the bidding order, then the tricks each made), and confirms or corrects
// the deals written down. What it sends waits in this phone's storage, with its
// idempotency key, until the server has answered: an entry made without a connection
// is sent when the connection returns, and applies once however often it is sent. The
// server checks every rule; the page only helps (the dealer's forbidden bid, the sum
// of the tricks). The table's socket redraws the page on every change.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const page = JSON.parse($("atu-score").textContent);
  const T = page.text;
  const QUEUE_KEY = `atu.scorer.${page.game}`;
  // How long an entry that could not be sent waits before it is tried again.
  const RETRY_MS = [1000, 2000, 4000, 8000];
  // An answer that says the table moved on is followed by the socket's news within
  // this long; if not, the page asks for the state itself.
  const ANSWER_GRACE_MS = 1500;

  let state = null;
  let socket = null;
  let retries = 0;
  let started = false;
  let draft = null; // the deal being entered: {mode, hand, cards, bids, tricks, step, seat, reason}
  let sending = false;
  let sendFailures = 0;
  let retryTimer = null;
  let focusKey = null; // what takes the focus once the page is drawn again
  const silence = window.atuSilence((dead) => {
    dead.close();
    $("connection").textContent = T.reconnecting;
    connect();
  });

  const fmt = (text, values) => text.replace(/%\((\w+)\)s/g, (_, key) => String(values[key]));

  function node(tag, attributes = {}, children = []) {
    const element = document.createElement(tag);
    for (const [key, value] of Object.entries(attributes)) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "text") element.textContent = value;
      else if (key === "onclick") element.addEventListener("click", value);
      else element.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children) if (child !== null && child !== undefined) element.append(child);
    return element;
  }

  // --- the queue: what this phone has yet to hear the server take ----------------------

  function loadQueue() {
    try {
      const stored = JSON.parse(localStorage.getItem(QUEUE_KEY) || "[]");
      return Array.isArray(stored) ? stored : [];
    } catch {
      return [];
    }
  }

  let queue = loadQueue();

  function saveQueue() {
    try {
      if (queue.length) localStorage.setItem(QUEUE_KEY, JSON.stringify(queue));
      else localStorage.removeItem(QUEUE_KEY);
    } catch {
      // Storage refused (private mode, full): the entry still waits in this page.
    }
  }

  // crypto.randomUUID exists only on secure pages (HTTPS, localhost); a room's local
  // server may be neither.
  function newKey() {
    if (crypto.randomUUID) return crypto.randomUUID();
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  function enqueue(action, body, entered = null) {
    queue.push({ key: newKey(), action, body, entered });
    saveQueue();
    draw();
    flush();
  }

  function csrfToken() {
    const found = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return found ? decodeURIComponent(found[1]) : "";
  }

  async function post(url, body, key = null) {
    const headers = { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrfToken() };
    if (key) headers["Idempotency-Key"] = key;
    const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(body), credentials: "same-origin" });
    let answer = null;
    try {
      answer = await response.json();
    } catch {
      answer = null;
    }
    return { status: response.status, answer };
  }

  // Sends the queue in order, each entry with its own key until the server answers it.
  async function flush() {
    if (sending || !started || !queue.length) return;
    sending = true;
    clearTimeout(retryTimer);
    try {
      while (queue.length) {
        const entry = queue[0];
        let result;
        try {
          result = await post(page.api[entry.action], entry.body, entry.key);
        } catch {
          return later(); // no connection: it waits, and is sent again with the same key
        }
        if (result.status >= 500 || result.status === 429) return later();
        if (result.status === 403 && result.answer && result.answer.code === "scorer_only") {
          // The session forgot its PIN (signed out, expired): asked again, the entry waits.
          askPin(errorText(result.answer));
          return;
        }
        sendFailures = 0;
        queue = queue.filter((waiting) => waiting.key !== entry.key);
        saveQueue();
        if (result.status >= 400) refused(entry, result.answer);
        else taken(entry, result.answer);
      }
    } finally {
      sending = false;
      drawQueued();
    }
  }

  function later() {
    const wait = RETRY_MS[Math.min(sendFailures++, RETRY_MS.length - 1)];
    clearTimeout(retryTimer);
    retryTimer = setTimeout(flush, wait);
    drawQueued();
    draw();
  }

  function taken(entry, answer) {
    if (entry.action !== "confirm") say(fmt(T.sent, { hand: entry.body.hand + 1 }), "ok");
    const version = answer && answer.version;
    setTimeout(() => {
      if (!state || (version && state.version < version)) reload();
    }, ANSWER_GRACE_MS);
    draw();
  }

  // The server said no: its words, the table as it is now, and what was entered back in
  // the form where it still fits, to be put right.
  async function refused(entry, answer) {
    say(errorText(answer), "bad");
    await reload();
    const entered = entry.entered;
    if (!entered || !state || (draft && draft.touched)) return;
    const fits =
      entered.mode === "record" ? entered.hand === nextHand() : entered.hand < state.results.length;
    if (!fits) return;
    draft = { ...newDraft(entered.hand, entered.mode), bids: entered.bids, tricks: entered.tricks, reason: entered.reason || "", touched: true };
    draft.step = "done";
    focusKey = "send";
    draw();
  }

  function errorText(answer) {
    if (!answer) return T.offline;
    return T.errors[answer.code] || answer.message || T.errors.error;
  }

  function say(text, kind) {
    const notice = $("notice");
    notice.textContent = text;
    notice.className = `notice ${kind}`;
  }

  // --- the table: its state by the socket, or asked for --------------------------------

  async function reload() {
    try {
      const response = await fetch(page.api.state, { headers: { Accept: "application/json" }, credentials: "same-origin" });
      if (response.ok) show(await response.json());
    } catch {
      // No connection: the socket brings the table when it returns.
    }
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const resume = state ? `&after=${state.version}` : "";
    const opened = new WebSocket(`${scheme}//${location.host}${page.socket}?with_state=1${resume}`);
    socket = opened;
    silence.watch(opened);
    opened.addEventListener("open", () => {
      retries = 0;
      $("connection").textContent = "";
      sendFailures = 0;
      flush();
    });
    opened.addEventListener("message", (message) => {
      if (opened !== socket) return;
      silence.heard();
      receive(JSON.parse(message.data));
    });
    opened.addEventListener("close", (closed) => {
      if (opened !== socket) return;
      if (closed.code === 4404) return askPin("");
      if (closed.code === 4430) {
        $("connection").textContent = T.too_many_sockets;
        return;
      }
      $("connection").textContent = navigator.onLine === false ? T.offline : T.reconnecting;
      setTimeout(connect, Math.min(5000, 250 * 2 ** retries++));
    });
  }

  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  }

  function receive(message) {
    if (message.type === "state") {
      $("connection").textContent = "";
      show(message.state);
    } else if (message.type === "events") {
      // Each carries the whole view the events bring the table to (with_state=1).
      if (message.state) show(message.state);
      else send({ type: "resync" });
    } else if (message.type === "pong") {
      if (state && message.version > state.version) send({ type: "resync" });
    } else if (message.type === "error" && message.code === "version_conflict") {
      send({ type: "resync" });
    }
  }

  function show(view) {
    if (state && view.version < state.version) return;
    state = view;
    document.body.dataset.version = String(view.version);
    document.body.dataset.status = view.status;
    // Another phone wrote down the deal this one was entering.
    if (draft && draft.mode === "record" && draft.hand !== nextHand()) {
      if (draft.touched) say(fmt(T.deal_taken, { hand: draft.hand + 1 }), "bad");
      draft = null;
    }
    if (draft && draft.mode === "correct" && draft.hand >= state.results.length) draft = null;
    draw();
  }

  // --- the rules the page helps with (the server checks them all) ----------------------

  const players = () => state.player_count;
  const dealerOf = (hand) => (state.first_dealer + hand) % players();
  // The bidding order: from the dealer's left round to the dealer.
  const biddingOrder = (hand) => [...Array(players()).keys()].map((turn) => (dealerOf(hand) + 1 + turn) % players());
  const setBid = (hand) => (page.set_bids[hand] === undefined ? null : page.set_bids[hand]);
  const sum = (values) => values.reduce((total, value) => total + (value || 0), 0);

  function alias(seat) {
    const taken = state.seats.find((held) => held && held.seat === seat);
    return taken && taken.alias ? taken.alias : fmt(T.seat, { seat: seat + 1 });
  }

  // The seat this phone writes for: as the table's view says, or as the page was told
  // (the PIN given, the player signed in) while no view has said it.
  const mySeat = () => (state.you === null || state.you === undefined ? page.seat : state.you);

  const queuedRecords = () => queue.filter((entry) => entry.action === "deals");

  // The deal to write down next: after those recorded and those waiting to be sent.
  function nextHand() {
    return Math.max(state.results.length, ...queuedRecords().map((entry) => entry.body.hand + 1));
  }

  // The bid the dealer may not make: the one that makes the bids add up to the cards.
  function forbiddenBid(entry) {
    if (setBid(entry.hand) !== null) return null;
    const dealer = dealerOf(entry.hand);
    const others = entry.bids.filter((bid, seat) => seat !== dealer);
    if (others.some((bid) => bid === null)) return null;
    const forbidden = entry.cards - sum(others);
    return forbidden >= 0 && forbidden <= entry.cards ? forbidden : null;
  }

  function ready(entry) {
    if (entry.bids.some((bid) => bid === null) || entry.tricks.some((made) => made === null)) return false;
    if (sum(entry.tricks) !== entry.cards) return false;
    if (entry.bids[dealerOf(entry.hand)] === forbiddenBid(entry)) return false;
    return !(entry.mode === "correct" && state.entries[entry.hand].confirmed && !entry.reason.trim());
  }

  function newDraft(hand, mode = "record") {
    const cards = state.schedule[hand];
    const set = setBid(hand);
    const result = mode === "correct" ? state.results[hand] : null;
    const entry = {
      mode,
      hand,
      cards,
      bids: result ? [...result.bids] : Array(players()).fill(set),
      tricks: result ? [...result.tricks] : Array(players()).fill(null),
      step: set === null ? "bids" : "tricks",
      seat: biddingOrder(hand)[0],
      reason: "",
      touched: false,
    };
    return entry;
  }

  // The next empty place after the one just filled: the bids in order, then the tricks.
  function advance() {
    const order = biddingOrder(draft.hand);
    const steps = setBid(draft.hand) === null ? ["bids", "tricks"] : ["tricks"];
    const places = steps.flatMap((step) => order.map((seat) => [step, seat]));
    const at = places.findIndex(([step, seat]) => step === draft.step && seat === draft.seat);
    const after = [...places.slice(at + 1), ...places.slice(0, Math.max(at, 0))];
    const empty = after.find(([step, seat]) => draft[step][seat] === null);
    if (empty) {
      [draft.step, draft.seat] = empty;
      focusKey = "pad-0";
    } else {
      draft.step = "done";
      focusKey = "send";
    }
  }

  function choose(value) {
    draft[draft.step][draft.seat] = value;
    draft.touched = true;
    advance();
    draw();
  }

  function submit() {
    if (!draft || !ready(draft)) return;
    const entered = { mode: draft.mode, hand: draft.hand, bids: [...draft.bids], tricks: [...draft.tricks], reason: draft.reason };
    const body = { hand: draft.hand, bids: entered.bids, tricks: entered.tricks };
    if (draft.mode === "correct") body.reason = draft.reason.trim();
    say("", "");
    draft = null;
    focusKey = "pad-0";
    enqueue(entered.mode === "correct" ? "correct" : "deals", body, entered);
  }

  // --- drawing ---------------------------------------------------------------------------

  function draw() {
    if (!state) return;
    const active = document.activeElement;
    const kept = active && active.dataset ? active.dataset.key : null;
    const caret = active && active.tagName === "INPUT" ? [active.selectionStart, active.selectionEnd] : null;
    drawWho();
    drawEntry();
    drawSheet();
    drawQueued();
    const key = focusKey || kept;
    focusKey = null;
    let target = key && document.querySelector(`[data-key="${key}"]`);
    // The pad's first value may be the dealer's forbidden bid; with no pad, Send.
    if (key && key.startsWith("pad-") && (!target || target.disabled)) {
      target = document.querySelector("#entry .pad button:enabled") || $("send");
    }
    if (target && target !== document.activeElement) {
      target.focus();
      if (caret && target.tagName === "INPUT") target.setSelectionRange(...caret);
    }
  }

  function drawWho() {
    const you = mySeat();
    $("who").textContent = page.director ? T.directing : you === null ? "" : fmt(T.scoring_for, { alias: alias(you), seat: you + 1 });
  }

  function drawQueued() {
    $("queued").textContent = queue.length ? fmt(T.queued, { count: queue.length }) : "";
  }

  // The deals the table plays: the schedule's, or fewer once time is called (the round
  // clock: the deal in play is the last).
  function dealsToPlay() {
    return state.hands_total || state.schedule.length;
  }

  function timeCalled() {
    return Boolean(state.hands_total) && state.hands_total < state.schedule.length;
  }

  function cardsText(cards) {
    return cards === 1 ? T.one_card : fmt(T.cards_dealt, { cards });
  }

  function drawEntry() {
    const section = $("entry");
    section.hidden = false;
    const body = $("entry-body");
    body.replaceChildren();
    $("entry-info").textContent = "";
    if (!draft) {
      const hand = nextHand();
      if (state.status === "finished" || hand >= dealsToPlay()) {
        $("entry-title").textContent = state.status === "finished" ? T.game_over : T.all_written;
        return;
      }
      draft = newDraft(hand);
    }
    const entry = draft;
    const dealer = dealerOf(entry.hand);
    $("entry-title").textContent =
      entry.mode === "correct"
        ? fmt(T.correcting, { hand: entry.hand + 1 })
        : fmt(T.hand_of, { hand: entry.hand + 1, total: dealsToPlay() });
    const info = `${cardsText(entry.cards)} · ${fmt(T.dealer_is, { alias: alias(dealer) })}`;
    // Time called: the table writes down the deal in play, and no more.
    const last = timeCalled() && entry.mode !== "correct" && entry.hand === dealsToPlay() - 1;
    $("entry-info").textContent = last ? `${T.time_called_last} · ${info}` : info;
    const set = setBid(entry.hand);
    const forbidden = forbiddenBid(entry);
    const parts = [
      chips("bids", T.bids, set !== null),
      set !== null ? node("p", { class: "hint", text: fmt(T.set_bid, { bid: set }) }) : null,
      chips("tricks", fmt(T.tricks_sum, { sum: sum(entry.tricks), cards: entry.cards }), false),
      pad(entry, forbidden),
      forbidden !== null && ((entry.step === "bids" && entry.seat === dealer) || entry.bids[dealer] === forbidden)
        ? node("p", { class: "reason", id: "forbidden", text: fmt(T.forbidden, { alias: alias(dealer), bid: forbidden, cards: entry.cards }) })
        : null,
      entry.mode === "correct" ? correction(entry) : null,
      node("p", { class: "send-row" }, [
        node("button", { type: "submit", class: "big", id: "send", "data-key": "send", disabled: !ready(entry), text: T.send }),
        entry.mode === "correct"
          ? node("button", { type: "button", class: "secondary", "data-key": "cancel", text: T.cancel, onclick: cancel })
          : null,
      ]),
    ];
    body.append(...parts.filter(Boolean));
  }

  // One row of the deal's seats in the bidding order, each with what was entered for it;
  // choosing one enters it again.
  function chips(step, legend, fixed) {
    const entry = draft;
    const values = entry[step];
    const over = step === "tricks" && sum(values) > entry.cards;
    const row = node("fieldset", { class: `chips ${step}${over ? " over" : ""}` }, [node("legend", { text: legend })]);
    for (const seat of biddingOrder(entry.hand)) {
      const current = entry.step === step && entry.seat === seat;
      row.append(
        node(
          "button",
          {
            type: "button",
            class: current ? "chip current" : "chip",
            "data-key": `${step}-${seat}`,
            "aria-pressed": current ? "true" : "false",
            disabled: fixed,
            onclick: () => {
              draft.step = step;
              draft.seat = seat;
              focusKey = "pad-0";
              draw();
            },
          },
          [
            node("span", { class: "alias", text: alias(seat) }),
            node("span", { class: "value", text: values[seat] === null ? "–" : String(values[seat]) }),
          ],
        ),
      );
    }
    return row;
  }

  // The big buttons: 0 to the cards dealt, for the seat whose bid or tricks are asked.
  function pad(entry, forbidden) {
    if (entry.step === "done") return null;
    const isDealer = entry.step === "bids" && entry.seat === dealerOf(entry.hand);
    const prompt = fmt(entry.step === "bids" ? T.bid_of : T.made_by, { alias: alias(entry.seat) });
    const buttons = [];
    for (let value = 0; value <= entry.cards; value++) {
      const barred = isDealer && value === forbidden;
      buttons.push(
        node("button", {
          type: "button",
          class: `value${entry[entry.step][entry.seat] === value ? " chosen" : ""}`,
          "data-key": `pad-${value}`,
          "data-value": String(value),
          disabled: barred,
          "aria-describedby": barred ? "forbidden" : null,
          title: barred ? fmt(T.forbidden, { alias: alias(entry.seat), bid: value, cards: entry.cards }) : null,
          text: String(value),
          onclick: () => choose(value),
        }),
      );
    }
    return node("div", { class: "asking" }, [
      node("p", { class: "prompt", id: "prompt", text: prompt }),
      node("div", { class: "pad", role: "group", "aria-labelledby": "prompt" }, buttons),
    ]);
  }

  function correction(entry) {
    const confirmed = state.entries[entry.hand].confirmed;
    const input = node("input", {
      type: "text",
      id: "reason",
      "data-key": "reason",
      maxlength: "200",
      required: confirmed,
      value: entry.reason,
      "aria-describedby": "reason-help",
    });
    input.addEventListener("input", () => {
      draft.reason = input.value;
      $("send").disabled = !ready(draft);
    });
    const later = entry.hand < state.results.length - 1;
    return node("div", { class: "correction" }, [
      node("p", {}, [node("label", { for: "reason", text: T.reason }), input]),
      node("p", { class: "hint", id: "reason-help", text: [confirmed ? T.reason_needed : "", later ? T.rescored : ""].filter(Boolean).join(" ") }),
    ]);
  }

  function cancel() {
    draft = null;
    say("", "");
    focusKey = "pad-0";
    draw();
  }

  function correct(hand) {
    draft = newDraft(hand, "correct");
    say("", "");
    focusKey = "pad-0";
    draw();
    $("entry").scrollIntoView({ block: "start" });
  }

  function signed(value) {
    return value > 0 ? `+${value}` : String(value);
  }

  function drawSheet() {
    const n = players();
    const you = mySeat();
    $("sheet").hidden = false;
    const head = node("tr", {}, [node("th", { scope: "col", text: T.deal })]);
    for (let seat = 0; seat < n; seat++) {
      head.append(node("th", { scope: "col", class: seat === you ? "mine" : null, text: alias(seat) }));
    }
    const table = node("table", { class: "sheet" }, [
      node("caption", { text: `${T.bid_made} · ${T.points} · ${T.total}` }),
      node("thead", {}, [head]),
    ]);
    const waiting = (hand, action) => queue.some((entry) => entry.action === action && entry.body.hand === hand);
    // A deal the socket brought before its sending was answered is shown as written down.
    const unsent = queuedRecords().filter((entry) => entry.body.hand >= state.results.length);
    for (const entry of unsent.reverse()) {
      const { hand, bids, tricks } = entry.body;
      const row = node("tr", { class: "deal pending" }, [dealCell(hand)]);
      for (let seat = 0; seat < n; seat++) row.append(seatCell(seat, bids[seat], tricks[seat], null, null));
      table.append(node("tbody", { "data-hand": String(hand), class: "pending" }, [row, statusRow(n, [node("span", { class: "state pending", text: T.waiting_to_send })])]));
    }
    for (let hand = state.results.length - 1; hand >= 0; hand--) {
      const result = state.results[hand];
      const written = state.entries[hand] || { by: null, confirmed: true };
      const row = node("tr", { class: "deal" }, [dealCell(hand)]);
      for (let seat = 0; seat < n; seat++) {
        const points = result.points[seat] + (result.streak_points ? result.streak_points[seat] : 0);
        row.append(seatCell(seat, result.bids[seat], result.tricks[seat], points, result.totals[seat]));
      }
      const by = written.by === null ? T.the_director : alias(written.by);
      const status = [
        node("span", { class: "by", text: fmt(T.written_by, { alias: by }) }),
        node("span", { class: `state ${written.confirmed ? "confirmed" : "awaiting"}`, text: written.confirmed ? T.confirmed : T.awaiting }),
      ];
      const busy = (waiting(hand, "confirm") && !written.confirmed) || waiting(hand, "correct");
      if (busy) status.push(node("span", { class: "state pending", text: T.waiting_to_send }));
      const mayConfirm = !written.confirmed && (page.director || (you !== null && written.by !== you));
      const actions = node("span", { class: "actions" });
      if (mayConfirm && !busy) {
        actions.append(
          node("button", {
            type: "button",
            class: "confirm",
            "data-key": `confirm-${hand}`,
            "aria-label": fmt(T.confirm_label, { hand: hand + 1 }),
            text: T.confirm,
            onclick: () => enqueue("confirm", { hand }),
          }),
        );
      }
      if ((state.status !== "finished" || page.director) && !busy) {
        actions.append(
          node("button", {
            type: "button",
            class: "secondary correct",
            "data-key": `correct-${hand}`,
            "aria-label": fmt(T.correct_label, { hand: hand + 1 }),
            text: T.correct,
            onclick: () => correct(hand),
          }),
        );
      }
      status.push(actions);
      table.append(node("tbody", { "data-hand": String(hand), class: written.confirmed ? "confirmed" : "awaiting" }, [row, statusRow(n, status)]));
    }
    $("sheet-table").replaceChildren(table);
  }

  function dealCell(hand) {
    return node("th", { scope: "row", class: "hand" }, [
      node("span", { class: "number", text: String(hand + 1) }),
      node("span", { class: "cards", text: cardsText(state.schedule[hand]) }),
    ]);
  }

  function seatCell(seat, bid, made, points, total) {
    const kept = bid === made ? "made" : "missed";
    return node("td", { class: seat === mySeat() ? "mine" : null }, [
      node("span", { class: `bm ${kept}`, text: `${bid}/${made}` }),
      points === null ? null : node("span", { class: "pts", text: signed(points) }),
      total === null ? null : node("span", { class: "tot", text: String(total) }),
    ]);
  }

  function statusRow(n, children) {
    return node("tr", { class: "status" }, [node("td", { colspan: String(n + 1) }, children)]);
  }

  // --- the keyboard: a digit enters itself, as its button would ------------------------------

  $("entry-form").addEventListener("keydown", (event) => {
    if (!draft || draft.step === "done" || event.target.tagName === "INPUT") return;
    if (event.ctrlKey || event.metaKey || event.altKey || !/^[0-9]$/.test(event.key)) return;
    const button = document.querySelector(`#entry .pad button[data-value="${event.key}"]`);
    if (button && !button.disabled) {
      event.preventDefault();
      button.click();
    }
  });

  $("entry-form").addEventListener("submit", (event) => {
    event.preventDefault();
    submit();
  });

  // --- the PIN ----------------------------------------------------------------------------

  function askPin(text) {
    started = false;
    if (socket) {
      const closing = socket;
      socket = null;
      closing.close();
    }
    if (text) say(text, "bad");
    $("pin").hidden = false;
    $("pin-input").focus();
  }

  $("pin-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const pin = $("pin-input").value.replace(/\s/g, "");
    const chosen = $("pin-form").querySelector("input[name=seat]:checked");
    if (!new RegExp(`^\\d{${page.pin_digits}}$`).test(pin)) {
      say(T.pin_digits, "bad");
      $("pin-input").focus();
      return;
    }
    if (!chosen) {
      say(T.choose_seat, "bad");
      $("pin-form").querySelector("input[name=seat]").focus();
      return;
    }
    let result;
    try {
      result = await post(page.api.scorer, { pin, seat: Number(chosen.value) });
    } catch {
      say(T.offline, "bad");
      return;
    }
    if (result.status !== 200) {
      say(errorText(result.answer), "bad");
      return;
    }
    say("", "");
    page.seat = result.answer.seat;
    start();
  });

  function start() {
    started = true;
    $("pin").hidden = true;
    if (socket) {
      // Opened before the PIN: the table is seen again from the seat now held.
      const old = socket;
      socket = null;
      old.close();
    }
    connect();
    flush();
  }

  // Another tab of this table sent or queued something.
  window.addEventListener("storage", (event) => {
    if (event.key !== QUEUE_KEY) return;
    queue = loadQueue();
    draw();
    drawQueued();
  });
  window.addEventListener("online", () => {
    if (socket && socket.readyState === WebSocket.OPEN) $("connection").textContent = "";
    sendFailures = 0;
    flush();
  });
  window.addEventListener("offline", () => {
    $("connection").textContent = T.offline;
  });

  // The PIN from the table card's QR code is not left in the address bar or the history.
  if (new URLSearchParams(location.search).has("pin")) history.replaceState(null, "", location.pathname);

  if (page.seat === null && !page.director) {
    askPin("");
    if ($("pin-input").value) $("pin-form").querySelector("input[name=seat]").focus();
  } else {
    start();
  }
})();
