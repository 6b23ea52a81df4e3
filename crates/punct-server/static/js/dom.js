// Small DOM helpers.

/** The element with id `id`. */
export const $ = (id) => document.getElementById(id);

/** A new element `tag` with `props` (properties, `class`, `text`) and `children`. */
export function el(tag, props = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("data-") || k.startsWith("aria-")) e.setAttribute(k, v);
    else e[k] = v;
  }
  e.append(...children);
  return e;
}
