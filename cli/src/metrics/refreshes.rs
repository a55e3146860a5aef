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

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;
    use syncdef_engine::auth::MemoryTokenStore;
    use syncdef_secrets::Secret;

    #[tokio::test(flavor = "current_thread")]
    async fn each_save_is_one_refresh_and_loads_are_none() {
        let metrics = Arc::new(Metrics::new(Duration::from_secs(60)));
        let store = CountedRefreshes {
            inner: Arc::new(MemoryTokenStore::new(None)),
            metrics: Arc::clone(&metrics),
        };
        let tokens = StoredTokens {
            access_token: Secret::new("access-token-1"),
            refresh_token: None,
            expires_at: None,
        };
        store.save(&tokens).await.expect("saved");
        store.save(&tokens).await.expect("saved");
        let loaded = store.load().await.expect("loaded").expect("tokens");
        assert_eq!(loaded.access_token.expose(), "access-token-1");
        let text = metrics.text().expect("written");
        assert!(
            text.lines().any(|l| l == "syncdef_token_refreshes_total 2"),
            "{text}"
        );
    }
}
