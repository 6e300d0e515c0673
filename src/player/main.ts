// Entry point of the sandbox player, bundled by the site plugin into assets/tinydag/player.js.
// Mounts every [data-sandbox] on the page; each one reads the JSON the build embedded next to it.

import { Sandbox } from "./sandbox";

function mountAll(): void {
  for (const root of document.querySelectorAll<HTMLElement>("[data-sandbox]")) {
    if (root.dataset.player) continue; // already mounted (or known to have no WebGL)
    root.dataset.player = "mounting";
    try {
      if (!Sandbox.mount(root) && root.dataset.player === "mounting") root.dataset.player = "failed";
    } catch (error) {
      root.dataset.player = "failed"; // the static figure stays visible
      console.error("tinydag player:", error);
    }
  }
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mountAll, { once: true });
else mountAll();
