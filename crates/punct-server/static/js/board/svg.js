// Making SVG elements.

const SVGNS = "http://www.w3.org/2000/svg";

/** A new SVG element `tag` with `attrs`, appended to `parent` when one is given. */
export function svg(tag, attrs, parent) {
  const el = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (parent) parent.appendChild(el);
  return el;
}
