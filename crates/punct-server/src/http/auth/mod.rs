//! Who is asking, for every route: anonymous, an account by its session cookie, or an
//! account by a personal API token ([`Viewer`]). One layer around the whole router
//! ([`gate::gate`]) decides it and refuses cross-site changes ([`csrf`]) before any handler
//! runs, so that no route can forget either; handlers take [`Viewer`] as an argument. Also
//! the cookies ([`cookies`]), what a trusted proxy says ([`proxy`]), the account flows'
//! refusals as HTTP ([`refusal`]) and the routes that begin and end sessions ([`routes`]).

pub mod cookies;
pub mod csrf;
pub mod gate;
pub mod proxy;
pub mod refusal;
pub(super) mod routes;
pub mod viewer;

pub use gate::Gate;
pub use proxy::Client;
pub use viewer::Viewer;
