/**
 * A metric's formula as MathML (`lib/content/formulas.ts` gives it as a tree of MathML Core
 * elements), rendered element by element.
 */
import { createElement, type ReactNode } from "react";
import { mathText, type MathNode } from "@/lib/content/formulas";

/** A formula as MathML (block by default). */
export function MathFormula({ node, inline = false }: { node: MathNode; inline?: boolean }) {
  return createElement("math", { display: inline ? "inline" : "block", title: mathText(node) }, renderMath(node));
}

/** One MathML element per node; React renders the tags as given, and the browser parses them inside `<math>`. */
function renderMath(node: MathNode, key?: number): ReactNode {
  switch (node.kind) {
    case "mi":
    case "mn":
    case "mo":
    case "mtext":
      return createElement(node.kind, { key }, node.text);
    case "mrow":
      return createElement("mrow", { key }, ...node.children.map((child, i) => renderMath(child, i)));
    case "mfrac":
      return createElement("mfrac", { key }, renderMath(node.num, 0), renderMath(node.den, 1));
    case "msub":
      return createElement("msub", { key }, renderMath(node.base, 0), renderMath(node.sub, 1));
    case "msup":
      return createElement("msup", { key }, renderMath(node.base, 0), renderMath(node.sup, 1));
    case "munder":
      return createElement("munder", { key }, renderMath(node.base, 0), renderMath(node.under, 1));
  }
}
