// The account pages' place in the app: which addresses they are (sign up, sign in, the
// account, a profile, the players), their titles, and what is set up once (the header's
// menu, who is signed in, the settings kept with the account). All are drawn in one view.

import { $ } from "../dom.js";
import { t } from "../i18n.js";
import { openAccount } from "../pages/account.js";
import { openPlayers, openProfile } from "../pages/profile.js";
import { openSignIn, openSignUp } from "../pages/signin.js";
import { setUpAccountMenu } from "./header.js";
import { loadAccount } from "./session.js";
import { setUpSettingsSync } from "./settings-sync.js";

const TITLES = { signup: "account.signUp.title", signin: "account.signIn.title", account: "account.menu.account", players: "players.title" };
let ready = null;

/** Sets up the header's menu and learns who is signed in. */
export function setUpAccounts() {
  setUpAccountMenu($("account-corner"));
  setUpSettingsSync();
  ready = loadAccount();
}

/** Resolves once it is known who is signed in (after `setUpAccounts`). */
export function accountKnown() {
  return Promise.resolve(ready);
}

/** Shows `route` if it is an account page (with `show`, the app's view switch); whether it was. */
export function openAccountPage(route, show) {
  const open = { signup: openSignUp, signin: openSignIn, account: openAccount, players: openPlayers };
  if (!(route.page in open) && route.page !== "profile") return false;
  show("account");
  document.title = route.page === "profile" ? route.name : t(TITLES[route.page]);
  const box = $("view-account");
  // The account page needs to know who is signed in before it draws.
  accountKnown().then(() => {
    if (route.page === "profile") openProfile(box, route.name); else open[route.page](box);
  });
  return true;
}
