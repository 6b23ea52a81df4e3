// The sign-up page (/signup: the recovery codes shown once, with an "I have kept them" step)
// and the sign-in page (/signin, with the recovery by code).

import { el } from "../dom.js";
import { t } from "../i18n.js";
import { navigate } from "../nav.js";
import { field, form } from "../account/forms.js";
import { claimGames } from "../account/claim.js";
import { recover, signIn, signUp } from "../account/session.js";

/** Shows the sign-up page in `box`. */
export function openSignUp(box) {
  const name = field("account.username", { name: "username", id: "signup-username", autocomplete: "username", required: true, minLength: 3, maxLength: 20 });
  const password = field("account.password", { name: "password", id: "signup-password", type: "password", autocomplete: "new-password", required: true, minLength: 8, maxLength: 128 });
  const f = form("signup-form", [name, password], "account.signUp.submit", async () => {
    const made = await signUp(name.input.value, password.input.value);
    await claimGames();
    showCodes(box, made.recovery_codes);
  });
  box.replaceChildren(
    el("h1", { text: t("account.signUp.title") }),
    el("p", { text: t("account.signUp.intro") }),
    el("p", { class: "hint", text: t("account.rules") }),
    f,
    el("p", {}, el("a", { href: "/signin", text: t("account.signUp.haveOne") })));
  name.input.focus();
}

/** The recovery codes, shown this once, until their keeper says they are kept. */
function showCodes(box, codes) {
  const kept = el("input", { type: "checkbox", id: "codes-kept" });
  const next = el("button", { type: "button", class: "primary", id: "codes-done", disabled: true, text: t("account.codes.continue") });
  kept.addEventListener("change", () => { next.disabled = !kept.checked; });
  next.addEventListener("click", () => navigate("/account"));
  box.replaceChildren(
    el("h1", { text: t("account.codes.title") }),
    el("p", { text: t("account.codes.intro") }),
    el("ol", { class: "recovery-codes", id: "recovery-codes" }, ...codes.map((c) => el("li", {}, el("code", { text: c })))),
    el("label", { class: "account-check" }, kept, el("span", { text: t("account.codes.kept") })),
    next);
}

/** Shows the sign-in page in `box`. */
export function openSignIn(box) {
  const name = field("account.username", { name: "username", id: "signin-username", autocomplete: "username", required: true });
  const password = field("account.password", { name: "password", id: "signin-password", type: "password", autocomplete: "current-password", required: true });
  const f = form("signin-form", [name, password], "account.signIn.submit", async () => {
    await signIn(name.input.value, password.input.value);
    await claimGames();
    navigate("/");
  });
  const rName = field("account.username", { name: "username", id: "recover-username", autocomplete: "username", required: true });
  const code = field("account.recover.code", { name: "code", id: "recover-code", autocomplete: "off", required: true });
  const fresh = field("account.newPassword", { name: "new_password", id: "recover-password", type: "password", autocomplete: "new-password", required: true, minLength: 8 });
  const r = form("recover-form", [rName, code, fresh], "account.recover.submit", async () => {
    await recover(rName.input.value, code.input.value, fresh.input.value);
    navigate("/account");
  });
  box.replaceChildren(
    el("h1", { text: t("account.signIn.title") }),
    f,
    el("p", {}, el("a", { href: "/signup", text: t("account.signIn.noAccount") })),
    el("details", { class: "account-recover" }, el("summary", { text: t("account.recover.title") }),
      el("p", { text: t("account.recover.intro") }), r));
  name.input.focus();
}
