// The game page's Share box: the shown position as a picture at its own address (a link
// that chat apps show as the board), the whole game as an animated GIF, each with a copy
// button. The server draws the pictures; this only names their addresses.

import { el } from "../dom.js";
import { t } from "../i18n.js";

/**
 * The addresses to share, or null when there is nothing shown: `image` (the shown position:
 * the game's picture, which follows the game, when the last position is shown), `thumb` (the
 * shown position exactly, for the preview) and `animation` (null without a game id).
 * `ply` is the shown position's number of moves, `total` the game's.
 */
export function shareLinks({ origin, id, ply, total, position }) {
  if (id) {
    const game = `${origin}/g/${encodeURIComponent(id)}`;
    const exact = `${game}/image.png?ply=${ply}`;
    return { image: ply === total ? `${game}/image.png` : exact, thumb: exact, animation: `${game}/game.gif` };
  }
  if (!position) return null;
  const image = `${origin}/image.png?position=${encodeURIComponent(position)}`;
  return { image, thumb: image, animation: null };
}

let box = null;
// Whether the shown position was a game's live position while it was being played, last
// time: the box opens by itself when that changes (a game ended, a review began).
let wasPlaying = null;

function copyRow(labelKey, id) {
  const input = el("input", { id, readOnly: true, class: "share-link" });
  const status = () => box.querySelector(".share-status");
  const button = el("button", {
    type: "button", text: t("share.copy"), "aria-label": `${t("share.copy")}: ${t(labelKey)}`,
    onclick: () => {
      input.select();
      const done = () => { status().textContent = t("share.copied"); };
      const failed = () => { status().textContent = t("share.copy_failed"); };
      if (navigator.clipboard) navigator.clipboard.writeText(input.value).then(done, failed);
      else failed();
    },
  });
  return el("div", { class: "row share-row" }, el("label", { text: t(labelKey) }, input), button);
}

function build(after) {
  box = el("details", { id: "share-pictures", class: "share-pictures" },
    el("summary", { id: "share-pictures-title", text: t("share.title") }),
    el("a", { id: "share-image-open", target: "_blank", rel: "noopener" },
      el("img", { id: "share-thumb", class: "share-thumb", alt: t("share.image_alt"), width: 240, height: 126 })),
    el("p", { class: "share-hint", text: t("share.hint") }),
    copyRow("share.image", "share-image-link"),
    copyRow("share.animation", "share-gif-link"),
    el("p", { class: "share-status", "aria-live": "polite" }));
  box.addEventListener("toggle", showThumb);
  wasPlaying = null;
  after.after(box);
}

/** Loads the preview of the shown position, only while the box is open. */
function showThumb() {
  const thumb = box.querySelector("#share-thumb");
  // Set only on change: the page draws itself again at every clock tick.
  if (box.open && thumb.getAttribute("src") !== box.dataset.thumb) thumb.src = box.dataset.thumb;
}

/**
 * Shows the Share box after element `after` for what the page shows (see `shareLinks`), or
 * hides it when `shown` is null. `shown.playing` says the page shows a game being played at
 * its live position: the box is then closed unless the reader opens it, so that the preview
 * (a picture of some 30–60 KB) is not downloaded again after every move.
 */
export function showShare(after, shown) {
  const links = shown && shareLinks({ origin: location.origin, ...shown });
  if (!links) { if (box) box.hidden = true; return; }
  if (!box || !box.isConnected) build(after);
  box.hidden = false;
  const playing = !!shown.playing;
  if (playing !== wasPlaying) box.open = !playing;
  wasPlaying = playing;
  if (box.dataset.thumb !== links.thumb) {
    box.dataset.thumb = links.thumb;
    box.querySelector("#share-image-open").href = links.image;
    box.querySelector(".share-status").textContent = "";
  }
  showThumb();
  box.querySelector("#share-image-link").value = links.image;
  const gif = box.querySelector("#share-gif-link");
  gif.value = links.animation || "";
  gif.closest(".share-row").hidden = !links.animation;
}
