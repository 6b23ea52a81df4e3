// Small pieces the account pages share: a labelled field, a form whose submit shows the
// server's refusal beside it, and a section with its heading.

import { el } from "../dom.js";
import { t } from "../i18n.js";

/** A labelled input: `{label, input}`; `options` are the input's properties. */
export function field(labelKey, options) {
  const input = el("input", options);
  const label = el("label", { class: "account-field" }, el("span", { text: t(labelKey) }), input);
  return { label, input };
}

/**
 * A form of `fields` with a submit button `buttonKey`; `onSubmit()` runs on submit and its
 * error's message is shown in the form's status line (role=alert).
 */
export function form(id, fields, buttonKey, onSubmit) {
  const status = el("p", { class: "account-status", role: "alert" });
  const button = el("button", { type: "submit", class: "primary", text: t(buttonKey) });
  const f = el("form", { id, class: "account-form" }, ...fields.map((x) => x.label), button, status);
  f.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    status.textContent = "";
    button.disabled = true;
    try { await onSubmit(status); } catch (e) { status.textContent = e.message; } finally { button.disabled = false; }
  });
  return f;
}

/** A section headed `titleKey`. */
export function section(titleKey, ...children) {
  return el("section", { class: "account-section" }, el("h2", { text: t(titleKey) }), ...children);
}
