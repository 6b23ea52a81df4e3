// The account page (/account): change the password, make and revoke API tokens, download
// the account's data, delete the account. The site's settings follow the account by
// themselves (account/settings-sync.js).

import { el } from "../dom.js";
import { t } from "../i18n.js";
import { api } from "../net.js";
import { navigate } from "../nav.js";
import { field, form, section } from "../account/forms.js";
import { currentAccount, deleteAccount } from "../account/session.js";

/** Offers `text` as a file named `name` to download. */
function download(name, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = el("a", { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function passwordSection() {
  const old = field("account.password", { type: "password", id: "current-password", autocomplete: "current-password", required: true });
  const fresh = field("account.newPassword", { type: "password", id: "new-password", autocomplete: "new-password", required: true, minLength: 8 });
  return section("account.page.password", el("p", { class: "hint", text: t("account.page.passwordHint") }),
    form("password-form", [old, fresh], "account.page.change", async (status) => {
      await api("POST", "/api/account/password", { body: { password: old.input.value, new_password: fresh.input.value } });
      old.input.value = fresh.input.value = "";
      status.textContent = t("account.page.changed");
    }));
}

function tokensSection() {
  const list = el("ul", { class: "token-list", id: "token-list" });
  const shownOnce = el("p", { class: "token-made", id: "token-made" });
  const refresh = async () => {
    const { tokens } = await api("GET", "/api/account/tokens");
    list.replaceChildren(...tokens.map((tok) => {
      const revoke = el("button", { type: "button", text: t("account.tokens.revoke") });
      revoke.addEventListener("click", async () => { await api("DELETE", `/api/account/tokens/${encodeURIComponent(tok.id)}`); refresh(); });
      return el("li", {}, el("span", { text: tok.name }), " ", revoke);
    }));
    if (!tokens.length) list.append(el("li", { class: "hint", text: t("account.tokens.none") }));
  };
  const name = field("account.tokens.name", { id: "token-name", required: true, maxLength: 40 });
  const made = form("token-form", [name], "account.tokens.make", async () => {
    const tok = await api("POST", "/api/account/tokens", { body: { name: name.input.value } });
    name.input.value = "";
    shownOnce.replaceChildren(el("span", { text: t("account.tokens.shownOnce") }), " ", el("code", { text: tok.token }));
    refresh();
  });
  refresh().catch((e) => { list.replaceChildren(el("li", { text: e.message })); });
  return section("account.tokens.title", el("p", { class: "hint", text: t("account.tokens.intro") }), list, made, shownOnce);
}

function dataSection(account) {
  const button = el("button", { type: "button", id: "download-data", text: t("account.data.download") });
  const status = el("p", { class: "account-status", role: "alert" });
  button.addEventListener("click", async () => {
    try {
      const data = await api("GET", "/api/account/export");
      download(`punct-${account.username}.json`, JSON.stringify(data.profile, null, 2), "application/json");
      if (data.records) download(`punct-${account.username}-games.txt`, data.records, "text/plain");
    } catch (e) { status.textContent = e.message; }
  });
  return section("account.data.title", el("p", { class: "hint", text: t("account.data.intro") }), button, status);
}

function deleteSection() {
  const password = field("account.password", { type: "password", id: "delete-password", autocomplete: "current-password", required: true });
  return section("account.delete.title", el("p", { class: "hint", text: t("account.delete.intro") }),
    form("delete-form", [password], "account.delete.submit", async () => {
      if (!window.confirm(t("account.delete.confirm"))) return;
      await deleteAccount(password.input.value);
      navigate("/");
    }));
}

/** Shows the account page in `box` (the sign-in page for nobody). */
export function openAccount(box) {
  const account = currentAccount();
  if (!account) { navigate("/signin", { replace: true }); return; }
  box.replaceChildren(
    el("h1", { text: t("account.page.title", { name: account.username }) }),
    el("p", {}, el("a", { href: `/@/${encodeURIComponent(account.username)}`, text: t("account.menu.profile") })),
    el("p", { class: "hint", text: t("account.page.settingsKept") }),
    passwordSection(), tokensSection(), dataSection(account), deleteSection());
}
