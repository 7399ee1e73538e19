//! Configuration with Kafka's property names, defaults and validation messages
//! (the counterpart of Kafka's `ConfigDef` with its range and list validators).

use crate::model::kernel::sorted::{SortedMap, SortedSet};
use std::fmt;

use crate::model::kernel::{Arg, Describe, Message};

/// Why a value was refused; `Display` is Kafka's own `ConfigException` wording.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ConfigError {
    /// No property of that name in this scene.
    Unknown {
        name: String,
        known: Vec<&'static str>,
    },
    /// The value is not a whole number (`Not a number of type INT`).
    NotAnInt {
        name: &'static str,
        raw: String,
    },
    AtLeast {
        name: &'static str,
        raw: String,
        min: i64,
    },
    NoMoreThan {
        name: &'static str,
        raw: String,
        max: i64,
    },
    NotABool {
        name: &'static str,
        raw: String,
    },
    NotOneOf {
        name: &'static str,
        raw: String,
        allowed: &'static [&'static str],
    },
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let invalid = |f: &mut fmt::Formatter<'_>, raw: &str, name: &str| {
            write!(f, "Invalid value {raw} for configuration {name}: ")
        };
        match self {
            ConfigError::Unknown { name, known } => {
                write!(f, "Unknown config name: {name}. Known here: {}", known.join(", "))
            }
            ConfigError::NotAnInt { name, raw } => {
                invalid(f, raw, name)?;
                f.write_str("Not a number of type INT")
            }
            ConfigError::AtLeast { name, raw, min } => {
                invalid(f, raw, name)?;
                write!(f, "Value must be at least {min}")
            }
            ConfigError::NoMoreThan { name, raw, max } => {
                invalid(f, raw, name)?;
                write!(f, "Value must be no more than {max}")
            }
            ConfigError::NotABool { name, raw } => {
                invalid(f, raw, name)?;
                f.write_str("Expected value to be either true or false")
            }
            ConfigError::NotOneOf { name, raw, allowed } => {
                invalid(f, raw, name)?;
                write!(f, "String must be one of: {}", allowed.join(", "))
            }
        }
    }
}

crate::messages! {
    pub CONFIG_KEYS;
    CONFIG_REFUSED = "config.refused" => "{kafka}";
}

impl Describe for ConfigError {
    /// Kafka's message, verbatim (learners meet the same text from real Kafka).
    fn message(&self) -> Message {
        Message::new(CONFIG_REFUSED).with("kafka", Arg::kafka(self.to_string()))
    }
}

/// What values a property accepts, like a `ConfigDef` type plus validator.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// A whole number in `[min, max]`.
    Int {
        min: i64,
        max: i64,
    },
    Bool,
    /// One of a fixed list of strings.
    OneOf(&'static [&'static str]),
}

/// One property: Kafka's name (or `lab.` for knobs of the simulator itself), its default and kind.
#[derive(Clone, Copy, Debug)]
pub struct Property {
    pub name: &'static str,
    pub default: &'static str,
    pub kind: Kind,
    /// Where Kafka reads it: "topic", "broker", "producer", "consumer" or "lab".
    pub scope: &'static str,
}

/// A validated value.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Value {
    Int(i64),
    Bool(bool),
    Str(String),
}

/// The properties a scene knows, with the values in force (defaults unless overridden).
#[derive(Clone, Debug)]
pub struct Config {
    schema: &'static [Property],
    values: SortedMap<&'static str, Value>,
    /// Properties given a value by `set` (a preset's or a link's config), even their default.
    explicit: SortedSet<&'static str>,
}

impl Config {
    /// Every property at its default.
    pub fn defaults(schema: &'static [Property]) -> Self {
        let values = schema.iter().map(|p| (p.name, parse(p, p.default).expect("schema defaults are valid"))).collect();
        Self { schema, values, explicit: SortedSet::new() }
    }

