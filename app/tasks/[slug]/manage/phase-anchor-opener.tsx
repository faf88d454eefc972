"use client";
/**
 * Opens the collapsed section a link's fragment points at on the console's phases tab (e.g.
 * `#phase-<id>` from the task page's "Manage" link): fragments never reach the server, so the
 * page cannot render that section open itself. On load and on every `hashchange`, the
 * `<details>` that is the target or lies inside it is opened and scrolled into view.
 */
import { useEffect } from "react";

/** Opens the fragment's `<details>`; renders nothing. */
export function PhaseAnchorOpener() {
  useEffect(() => {
    const open = () => {
      const id = decodeURIComponent(window.location.hash.slice(1));
      if (!id) return;
      const target = document.getElementById(id);
      const details = target instanceof HTMLDetailsElement ? target : target?.querySelector("details");
      if (!details) return;
      details.open = true;
      target!.scrollIntoView();
    };
    open();
    window.addEventListener("hashchange", open);
    return () => window.removeEventListener("hashchange", open);
  }, []);
  return null;
}
