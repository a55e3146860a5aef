//! The OpenAPI object types, as data: each object's fields with their types, its required
//! fields, and whether `x-` extensions are allowed. One table serves 3.0 and 3.1; a field that
//! exists in one version only says so.
//!
//! Written from the OpenAPI Specification 3.0.3 and 3.1.0 ("Fixed Fields" of each object).
//! Schema objects are not here: they are JSON Schema (a dialect of it in 3.0, 2020-12 in 3.1)
//! and have their own walk (`schema.rs`).

/// The type of a field's value.
#[derive(Clone, Copy, Debug)]
pub(super) enum Ty {
    /// Any value.
    Any,
    /// A string.
    Str,
    /// A string from a fixed set.
    OneOf(&'static [&'static str]),
    Bool,
    /// An object of a type of this table.
    Obj(&'static ObjectType),
    /// An object of a type of this table, or a Reference Object (`$ref`).
    RefOr(&'static ObjectType),
    /// A Schema Object (or a Reference Object).
    Schema,
    /// A map from names to values of the type (`x-` names are extensions where `Map`).
    Map(&'static Ty),
    /// An array of values of the type.
    List(&'static Ty),
}

/// Which versions a field belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Since {
    Both,
    /// OpenAPI 3.1 only (`webhooks`, `jsonSchemaDialect`, `Info.summary`...).
    V31,
}

/// One fixed field.
#[derive(Clone, Copy, Debug)]
pub(super) struct Field {
    pub name: &'static str,
    pub ty: Ty,
    pub since: Since,
}

const fn f(name: &'static str, ty: Ty) -> Field {
    Field {
        name,
        ty,
        since: Since::Both,
    }
}

const fn f31(name: &'static str, ty: Ty) -> Field {
    Field {
        name,
        ty,
        since: Since::V31,
    }
}

/// An object type with these fields, nothing required, extensions allowed (as most are).
const fn object(name: &'static str, fields: &'static [Field]) -> ObjectType {
    ObjectType {
        name,
        fields,
        required: &[],
        required_30_only: &[],
        extensions: true,
    }
}

impl ObjectType {
    /// The same type with `required` fields.
    const fn requiring(self, required: &'static [&'static str]) -> ObjectType {
        ObjectType { required, ..self }
    }

    /// The same type with fields required in 3.0 only (3.1 made `paths` optional).
    const fn requiring_in_30(self, required_30_only: &'static [&'static str]) -> ObjectType {
        ObjectType {
            required_30_only,
            ..self
        }
    }
}

/// An OpenAPI object type.
#[derive(Debug)]
pub(super) struct ObjectType {
    /// The specification's name for it (`Operation`), used in messages.
    pub name: &'static str,
    pub fields: &'static [Field],
    /// Fields that must be present (in both versions unless `required_30_only` says).
    pub required: &'static [&'static str],
    /// Required in 3.0, optional in 3.1 (`paths`).
    pub required_30_only: &'static [&'static str],
    /// Whether names of the form `x-...` are extensions here.
    pub extensions: bool,
}

const STRINGS: Ty = Ty::List(&Ty::Str);

pub(super) static ROOT: ObjectType = object(
    "OpenAPI Object",
    &[
        f("openapi", Ty::Str),
        f("info", Ty::Obj(&INFO)),
        f31("jsonSchemaDialect", Ty::Str),
        f("servers", Ty::List(&Ty::Obj(&SERVER))),
        f("paths", Ty::Obj(&PATHS)),
        f31("webhooks", Ty::Map(&Ty::RefOr(&PATH_ITEM))),
        f("components", Ty::Obj(&COMPONENTS)),
        f("security", Ty::List(&Ty::Map(&STRINGS))),
        f("tags", Ty::List(&Ty::Obj(&TAG))),
        f("externalDocs", Ty::Obj(&EXTERNAL_DOCS)),
    ],
)
.requiring(&["openapi", "info"])
.requiring_in_30(&["paths"]);

static INFO: ObjectType = object(
    "Info Object",
    &[
        f("title", Ty::Str),
        f31("summary", Ty::Str),
        f("description", Ty::Str),
        f("termsOfService", Ty::Str),
        f("contact", Ty::Obj(&CONTACT)),
        f("license", Ty::Obj(&LICENSE)),
        f("version", Ty::Str),
    ],
)
.requiring(&["title", "version"]);

static CONTACT: ObjectType = object(
    "Contact Object",
    &[f("name", Ty::Str), f("url", Ty::Str), f("email", Ty::Str)],
);

static LICENSE: ObjectType = object(
    "License Object",
    &[
        f("name", Ty::Str),
        f31("identifier", Ty::Str),
        f("url", Ty::Str),
    ],
)
.requiring(&["name"]);

