// Words at the table (decision 3506): the words said, the quick phrases and a line of
// text to say, each player's mute and a report. The table page's script (table.js)
// owns the socket: it hands this what the socket says of words (`receive`) and tells
// it when a socket opens (`opened`), when the words said meanwhile are read from the
// REST API; it sends what a player says through `send`, and words its texts with
// `fmt`. Muting is this reader's own: the names muted at a table are kept in
// localStorage, and the server never knows.
// No build step: it sets window.atuChat.
"use strict";

window.atuChat = (page, send, fmt) => {
  const chat = page.chat;
  const section = document.getElementById("chat");
  if (!chat || !section) return null;
  const T = page.text.chat;
  const errors = page.text.errors;
  const list = document.getElementById("chat-words");
  const empty = document.getElementById("chat-empty");
  const notice = document.getElementById("chat-notice");
  const mutedLine = document.getElementById("chat-muted");
  const MUTE_KEY = `atu.chat-muted.${page.code}`;
  // The latest words kept on the page.
  const KEEP = 100;
  const words = new Map(); // by id
  const reported = new Set();
  let muted = new Set();
  let lastId = 0;

  try {
    muted = new Set(JSON.parse(localStorage.getItem(MUTE_KEY) || "[]"));
  } catch {
    muted = new Set();
  }

  function keepMuted() {
    try {
      localStorage.setItem(MUTE_KEY, JSON.stringify([...muted]));
    } catch {
      // No storage here: the mute lasts as long as the page.
    }
  }

  function button(text, label, onclick) {
    const made = document.createElement("button");
    made.type = "button";
    made.textContent = text;
    made.setAttribute("aria-label", label);
    made.addEventListener("click", onclick);
    return made;
  }

  function toggleMute(name) {
    if (muted.has(name)) muted.delete(name);
    else muted.add(name);
    keepMuted();
    draw();
  }

  function report(word) {
    reported.add(word.id);
    send({ type: "chat_report", message: word.id });
    draw();
  }

  function line(word) {
    const item = document.createElement("li");
    item.dataset.word = String(word.id);
    const said = word.phrase ? T.phrases[word.phrase] || word.phrase : word.text;
    const who = document.createElement("strong");
    who.textContent = word.name;
    const what = document.createElement("span");
    what.className = "said";
    what.textContent = said;
    item.append(who, " ", what);
    if (word.seat === chat.seat) {
      item.classList.add("mine");
      return item;
    }
    const tools = document.createElement("span");
    tools.className = "chat-tools";
    tools.append(button(T.mute, fmt(T.mute_label, { name: word.name }), () => toggleMute(word.name)));
    if (chat.signed_in) {
      const sent = reported.has(word.id);
      const flag = button(sent ? T.reported : T.report, fmt(T.report_label, { name: word.name }), () => report(word));
      flag.disabled = sent;
      tools.append(flag);
    }
    item.append(tools);
    return item;
  }

  function draw() {
    const shown = [...words.values()].filter((word) => !muted.has(word.name)).sort((a, b) => a.id - b.id);
    list.replaceChildren(...shown.map(line));
    empty.hidden = shown.length > 0;
    mutedLine.replaceChildren();
    for (const name of [...muted].sort()) {
      mutedLine.append(button(fmt(T.unmute, { name }), fmt(T.unmute, { name }), () => toggleMute(name)));
    }
    mutedLine.hidden = muted.size === 0;
    list.scrollTop = list.scrollHeight;
  }

  function add(said) {
    for (const word of said) {
      words.set(word.id, word);
      lastId = Math.max(lastId, word.id);
    }
    const ids = [...words.keys()].sort((a, b) => a - b);
    for (const id of ids.slice(0, -KEEP)) words.delete(id);
    draw();
  }

  // What was said while no socket was open (and, at first, before the page came).
  async function readSince() {
    try {
      const answer = await fetch(`${chat.api}?after=${lastId}`, { headers: { Accept: "application/json" } });
      if (answer.ok) add((await answer.json()).words);
    } catch {
      // The socket's words still come; the next opening reads again.
    }
  }

  function say(message) {
    notice.textContent = "";
    send({ type: "chat", ...message });
  }

  for (const phrase of section.querySelectorAll("[data-phrase]")) {
    phrase.addEventListener("click", () => say({ phrase: phrase.dataset.phrase }));
  }
  const form = document.getElementById("chat-form");
  if (form) {
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const text = form.elements.text.value.trim();
      if (!text) return;
      say({ text });
      form.elements.text.value = "";
    });
  }
  draw();

  return {
    opened: readSince,
    receive(message) {
      if (message.type === "chat") add(message.words);
      else if (message.type === "error") notice.textContent = errors[message.code] || message.message;
    },
  };
};
