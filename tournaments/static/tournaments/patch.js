// Applies a patch of an event's picture, as the event's socket sends it
// ({"type": "event.patch", ...}), to the picture it was made from: as
// tournaments/patches.py's patched(). The picture given is left as it was.
"use strict";
window.atuPatched = (() => {
  function patched(before, patch) {
    const after = { ...before, ...(patch.set || {}) };
    for (const [field, rows] of Object.entries(patch.rows || {})) after[field] = patchedRows(before[field], rows);
    return after;
  }

  function patchedRows(before, patch) {
    const records = new Map(before.map((record) => [record[patch.id], record]));
    for (const item of patch.items) {
      records.set(item.id, "new" in item ? item.new : patched(records.get(item.id), item));
    }
    const order = patch.order || before.map((record) => record[patch.id]);
    return order.map((name) => records.get(name));
  }

  return patched;
})();
