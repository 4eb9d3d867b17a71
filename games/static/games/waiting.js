// The waiting room of a table: the share link's copy button, and the room put away
// once the table page (table.js, which marks the body's data-status) sees the game
// start or the table cancelled.
"use strict";
(() => {
  const room = document.getElementById("waiting-room");
  if (!room) return;
  const link = document.getElementById("share-link");
  const button = document.getElementById("copy-link");
  const label = button.textContent;

  function copied() {
    button.textContent = button.dataset.copied;
    setTimeout(() => {
      button.textContent = label;
    }, 2000);
  }

  // Where the clipboard API is missing (a page not served over HTTPS), the link is
  // selected and copied the old way.
  function copyBySelection() {
    link.select();
    if (document.execCommand("copy")) copied();
  }

  button.addEventListener("click", () => {
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(link.value).then(copied, copyBySelection);
    } else {
      copyBySelection();
    }
  });

  const update = () => {
    const status = document.body.dataset.status;
    room.hidden = Boolean(status) && status !== "open";
  };
  new MutationObserver(update).observe(document.body, { attributes: true, attributeFilter: ["data-status"] });
  update();
})();
