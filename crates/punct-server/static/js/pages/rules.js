// The rules page (`/rules`): the rules for players, short and illustrated, each diagram
// drawn by the game's own board renderer. The texts are the rules part of the catalogues;
// the full specification stays in docs/rules.md, served at /api/rules.

import { $, el } from "../dom.js";
import { FULL, TYPES } from "../geometry.js";
import { t } from "../i18n.js";
import { pieceIcon } from "../board/pieces.js";
import { svg } from "../board/svg.js";
import { drawDiagram } from "../rules/diagram.js";
import { DIAGRAMS } from "../rules/diagrams.js";

/** The page's sections, in order: each a title, paragraphs and a diagram (by name), as keys. */
const SECTIONS = [
  { name: "goal", paragraphs: ["text"], diagram: "goal" },
  { name: "pieces", paragraphs: ["text", "shapes"], pieces: true },
  { name: "turn", paragraphs: ["text"] },
  { name: "place", paragraphs: ["text", "centre"], diagram: "place" },
  { name: "move", paragraphs: ["text", "turning"], diagram: "move" },
  { name: "jump", paragraphs: ["text", "only"], diagram: "jump" },
  { name: "cover", paragraphs: ["text"], diagram: "cover" },
  { name: "bridge", paragraphs: ["text", "rules"], diagram: "bridge" },
  { name: "win", paragraphs: ["text", "both"], diagram: "win" },
  { name: "centre", paragraphs: ["text", "draws"], diagram: "centre" },
  { name: "basic", paragraphs: ["text"] },
];

/** A figure: the diagram `name` drawn, and its caption (filled with the position's centre count). */
function figure(name) {
  const root = svg("svg", { class: "diagram", role: "img", "aria-labelledby": `rules-${name}-caption` });
  const pos = drawDiagram(root, DIAGRAMS[name]);
  const caption = el("figcaption", { id: `rules-${name}-caption`, text: t(`rules.${name}.caption`, pos.centre) });
  return el("figure", { class: "rules-figure", "data-diagram": name }, root, caption);
}

/** The six piece types, each drawn with its letter, name and number per player. */
function pieceTable() {
  const list = el("ul", { class: "rules-pieces" });
  for (const type of TYPES) {
    list.append(el("li", {}, pieceIcon(type, "white"), el("span", { text: `${type} ×${FULL[type]}` }), el("span", { class: "rules-piece-name", text: t(`common.piece.${type}`) })));
  }
  return list;
}

/** Builds the page in the page's language. */
export function loadRules() {
  const root = $("rules-text");
  root.textContent = "";
  root.append(el("h1", { id: "rules-title", text: t("rules.title") }), el("p", { class: "lead", text: t("rules.intro") }));
  for (const s of SECTIONS) {
    const section = el("section", { id: `rules-${s.name}` }, el("h2", { text: t(`rules.${s.name}.title`) }));
    for (const p of s.paragraphs) section.append(el("p", { text: t(`rules.${s.name}.${p}`) }));
    if (s.pieces) section.append(pieceTable());
    if (s.diagram) section.append(figure(s.diagram));
    root.append(section);
  }
  root.append(el("p", { class: "rules-spec" }, `${t("rules.spec")} `, el("a", { href: "/api/rules", text: t("rules.specLink") })));
}

/** Empties the page when another is shown, so that its boards are not in the document twice. */
export function closeRules() {
  $("rules-text").textContent = "";
}
