// A table's desk (tournaments/_table_desk.html): the event's announcements, newest
// first, the seated player's call to the director, and the round's deadline (extended,
// or time called, by the director: the table's countdown follows), from the desk's own
// socket ({"type": "desk", ...}); the call is sent to the REST API. No build step.
"use strict";
(() => {
  const desk = JSON.parse(document.getElementById("atu-desk").textContent);
  const T = desk.text;
  const $ = (id) => document.getElementById(id);
  const fmt = (text, values) => text.replace(/%\((\w+)\)s/g, (_, key) => String(values[key]));
  let socket = null;
  let retries = 0;
  let call = null;
  // How far this device's clock is ahead of the server's.
  let skew = 0;
  const silence = window.atuSilence((dead) => {
    dead.close();
    connect();
  });

  function connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const opened = new WebSocket(`${scheme}//${location.host}${desk.socket}`);
    socket = opened;
    silence.watch(opened);
    opened.addEventListener("open", () => {
      retries = 0;
    });
    opened.addEventListener("message", (message) => {
      if (opened !== socket) return;
      silence.heard();
      const data = JSON.parse(message.data);
      if (data.type === "desk") show(data);
    });
    opened.addEventListener("close", (closed) => {
      if (opened !== socket || closed.code === 4404 || closed.code === 4430) return;
      setTimeout(connect, Math.min(5000, 250 * 2 ** retries++));
    });
  }

  function show(data) {
    const list = $("desk-announcements");
    list.replaceChildren(
      ...data.announcements.map((made) => {
        const item = document.createElement("li");
        item.dataset.number = made.number;
        item.textContent = made.text;
        return item;
      }),
    );
    list.hidden = !data.announcements.length;
    call = data.call;
    skew = Date.now() - Date.parse(data.now);
    drawClock(data);
    const details = $("call-director");
    if (details) {
      // One call at a time: the button comes back once the director closed the last.
      details.hidden = !data.may_call || (call !== null && call.state !== "closed");
      if (details.hidden) details.open = false;
    }
    drawCall();
  }

  // The table's countdown (atu/clock.js), to the deadline the event says now.
  function drawClock(data) {
    const clock = $("round-clock");
    if (!clock || !("ends_at" in data)) return;
    clock.dataset.endsAt = data.ends_at || "";
    clock.dataset.called = data.time_called ? "true" : "";
    if (window.atuClock) window.atuClock();
  }

  function waited() {
    if (!call || !call.at) return 0;
    return Math.max(0, Math.floor((Date.now() - skew - Date.parse(call.at)) / 1000));
  }

  function drawCall() {
    const state = $("call-state");
    if (!state) return;
    if (!call) {
      state.hidden = true;
      return;
    }
    state.hidden = false;
    state.dataset.state = call.state;
    if (call.state === "waiting") {
      state.textContent = fmt(T.waiting, { reason: T.reasons[call.reason] || call.reason, seconds: waited() });
    } else if (call.state === "answered") {
      state.textContent = T.answered;
    } else {
      state.textContent = call.note ? fmt(T.closed_note, { note: call.note }) : T.closed;
    }
  }

  async function send(event) {
    event.preventDefault();
    const form = event.target;
    const state = $("call-state");
    const button = $("call-send");
    button.disabled = true;
    state.hidden = false;
    state.textContent = T.sending;
    try {
      const response = await fetch(desk.call, {
        method: "POST",
        credentials: "same-origin",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json",
          "X-CSRFToken": form.elements.csrfmiddlewaretoken.value,
        },
        body: JSON.stringify({ reason: form.elements.reason.value, text: form.elements.text.value }),
      });
      if (response.ok) {
        form.elements.text.value = "";
        $("call-director").open = false;
        // The socket brings the call's state; asked for in case it is slower.
        if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "refresh" }));
      } else {
        const error = await response.json().catch(() => ({ message: response.statusText }));
        state.textContent = fmt(T.refused, { message: error.message });
      }
    } catch (error) {
      state.textContent = T.offline;
    } finally {
      button.disabled = false;
    }
  }

  const form = $("call-form");
  if (form) form.addEventListener("submit", send);
  setInterval(() => {
    if (call && call.state === "waiting") drawCall();
  }, 1000);
  connect();
})();