static SERVER: ObjectType = object(
    "Server Object",
    &[
        f("url", Ty::Str),
        f("description", Ty::Str),
        f("variables", Ty::Map(&Ty::Obj(&SERVER_VARIABLE))),
    ],
)
.requiring(&["url"]);

static SERVER_VARIABLE: ObjectType = object(
    "Server Variable Object",
    &[
        f("enum", STRINGS),
        f("default", Ty::Str),
        f("description", Ty::Str),
    ],
)
.requiring(&["default"]);

static COMPONENTS: ObjectType = object(
    "Components Object",
    &[
        f("schemas", Ty::Map(&Ty::Schema)),
        f("responses", Ty::Map(&Ty::RefOr(&RESPONSE))),
        f("parameters", Ty::Map(&Ty::RefOr(&PARAMETER))),
        f("examples", Ty::Map(&Ty::RefOr(&EXAMPLE))),
        f("requestBodies", Ty::Map(&Ty::RefOr(&REQUEST_BODY))),
        f("headers", Ty::Map(&Ty::RefOr(&HEADER))),
        f("securitySchemes", Ty::Map(&Ty::RefOr(&SECURITY_SCHEME))),
        f("links", Ty::Map(&Ty::RefOr(&LINK))),
        f("callbacks", Ty::Map(&Ty::RefOr(&CALLBACK))),
        f31("pathItems", Ty::Map(&Ty::RefOr(&PATH_ITEM))),
    ],
);

/// `paths`: keys are path templates (checked by the walk), values Path Items.
pub(super) static PATHS: ObjectType = object("Paths Object", &[]);

pub(super) static PATH_ITEM: ObjectType = object(
    "Path Item Object",
    &[
        f("$ref", Ty::Str),
        f("summary", Ty::Str),
        f("description", Ty::Str),
        f("get", Ty::Obj(&OPERATION)),
        f("put", Ty::Obj(&OPERATION)),
        f("post", Ty::Obj(&OPERATION)),
        f("delete", Ty::Obj(&OPERATION)),
        f("options", Ty::Obj(&OPERATION)),
        f("head", Ty::Obj(&OPERATION)),
        f("patch", Ty::Obj(&OPERATION)),
        f("trace", Ty::Obj(&OPERATION)),
        f("servers", Ty::List(&Ty::Obj(&SERVER))),
        f("parameters", Ty::List(&Ty::RefOr(&PARAMETER))),
    ],
);

static OPERATION: ObjectType = object(
    "Operation Object",
    &[
        f("tags", STRINGS),
        f("summary", Ty::Str),
        f("description", Ty::Str),
        f("externalDocs", Ty::Obj(&EXTERNAL_DOCS)),
        f("operationId", Ty::Str),
        f("parameters", Ty::List(&Ty::RefOr(&PARAMETER))),
        f("requestBody", Ty::RefOr(&REQUEST_BODY)),
        f("responses", Ty::Obj(&RESPONSES)),
        f("callbacks", Ty::Map(&Ty::RefOr(&CALLBACK))),
        f("deprecated", Ty::Bool),
        f("security", Ty::List(&Ty::Map(&STRINGS))),
        f("servers", Ty::List(&Ty::Obj(&SERVER))),
    ],
)
// 3.1 makes `responses` optional.
.requiring_in_30(&["responses"]);

static EXTERNAL_DOCS: ObjectType = object(
    "External Documentation Object",
    &[f("description", Ty::Str), f("url", Ty::Str)],
)
.requiring(&["url"]);

/// Where a parameter is.
pub(super) const PARAMETER_IN: &[&str] = &["query", "header", "path", "cookie"];

const PARAMETER_STYLES: &[&str] = &[
    "matrix",
    "label",
    "form",
    "simple",
    "spaceDelimited",
    "pipeDelimited",
    "deepObject",
];

pub(super) static PARAMETER: ObjectType = object(
    "Parameter Object",
    &[
        f("name", Ty::Str),
        f("in", Ty::OneOf(PARAMETER_IN)),
        f("description", Ty::Str),
        f("required", Ty::Bool),
        f("deprecated", Ty::Bool),
        f("allowEmptyValue", Ty::Bool),
        f("style", Ty::OneOf(PARAMETER_STYLES)),
        f("explode", Ty::Bool),
        f("allowReserved", Ty::Bool),
        f("schema", Ty::Schema),
        f("example", Ty::Any),
        f("examples", Ty::Map(&Ty::RefOr(&EXAMPLE))),
        f("content", Ty::Map(&Ty::Obj(&MEDIA_TYPE))),
    ],
)
.requiring(&["name", "in"]);

static REQUEST_BODY: ObjectType = object(
    "Request Body Object",
    &[
        f("description", Ty::Str),
        f("content", Ty::Map(&Ty::Obj(&MEDIA_TYPE))),
        f("required", Ty::Bool),
    ],
)
.requiring(&["content"]);

