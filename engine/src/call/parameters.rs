//! The header and query parameters a call carries from `x-syncdef.parameters`: the values
//! given for the parameters its operation declares (a tenant header every request of Xero's
//! carries), filled from the server variables of the company the request goes to.

use std::collections::BTreeMap;
use std::sync::Arc;

use syncdef_definitions::extension::{ParameterPlace, ParametersSpec, fill_parameter};
use syncdef_definitions::openapi::SentParameter;
use url::Url;

/// The parameters of one operation that the definition gives values for.
#[derive(Clone, Debug, Default)]
pub(crate) struct CallParameters {
    given: Vec<GivenParameter>,
}

#[derive(Clone, Debug)]
struct GivenParameter {
    place: ParameterPlace,
    /// The name as the operation declares it.
    name: Arc<str>,
    /// The value text, with `{name}` placeholders naming server variables.
    value: Arc<str>,
}

impl CallParameters {
    /// The values `spec` gives for the parameters `declared` (an operation's header and query
    /// parameters), in the operation's order. A value for a parameter the operation does not
    /// declare is not sent to it: another operation may not accept it.
    pub fn of(spec: Option<&ParametersSpec>, declared: &[SentParameter<'_>]) -> Self {
        let Some(spec) = spec else {
            return CallParameters::default();
        };
        let given = declared
            .iter()
            .filter_map(|p| {
                Some(GivenParameter {
                    place: p.place,
                    name: Arc::from(p.name),
                    value: Arc::from(spec.value(p.place, p.name)?),
                })
            })
            .collect();
        CallParameters { given }
    }

    /// Adds the query parameters to `url`, their values filled from `variables` (the server
    /// variables of the request's company).
    ///
    /// # Errors
    /// A value naming a variable `variables` lacks, which the linter refuses (SD114), named
    /// with its parameter.
    pub fn add_query(
        &self,
        variables: &BTreeMap<String, String>,
        url: &mut Url,
    ) -> Result<(), String> {
        for (name, value) in self.filled(ParameterPlace::Query, variables) {
            url.query_pairs_mut().append_pair(name, &value?);
        }
        Ok(())
    }

    /// The headers, their values filled from `variables`. A request the answer links to (the
    /// next page) carries its own query, and these headers again.
    ///
    /// # Errors
    /// As [`CallParameters::add_query`].
    pub fn headers(
        &self,
        variables: &BTreeMap<String, String>,
    ) -> Result<Vec<(String, String)>, String> {
        self.filled(ParameterPlace::Header, variables)
            .map(|(name, value)| Ok((name.to_owned(), value?)))
            .collect()
    }

    fn filled<'s>(
        &'s self,
        place: ParameterPlace,
        variables: &'s BTreeMap<String, String>,
    ) -> impl Iterator<Item = (&'s str, Result<String, String>)> + 's {
        self.given
            .iter()
            .filter(move |p| p.place == place)
            .map(move |p| {
                let value = fill_parameter(&p.value, variables)
                    .map_err(|e| format!("`x-syncdef.parameters.{}.{}`: {e}", place.key(), p.name));
                (&*p.name, value)
            })
    }

    /// Whether the definition gives the call no parameter.
    pub fn is_empty(&self) -> bool {
        self.given.is_empty()
    }
}
