//! One HTTP step, as a push and a pull both take it: the [`server`] it goes to, a request
//! [`compose`]d from its call plan in a [`Scope`](scope::Scope), [`send`] with the
//! credentials its operation's security requirement names ([`authorize`]), the account's rate
//! limit and retries, and its [`answer`] read and its status checked; each step records what
//! it does in the [`Trail`](trail::Trail), the audit trail. The steps reach the engine's
//! transport, tokens, credentials and policies through [`Connectors`](connectors::Connectors).

pub(crate) mod answer;
pub(crate) mod authorize;
pub(crate) mod compose;
pub(crate) mod connectors;
pub(crate) mod parameters;
pub(crate) mod scope;
pub(crate) mod send;
pub(crate) mod server;
pub(crate) mod trail;
