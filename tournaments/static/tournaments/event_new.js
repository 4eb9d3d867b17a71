// The event form: shows each game's own fields for the game chosen alone, and says
// in each rule's "as the preset" choice what the chosen preset sets. No build step;
// without it, every field shows and the choices say what the page was loaded with.
"use strict";
(() => {
  const form = document.querySelector("#new-event form");
  if (!form) return;
  const effects = JSON.parse(document.getElementById("atu-preset-effects").textContent);
  const game = form.querySelector("#id_game");
  const preset = form.querySelector("#id_preset");

  function showGame() {
    const chosen = game.value || "romanian";
    for (const element of form.querySelectorAll("[data-game]")) {
      element.hidden = element.dataset.game !== chosen;
    }
  }

  function showPreset() {
    for (const [name, words] of Object.entries(effects[preset.value] || {})) {
      const option = form.querySelector(`#id_${name} option[value=""]`);
      if (option) option.textContent = words;
    }
  }

  game.addEventListener("change", showGame);
  preset.addEventListener("change", showPreset);
  showGame();
  showPreset();
})();
