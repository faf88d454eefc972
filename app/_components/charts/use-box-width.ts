"use client";

import { useEffect, useRef, useState, type Ref } from "react";

/**
 * The width of an element in pixels, followed as it changes through a ResizeObserver (0 until
 * measured, and on the server): the charts draw to the width of their box.
 *
 * @returns a ref to attach to the box and its current width
 */
export function useBoxWidth(): [Ref<HTMLDivElement>, number] {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.round(entry.contentRect.width)));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}
