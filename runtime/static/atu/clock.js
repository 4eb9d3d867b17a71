// The round's clock on the live pages (a table, the event and manage pages, the room's
// screen): each element [data-round-clock] counts down to its data-ends-at (ISO; empty:
// no clock) in the server's time (data-server-now, whole seconds since 1970, when the
// page was made), turning to its warnings (data-warnings: "seconds left:minutes said",
// first to last) and to "time" (data-text-time; data-text-called once data-called is
// "true": the director or the clock called time, and the tables finish their deal).
// data-state says which it shows: running, warning, last-warning or time. The event
// pages, and a table's desk, set data-ends-at and data-called from their picture and
// call window.atuClock(): a deadline extended or time called shows at once. No build
// step.
"use strict";

(() => {
  const clocks = () => document.querySelectorAll("[data-round-clock]");
  const first = document.querySelector("[data-round-clock]");
  const skew = first ? Number(first.dataset.serverNow) * 1000 - Date.now() : 0;

  const fmt = (text, values) => text.replace(/%\((\w+)\)s/g, (_, key) => String(values[key]));
  const pairs = (text) =>
    (text || "").split(",").filter(Boolean).map((pair) => pair.split(":").map(Number));

  function duration(seconds) {
    const h = Math.floor(seconds / 3600);
    const m = Math.floor((seconds % 3600) / 60);
    const s = String(seconds % 60).padStart(2, "0");
    return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
  }

  function draw(clock) {
    const endsAt = clock.dataset.endsAt;
    clock.hidden = !endsAt;
    if (!endsAt) return;
    const left = Math.max(0, Math.ceil((Date.parse(endsAt) - (Date.now() + skew)) / 1000));
    const warnings = pairs(clock.dataset.warnings);
    let reached = -1;
    warnings.forEach(([seconds], index) => {
      if (left > 0 && left <= seconds) reached = index;
    });
    let state = "running";
    let text = fmt(clock.dataset.textLeft, { time: duration(left) });
    if (left === 0) {
      state = "time";
      text = clock.dataset.called === "true" ? clock.dataset.textCalled : clock.dataset.textTime;
    } else if (reached >= 0) {
      state = reached === warnings.length - 1 ? "last-warning" : "warning";
      text = fmt(clock.dataset.textWarning, { minutes: warnings[reached][1], time: duration(left) });
    }
    if (clock.dataset.state !== state) {
      clock.dataset.state = state;
      // A warning and the time are said once, as they come; the seconds are not.
      clock.setAttribute("aria-live", state === "running" ? "off" : "assertive");
    }
    if (clock.textContent !== text) clock.textContent = text;
  }

  const tick = () => clocks().forEach(draw);
  window.atuClock = tick;
  tick();
  setInterval(tick, 1000);
})();
