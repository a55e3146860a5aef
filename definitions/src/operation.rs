//! The operations of an entry: the one place their keys are spelled. The model reads them,
//! the validator checks them, the engine plans and names its steps by them and the language
//! server completes them, each through [`Operation`]; what templates each needs is
//! [`crate::template_names::OPERATIONS`], keyed by [`Operation::key`].

/// Where an operation is declared in an entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Section {
    /// `push`: the platform's record goes to the external system.
    Push,
    /// `pull`: the external system's records come onto the platform.
    Pull,
}

impl Section {
    /// The key of the section (`push`).
    #[must_use]
    pub const fn key(self) -> &'static str {
        match self {
            Section::Push => "push",
            Section::Pull => "pull",
        }
    }
}

/// An operation of an entry, declared by its key under `push` or `pull`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Operation {
    /// `push.create`.
    Create,
    /// `push.update`.
    Update,
    /// `push.delete`.
    Delete,
    /// `pull.read`: one external record by its id.
    Read,
    /// `pull.batchRead`: the external records changed since the pull cursor.
    BatchRead,
}

impl Operation {
    /// Every operation, push ones first, in the order the format lists them.
    pub const ALL: [Operation; 5] = [
        Operation::Create,
        Operation::Update,
        Operation::Delete,
        Operation::Read,
        Operation::BatchRead,
    ];

    /// The push operations.
    pub const PUSH: [Operation; 3] = [Operation::Create, Operation::Update, Operation::Delete];

    /// The pull operations.
    pub const PULL: [Operation; 2] = [Operation::Read, Operation::BatchRead];

    /// The key that declares it (`create`), also the prefix of its templates' names
    /// (`createRequest`) and the name of its step in an audit trail.
    #[must_use]
    pub const fn key(self) -> &'static str {
        match self {
            Operation::Create => "create",
            Operation::Update => "update",
            Operation::Delete => "delete",
            Operation::Read => "read",
            Operation::BatchRead => "batchRead",
        }
    }

    /// The section declaring it.
    #[must_use]
    pub const fn section(self) -> Section {
        match self {
            Operation::Create | Operation::Update | Operation::Delete => Section::Push,
            Operation::Read | Operation::BatchRead => Section::Pull,
        }
    }

    /// The operation declared by `key`, if it is one.
    #[must_use]
    pub fn from_key(key: &str) -> Option<Operation> {
        Operation::ALL.into_iter().find(|o| o.key() == key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_operation_reads_back_from_its_key_and_has_its_templates() {
        for operation in Operation::ALL {
            assert_eq!(Operation::from_key(operation.key()), Some(operation));
            let templates = crate::template_names::OPERATIONS
                .iter()
                .find(|t| t.operation == operation.key())
                .expect("its templates");
            assert_eq!(templates.section, operation.section().key());
        }
        assert_eq!(Operation::from_key("path"), None);
        assert!(Operation::PUSH.iter().all(|o| o.section() == Section::Push));
        assert!(Operation::PULL.iter().all(|o| o.section() == Section::Pull));
    }
}