static MEDIA_TYPE: ObjectType = object(
    "Media Type Object",
    &[
        f("schema", Ty::Schema),
        f("example", Ty::Any),
        f("examples", Ty::Map(&Ty::RefOr(&EXAMPLE))),
        f("encoding", Ty::Map(&Ty::Obj(&ENCODING))),
    ],
);

static ENCODING: ObjectType = object(
    "Encoding Object",
    &[
        f("contentType", Ty::Str),
        f("headers", Ty::Map(&Ty::RefOr(&HEADER))),
        f("style", Ty::OneOf(PARAMETER_STYLES)),
        f("explode", Ty::Bool),
        f("allowReserved", Ty::Bool),
    ],
);

/// `responses`: keys are status codes (checked by a rule of their own), values Responses.
pub(super) static RESPONSES: ObjectType = object("Responses Object", &[]);

pub(super) static RESPONSE: ObjectType = object(
    "Response Object",
    &[
        f("description", Ty::Str),
        f("headers", Ty::Map(&Ty::RefOr(&HEADER))),
        f("content", Ty::Map(&Ty::Obj(&MEDIA_TYPE))),
        f("links", Ty::Map(&Ty::RefOr(&LINK))),
    ],
)
.requiring(&["description"]);

/// A Callback: keys are runtime expressions, values Path Items.
pub(super) static CALLBACK: ObjectType = object("Callback Object", &[]);

static EXAMPLE: ObjectType = object(
    "Example Object",
    &[
        f("summary", Ty::Str),
        f("description", Ty::Str),
        f("value", Ty::Any),
        f("externalValue", Ty::Str),
    ],
);

static LINK: ObjectType = object(
    "Link Object",
    &[
        f("operationRef", Ty::Str),
        f("operationId", Ty::Str),
        f("parameters", Ty::Map(&Ty::Any)),
        f("requestBody", Ty::Any),
        f("description", Ty::Str),
        f("server", Ty::Obj(&SERVER)),
    ],
);

static HEADER: ObjectType = object(
    "Header Object",
    &[
        f("description", Ty::Str),
        f("required", Ty::Bool),
        f("deprecated", Ty::Bool),
        f("allowEmptyValue", Ty::Bool),
        f("style", Ty::OneOf(PARAMETER_STYLES)),
        f("explode", Ty::Bool),
        f("allowReserved", Ty::Bool),
        f("schema", Ty::Schema),
        f("example", Ty::Any),
        f("examples", Ty::Map(&Ty::RefOr(&EXAMPLE))),
        f("content", Ty::Map(&Ty::Obj(&MEDIA_TYPE))),
    ],
);

static TAG: ObjectType = object(
    "Tag Object",
    &[
        f("name", Ty::Str),
        f("description", Ty::Str),
        f("externalDocs", Ty::Obj(&EXTERNAL_DOCS)),
    ],
)
.requiring(&["name"]);

/// Security scheme types (`mutualTLS` is 3.1's; the walk refuses it in 3.0).
pub(super) const SECURITY_TYPES: &[&str] =
    &["apiKey", "http", "oauth2", "openIdConnect", "mutualTLS"];

/// What each security scheme type requires beside `type`.
pub(super) const SECURITY_REQUIRED: &[(&str, &[&str])] = &[
    ("apiKey", &["name", "in"]),
    ("http", &["scheme"]),
    ("oauth2", &["flows"]),
    ("openIdConnect", &["openIdConnectUrl"]),
    ("mutualTLS", &[]),
];

pub(super) static SECURITY_SCHEME: ObjectType = object(
    "Security Scheme Object",
    &[
        f("type", Ty::OneOf(SECURITY_TYPES)),
        f("description", Ty::Str),
        f("name", Ty::Str),
        f("in", Ty::OneOf(&["query", "header", "cookie"])),
        f("scheme", Ty::Str),
        f("bearerFormat", Ty::Str),
        f("flows", Ty::Obj(&OAUTH_FLOWS)),
        f("openIdConnectUrl", Ty::Str),
    ],
)
.requiring(&["type"]);

static OAUTH_FLOWS: ObjectType = object(
    "OAuth Flows Object",
    &[
        f("implicit", Ty::Obj(&OAUTH_FLOW)),
        f("password", Ty::Obj(&OAUTH_FLOW)),
        f("clientCredentials", Ty::Obj(&OAUTH_FLOW)),
        f("authorizationCode", Ty::Obj(&OAUTH_FLOW)),
    ],
);

/// A flow's required URLs and scopes depend on the flow; SD702 reports them, at the flow,
/// with every missing field named, so they are not required here (one finding per cause).
static OAUTH_FLOW: ObjectType = object(
    "OAuth Flow Object",
    &[
        f("authorizationUrl", Ty::Str),
        f("tokenUrl", Ty::Str),
        f("refreshUrl", Ty::Str),
        f("scopes", Ty::Map(&Ty::Str)),
    ],
);
