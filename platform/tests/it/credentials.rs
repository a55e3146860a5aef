//! Credentials from variables or a private file; secrets never shown.

use std::collections::HashMap;
use std::path::PathBuf;

use syncdef_platform::{
    Credentials, CredentialsError, ENV_CLIENT_KEY, ENV_CLIENT_SECRET, ENV_PASSWORD, ENV_USERNAME,
};

/// A file in a fresh directory under the system temp dir, removed on drop.
struct TempFile {
    dir: PathBuf,
    path: PathBuf,
}

impl TempFile {
    fn new(name: &str, contents: &str, mode: u32) -> Self {
        let dir = std::env::temp_dir().join(format!(
            "syncdef-platform-{}-{}",
            std::process::id(),
            name.replace('.', "-")
        ));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join(name);
        std::fs::write(&path, contents).expect("write");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).expect("chmod");
        }
        #[cfg(not(unix))]
        let _ = mode;
        Self { dir, path }
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn from_vars(vars: &[(&str, &str)]) -> Result<Credentials, CredentialsError> {
    let map: HashMap<String, String> = vars
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    Credentials::from_lookup(|name| map.get(name).cloned())
}

#[test]
fn variables_give_all_four_values() {
    let credentials = from_vars(&[
        (ENV_CLIENT_KEY, "key"),
        (ENV_CLIENT_SECRET, "secret-value"),
        (ENV_USERNAME, "user"),
        (ENV_PASSWORD, "password-value"),
    ])
    .expect("complete");
    assert_eq!(credentials.client_key, "key");
    assert_eq!(credentials.client_secret.expose(), "secret-value");
    let shown = format!("{credentials:?}");
    assert!(
        !shown.contains("secret-value") && !shown.contains("password-value"),
        "{shown}"
    );
}

#[test]
fn missing_variables_are_all_named() {
    let error = from_vars(&[(ENV_CLIENT_KEY, "key"), (ENV_USERNAME, "")]).unwrap_err();
    insta::assert_snapshot!("missing_variables", error.to_string());
}

#[test]
fn toml_and_json_files_are_read() {
    let toml = TempFile::new(
        "creds.toml",
        "client_key = \"k\"\nclient_secret = \"s\"\nusername = \"u\"\npassword = \"p\"\n",
        0o600,
    );
    let credentials = Credentials::from_file(&toml.path).expect("toml");
    assert_eq!(
        (credentials.username.as_str(), credentials.password.expose()),
        ("u", "p")
    );

    let json = TempFile::new(
        "creds.json",
        r#"{"client_key":"k","client_secret":"s","username":"u2","password":"p2"}"#,
        0o400,
    );
    let credentials = Credentials::from_file(&json.path).expect("json");
    assert_eq!(credentials.username, "u2");
}

#[cfg(unix)]
#[test]
fn a_file_readable_by_others_is_refused() {
    let file = TempFile::new(
        "open.toml",
        "client_key = \"k\"\nclient_secret = \"s\"\nusername = \"u\"\npassword = \"p\"\n",
        0o644,
    );
    let error = Credentials::from_file(&file.path).unwrap_err();
    let text = error.to_string();
    assert!(
        matches!(error, CredentialsError::TooOpen { mode: 0o644, .. }),
        "{error:?}"
    );
    assert!(text.contains("chmod 600"), "{text}");
}

#[test]
fn file_mistakes_are_explained_without_values() {
    let cases = [
        (
            "typo.toml",
            "client_key = \"k\"\nclient_secret = \"s\"\nusername = \"u\"\npasword = \"hunter2\"\n",
        ),
        (
            "missing.toml",
            "client_key = \"k\"\nclient_secret = \"s\"\nusername = \"u\"\n",
        ),
        (
            "wrong-type.toml",
            "client_key = \"k\"\nclient_secret = 12345678\nusername = \"u\"\npassword = \"p\"\n",
        ),
        ("broken.toml", "client_key = \"k\"\npassword = \"hunter2\n"),
        ("broken.json", "{\"password\": \"hunter2\""),
        ("array.json", "[\"hunter2\"]"),
    ];
    for (name, contents) in cases {
        let file = TempFile::new(name, contents, 0o600);
        let error = Credentials::from_file(&file.path).unwrap_err();
        let text = error.to_string();
        assert!(
            !text.contains("hunter2") && !text.contains("12345678"),
            "{name}: {text}"
        );
        let reason = match &error {
            CredentialsError::Invalid { reason, .. } => reason.clone(),
            other => panic!("{name}: {other:?}"),
        };
        insta::assert_snapshot!(name.replace('.', "_"), reason);
    }
}

#[test]
fn an_absent_file_says_so() {
    let error =
        Credentials::from_file(std::path::Path::new("/nonexistent/creds.toml")).unwrap_err();
    assert!(matches!(error, CredentialsError::Read { .. }), "{error:?}");
    assert!(error.to_string().contains("/nonexistent/creds.toml"));
}
