// Who is signed in here (API.md, "Accounts"): asked of the server once per page load and
// after each sign-in or sign-out; the parts of the page that show it (the header's menu, the
// account pages) are told of every change.

import { api } from "../net.js";

let me = { account: null };
const listeners = [];

/** The signed-in account (`{id, username, created_ms}`), or null. */
export function currentAccount() {
  return me.account;
}

/** Calls `listener(account)` now and at every change of who is signed in. */
export function onAccountChange(listener) {
  listeners.push(listener);
  listener(me.account);
}

function tell() {
  for (const listener of listeners) listener(me.account);
}

/** Asks the server who is signed in. Nobody when it does not answer. */
export async function loadAccount() {
  try { me = await api("GET", "/api/account"); } catch { me = { account: null }; }
  tell();
  return me.account;
}

/** Makes an account and signs in: the answer holds the recovery codes, to show once. */
export async function signUp(username, password) {
  const made = await api("POST", "/api/account", { body: { username, password } });
  me = { account: made.account };
  tell();
  return made;
}

/** Signs in. */
export async function signIn(username, password) {
  const signed = await api("POST", "/api/session", { body: { username, password } });
  me = { account: signed.account };
  tell();
  return signed;
}

/** Sets a new password with a recovery code, and signs in. */
export async function recover(username, code, newPassword) {
  const signed = await api("POST", "/api/account/recover", { body: { username, code, new_password: newPassword } });
  me = { account: signed.account };
  tell();
  return signed;
}

/** Signs out (this browser). */
export async function signOut() {
  await api("DELETE", "/api/session");
  me = { account: null };
  tell();
}

/** Deletes the account, `password` confirming it. */
export async function deleteAccount(password) {
  await api("DELETE", "/api/account", { body: { password } });
  me = { account: null };
  tell();
}
