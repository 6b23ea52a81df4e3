// The header's account corner: "Sign in" for nobody, else the username opening a small menu
// (profile, account, sign out).

import { el } from "../dom.js";
import { t } from "../i18n.js";
import { navigate } from "../nav.js";
import { onAccountChange, signOut } from "./session.js";

/** Keeps `box` (an element of the header) showing who is signed in. */
export function setUpAccountMenu(box) {
  onAccountChange((account) => {
    box.replaceChildren();
    if (!account) {
      box.append(el("a", { href: "/signin", class: "account-link", id: "sign-in-link", text: t("account.menu.signIn") }));
      return;
    }
    const out = el("button", { type: "button", id: "sign-out", text: t("account.menu.signOut") });
    out.addEventListener("click", async () => {
      menu.open = false;
      try { await signOut(); } catch (e) { console.warn(e.message); }
      navigate("/");
    });
    const menu = el("details", { class: "account-menu settings" },
      el("summary", { class: "settings-button", id: "account-name", text: account.username }),
      el("div", { class: "settings-panel account-panel" },
        el("a", { href: `/@/${encodeURIComponent(account.username)}`, text: t("account.menu.profile") }),
        el("a", { href: "/account", text: t("account.menu.account") }),
        out));
    for (const a of menu.querySelectorAll("a")) a.addEventListener("click", () => { menu.open = false; });
    box.append(menu);
  });
}
