//! Plausible responses for dry-runs, derived once per operation from the definition: one
//! reading with the linter's, in [`syncdef_definitions::openapi::sample_response`].

pub(crate) use syncdef_definitions::openapi::sample_response as sample;
