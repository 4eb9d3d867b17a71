// The live pages' watch on their socket (the table page, the event pages). A socket that
// said nothing for SILENT_MS is asked whether it lives ({"type": "ping"}, answered with a
// "pong"); one still silent PONG_MS later is taken for dead (a phone that slept, a proxy
// that dropped the link without a close, which may never fire "close") and handed to
// `reopen`, which opens another. The page calls watch() with each socket it opens and
// heard() on each message. No build step: it sets window.atuSilence.
"use strict";

window.atuSilence = (reopen) => {
  const SILENT_MS = 20000;
  const PONG_MS = 8000;
  let socket = null;
  let heardAt = 0; // when the socket last said anything (Date.now())
  let pinged = false;

  setInterval(() => {
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    const quiet = Date.now() - heardAt;
    if (quiet > SILENT_MS + PONG_MS) {
      const dead = socket;
      socket = null;
      reopen(dead);
    } else if (quiet > SILENT_MS && !pinged) {
      pinged = true;
      socket.send(JSON.stringify({ type: "ping" }));
    }
  }, 1000);

  const heard = () => {
    heardAt = Date.now();
    pinged = false;
  };
  return {
    watch(opened) {
      socket = opened;
      heard();
    },
    heard,
  };
};
