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

pub(super) static ROOT: ObjectType = ObjectType {
    name: "OpenAPI Object",
    fields: &[
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
    required: &["openapi", "info"],
    required_30_only: &["paths"],
    extensions: true,
};

static INFO: ObjectType = ObjectType {
    name: "Info Object",
    fields: &[
        f("title", Ty::Str),
        f31("summary", Ty::Str),
        f("description", Ty::Str),
        f("termsOfService", Ty::Str),
        f("contact", Ty::Obj(&CONTACT)),
        f("license", Ty::Obj(&LICENSE)),
        f("version", Ty::Str),
    ],
    required: &["title", "version"],
    required_30_only: &[],
    extensions: true,
};

static CONTACT: ObjectType = ObjectType {
    name: "Contact Object",
    fields: &[f("name", Ty::Str), f("url", Ty::Str), f("email", Ty::Str)],
    required: &[],
    required_30_only: &[],
    extensions: true,
};

static LICENSE: ObjectType = ObjectType {
    name: "License Object",
    fields: &[
        f("name", Ty::Str),
        f31("identifier", Ty::Str),
        f("url", Ty::Str),
    ],
    required: &["name"],
    required_30_only: &[],
    extensions: true,
};

static SERVER: ObjectType = ObjectType {
    name: "Server Object",
    fields: &[
        f("url", Ty::Str),
        f("description", Ty::Str),
        f("variables", Ty::Map(&Ty::Obj(&SERVER_VARIABLE))),
    ],
    required: &["url"],
    required_30_only: &[],
    extensions: true,
};

static SERVER_VARIABLE: ObjectType = ObjectType {
    name: "Server Variable Object",
    fields: &[
        f("enum", STRINGS),
        f("default", Ty::Str),
        f("description", Ty::Str),
    ],
    required: &["default"],
    required_30_only: &[],
    extensions: true,
};

static COMPONENTS: ObjectType = ObjectType {
    name: "Components Object",
    fields: &[
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
    required: &[],
    required_30_only: &[],
    extensions: true,
};

/// `paths`: keys are path templates (checked by the walk), values Path Items.
pub(super) static PATHS: ObjectType = ObjectType {
    name: "Paths Object",
    fields: &[],
    required: &[],
    required_30_only: &[],
    extensions: true,
};

pub(super) static PATH_ITEM: ObjectType = ObjectType {
    name: "Path Item Object",
    fields: &[
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
    required: &[],
    required_30_only: &[],
    extensions: true,
};

static OPERATION: ObjectType = ObjectType {
    name: "Operation Object",
    fields: &[
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
    // 3.1 makes `responses` optional.
    required: &[],
    required_30_only: &["responses"],
    extensions: true,
};

static EXTERNAL_DOCS: ObjectType = ObjectType {
    name: "External Documentation Object",
    fields: &[f("description", Ty::Str), f("url", Ty::Str)],
    required: &["url"],
    required_30_only: &[],
    extensions: true,
};

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

pub(super) static PARAMETER: ObjectType = ObjectType {
    name: "Parameter Object",
    fields: &[
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
    required: &["name", "in"],
    required_30_only: &[],
    extensions: true,
};

static REQUEST_BODY: ObjectType = ObjectType {
    name: "Request Body Object",
    fields: &[
        f("description", Ty::Str),
        f("content", Ty::Map(&Ty::Obj(&MEDIA_TYPE))),
        f("required", Ty::Bool),
    ],
    required: &["content"],
    required_30_only: &[],
    extensions: true,
};

static MEDIA_TYPE: ObjectType = ObjectType {
    name: "Media Type Object",
    fields: &[
        f("schema", Ty::Schema),
        f("example", Ty::Any),
        f("examples", Ty::Map(&Ty::RefOr(&EXAMPLE))),
        f("encoding", Ty::Map(&Ty::Obj(&ENCODING))),
    ],
    required: &[],
    required_30_only: &[],
    extensions: true,
};

static ENCODING: ObjectType = ObjectType {
    name: "Encoding Object",
    fields: &[
        f("contentType", Ty::Str),
        f("headers", Ty::Map(&Ty::RefOr(&HEADER))),
        f("style", Ty::OneOf(PARAMETER_STYLES)),
        f("explode", Ty::Bool),
        f("allowReserved", Ty::Bool),
    ],
    required: &[],
    required_30_only: &[],
    extensions: true,
};

/// `responses`: keys are status codes (checked by a rule of their own), values Responses.
pub(super) static RESPONSES: ObjectType = ObjectType {
    name: "Responses Object",
    fields: &[],
    required: &[],
    required_30_only: &[],
    extensions: true,
};

pub(super) static RESPONSE: ObjectType = ObjectType {
    name: "Response Object",
    fields: &[
        f("description", Ty::Str),
        f("headers", Ty::Map(&Ty::RefOr(&HEADER))),
        f("content", Ty::Map(&Ty::Obj(&MEDIA_TYPE))),
        f("links", Ty::Map(&Ty::RefOr(&LINK))),
    ],
    required: &["description"],
    required_30_only: &[],
    extensions: true,
};

/// A Callback: keys are runtime expressions, values Path Items.
pub(super) static CALLBACK: ObjectType = ObjectType {
    name: "Callback Object",
    fields: &[],
    required: &[],
    required_30_only: &[],
    extensions: true,
};

static EXAMPLE: ObjectType = ObjectType {
    name: "Example Object",
    fields: &[
        f("summary", Ty::Str),
        f("description", Ty::Str),
        f("value", Ty::Any),
        f("externalValue", Ty::Str),
    ],
    required: &[],
    required_30_only: &[],
    extensions: true,
};

static LINK: ObjectType = ObjectType {
    name: "Link Object",
    fields: &[
        f("operationRef", Ty::Str),
        f("operationId", Ty::Str),
        f("parameters", Ty::Map(&Ty::Any)),
        f("requestBody", Ty::Any),
        f("description", Ty::Str),
        f("server", Ty::Obj(&SERVER)),
    ],
    required: &[],
    required_30_only: &[],
    extensions: true,
};

static HEADER: ObjectType = ObjectType {
    name: "Header Object",
    fields: &[
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
    required: &[],
    required_30_only: &[],
    extensions: true,
};

static TAG: ObjectType = ObjectType {
    name: "Tag Object",
    fields: &[
        f("name", Ty::Str),
        f("description", Ty::Str),
        f("externalDocs", Ty::Obj(&EXTERNAL_DOCS)),
    ],
    required: &["name"],
    required_30_only: &[],
    extensions: true,
};

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

pub(super) static SECURITY_SCHEME: ObjectType = ObjectType {
    name: "Security Scheme Object",
    fields: &[
        f("type", Ty::OneOf(SECURITY_TYPES)),
        f("description", Ty::Str),
        f("name", Ty::Str),
        f("in", Ty::OneOf(&["query", "header", "cookie"])),
        f("scheme", Ty::Str),
        f("bearerFormat", Ty::Str),
        f("flows", Ty::Obj(&OAUTH_FLOWS)),
        f("openIdConnectUrl", Ty::Str),
    ],
    required: &["type"],
    required_30_only: &[],
    extensions: true,
};

static OAUTH_FLOWS: ObjectType = ObjectType {
    name: "OAuth Flows Object",
    fields: &[
        f("implicit", Ty::Obj(&OAUTH_FLOW)),
        f("password", Ty::Obj(&OAUTH_FLOW)),
        f("clientCredentials", Ty::Obj(&OAUTH_FLOW)),
        f("authorizationCode", Ty::Obj(&OAUTH_FLOW)),
    ],
    required: &[],
    required_30_only: &[],
    extensions: true,
};

/// A flow's required URLs and scopes depend on the flow; SD702 reports them, at the flow,
/// with every missing field named, so they are not required here (one finding per cause).
static OAUTH_FLOW: ObjectType = ObjectType {
    name: "OAuth Flow Object",
    fields: &[
        f("authorizationUrl", Ty::Str),
        f("tokenUrl", Ty::Str),
        f("refreshUrl", Ty::Str),
        f("scopes", Ty::Map(&Ty::Str)),
    ],
    required: &[],
    required_30_only: &[],
    extensions: true,
};
