//! Records read with the lists the platform shows beside them: a product with its price lists,
//! each holding the items of that list that price the product.

use crate::sync_support;

use serde_json::{Value, json};
use sync_support::{Data, Platform};
use syncdef_platform::{Credentials, PlatformClient, PlatformError};
use syncdef_worker::Module;

fn client(platform: &Platform) -> PlatformClient {
    PlatformClient::builder(
        platform.uri(),
        Credentials::new("key", "secret", "user", "password"),
    )
    .build()
    .expect("platform client")
}

fn product_id(n: u32) -> String {
    format!("10000000-0000-4000-8000-{n:012}")
}

/// Product `n` as the worker reads it from `platform`.
async fn read_product(platform: &Platform, n: u32) -> Result<Value, PlatformError> {
    Module::from_name("Products")
        .expect("products are synced")
        .read(&client(platform), &product_id(n))
        .await
}

/// A price list as read with a product: its name, its currency, and `(product, amount)` of
/// each of its items.
type ListPrices = (String, String, Vec<(String, f64)>);

/// The price lists the product was read with.
fn prices(product: &Value) -> Vec<ListPrices> {
    product["pricelists"]
        .as_array()
        .expect("pricelists")
        .iter()
        .map(|list| {
            let items = list["items"]
                .as_array()
                .expect("items")
                .iter()
                .map(|i| {
                    (
                        i["productId"].as_str().unwrap_or_default().to_owned(),
                        i["amount"].as_f64().unwrap_or_default(),
                    )
                })
                .collect();
            (
                list["name"].as_str().unwrap_or_default().to_owned(),
                list["currency"].as_str().unwrap_or_default().to_owned(),
                items,
            )
        })
        .collect()
}

#[tokio::test]
async fn a_product_is_read_with_its_price_lists_and_only_its_own_items_of_each() {
    let platform = Platform::start(Data::default().with_products(4)).await;
    let second = read_product(&platform, 2).await.expect("read");
    assert_eq!(second["name"], json!("Product 2"));
    assert_eq!(
        prices(&second),
        vec![
            (
                "Retail EUR".to_owned(),
                "EUR".to_owned(),
                vec![(product_id(2), 2.5)]
            ),
            (
                "Retail USD".to_owned(),
                "USD".to_owned(),
                vec![(product_id(2), 2.75)]
            ),
        ],
        "each list holds the product's own items, not the other products'"
    );
    // An odd product is in the euro list only.
    let third = read_product(&platform, 3).await.expect("read");
    assert_eq!(prices(&third).len(), 1);
    assert_eq!(platform.gets("/api/pricelists/1/items").await, 2);
}

#[tokio::test]
async fn a_product_without_price_lists_is_read_with_an_empty_list() {
    let mut data = Data::default().with_products(1);
    data.price_lists.clear();
    let platform = Platform::start(data).await;
    let product = read_product(&platform, 1).await.expect("read");
    assert_eq!(product["pricelists"], json!([]));
}

#[tokio::test]
async fn a_price_list_without_an_id_is_an_error_naming_it() {
    let mut data = Data::default().with_products(1);
    data.price_lists[0].0 = json!({"name": "Retail EUR", "currency": "EUR"});
    let platform = Platform::start(data).await;
    let error = read_product(&platform, 1)
        .await
        .expect_err("a price list without an id cannot be read further");
    let message = error.to_string();
    assert!(
        message.contains("/api/products/10000000-0000-4000-8000-000000000001/pricelists")
            && message.contains("`id` is missing"),
        "{message}"
    );
}