    pub fn schema(&self) -> &'static [Property] {
        self.schema
    }

    /// Sets `name` to `raw` if it is a known property and the value is valid; else explains.
    pub fn set(&mut self, name: &str, raw: &str) -> Result<(), ConfigError> {
        let property = self.property(name)?;
        let value = parse(property, raw.trim())?;
        self.values.insert(property.name, value);
        self.explicit.insert(property.name);
        Ok(())
    }

    /// Whether `name` was set explicitly rather than left at its default (Kafka's
    /// `originals().containsKey(name)`, which decides some of a client's config checks).
    pub fn is_set(&self, name: &str) -> bool {
        self.explicit.contains(name)
    }

    fn property(&self, name: &str) -> Result<&'static Property, ConfigError> {
        self.schema.iter().find(|p| p.name == name).ok_or_else(|| ConfigError::Unknown {
            name: name.to_string(),
            known: self.schema.iter().map(|p| p.name).collect(),
        })
    }

    pub fn int(&self, name: &str) -> i64 {
        match self.values.get(name) {
            Some(Value::Int(v)) => *v,
            other => panic!("config {name} is not an int: {other:?}"),
        }
    }

    pub fn bool(&self, name: &str) -> bool {
        match self.values.get(name) {
            Some(Value::Bool(v)) => *v,
            other => panic!("config {name} is not a bool: {other:?}"),
        }
    }

    pub fn str(&self, name: &str) -> &str {
        match self.values.get(name) {
            Some(Value::Str(v)) => v,
            other => panic!("config {name} is not a string: {other:?}"),
        }
    }

    /// The value as text, as `kafka-configs --describe` would print it.
    pub fn display(&self, name: &str) -> String {
        match self.values.get(name) {
            Some(Value::Int(v)) => v.to_string(),
            Some(Value::Bool(v)) => v.to_string(),
            Some(Value::Str(v)) => v.clone(),
            None => String::new(),
        }
    }

    /// `(name, value)` for every property that differs from its default, in name order.
    pub fn overrides(&self) -> Vec<(&'static str, String)> {
        self.schema
            .iter()
            .filter(|p| Some(&parse(p, p.default).expect("valid default")) != self.values.get(p.name))
            .map(|p| (p.name, self.display(p.name)))
            .collect::<SortedMap<_, _>>()
            .into_iter()
            .collect()
    }
}

fn parse(property: &Property, raw: &str) -> Result<Value, ConfigError> {
    let name = property.name;
    let raw_text = || raw.to_string();
    match property.kind {
        Kind::Int { min, max } => {
            let value: i64 = raw.parse().map_err(|_| ConfigError::NotAnInt { name, raw: raw_text() })?;
            if value < min {
                return Err(ConfigError::AtLeast { name, raw: raw_text(), min });
            }
            if value > max {
                return Err(ConfigError::NoMoreThan { name, raw: raw_text(), max });
            }
            Ok(Value::Int(value))
        }
        Kind::Bool => match raw.to_ascii_lowercase().as_str() {
            "true" => Ok(Value::Bool(true)),
            "false" => Ok(Value::Bool(false)),
            _ => Err(ConfigError::NotABool { name, raw: raw_text() }),
        },
        Kind::OneOf(allowed) => allowed
            .iter()
            .find(|a| **a == raw)
            .map(|a| Value::Str((*a).to_string()))
            .ok_or_else(|| ConfigError::NotOneOf { name, raw: raw_text(), allowed }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCHEMA: &[Property] = &[
        Property { name: "min.insync.replicas", default: "1", kind: Kind::Int { min: 1, max: 9 }, scope: "topic" },
        Property { name: "acks", default: "all", kind: Kind::OneOf(&["all", "-1", "0", "1"]), scope: "producer" },
    ];

    #[test]
    fn rejects_bad_values_with_kafkas_wording_and_keeps_the_old_value() {
        let mut config = Config::defaults(SCHEMA);
        let err = config.set("min.insync.replicas", "0").unwrap_err().to_string();
        assert_eq!(err, "Invalid value 0 for configuration min.insync.replicas: Value must be at least 1");
        assert_eq!(config.int("min.insync.replicas"), 1);
        let err = config.set("acks", "2").unwrap_err().to_string();
        assert!(err.ends_with("String must be one of: all, -1, 0, 1"), "{err}");
        assert!(config
            .set("segment.byte", "1")
            .unwrap_err()
            .to_string()
            .starts_with("Unknown config name: segment.byte"));
    }

    #[test]
    fn overrides_list_only_changed_properties() {
        let mut config = Config::defaults(SCHEMA);
        assert!(config.overrides().is_empty());
        config.set("acks", "1").unwrap();
        assert_eq!(config.overrides(), vec![("acks", "1".to_string())]);
    }
}
