//! Token refreshes, counted where they end: the OAuth2 provider saves every token it gets
//! from a refresh to its store before using it, and saves nothing else during a sync.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use syncdef_engine::auth::{AuthError, StoredTokens, TokenStore};

use super::Metrics;

/// What the engine's token store traits return.
type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A token store that counts each save as a refresh in `metrics`.
pub struct CountedRefreshes {
    /// The store saved to.
    pub inner: Arc<dyn TokenStore>,
    /// Where refreshes are counted.
    pub metrics: Arc<Metrics>,
}

impl TokenStore for CountedRefreshes {
    fn load(&self) -> BoxFuture<'_, Result<Option<StoredTokens>, AuthError>> {
        self.inner.load()
    }

    fn save<'a>(&'a self, tokens: &'a StoredTokens) -> BoxFuture<'a, Result<(), AuthError>> {
        Box::pin(async move {
            self.inner.save(tokens).await?;
            self.metrics.token_refreshed();
            Ok(())
        })
    }
}
