//! One fault vocabulary for every scene (turmoil's verbs): crash, power-fail,
//! restart, pause, slow, cut and heal, with one link codec. A scene accepts the
//! faults that make sense for it and refuses the rest in its `check`.

use super::token::{parse_number, Token, TokenError};

/// What a fault is aimed at. `Id` is a broker id or a member index, as the scene says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Node {
    Id(u32),
    Controller,
    Producer,
}

impl Node {
    fn token(self) -> String {
        match self {
            Node::Id(id) => id.to_string(),
            Node::Controller => "c".into(),
            Node::Producer => "p".into(),
        }
    }

    fn parse(text: &str) -> Result<Node, TokenError> {
        match text {
            "c" => Ok(Node::Controller),
            "p" => Ok(Node::Producer),
            _ => parse_number(text).map(Node::Id).map_err(|_| TokenError::NotANode { text: text.to_string() }),
        }
    }

    /// The id of a broker or member; `None` for the controller or producer.
    pub fn id(self) -> Option<u32> {
        match self {
            Node::Id(id) => Some(id),
            _ => None,
        }
    }
}

/// A fault injected on purpose.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fault {
    /// The process dies at once (kill -9): no clean shutdown. Token `kill-N`.
    Crash(Node),
    /// The machine loses power: the process dies and unflushed writes are lost. `powerfail-N`.
    PowerFail(Node),
    /// A dead process starts again. `restart-N`.
    Restart(Node),
    /// The process stops answering (a GC pause, SIGSTOP) for `duration_ms`, or until
    /// restarted when `None`. `pause-N-MS`, `stall-N`.
    Pause { node: Node, duration_ms: Option<u64> },
    /// Everything the node does takes `delay_ms` longer. `slow-N-MS`.
    Slow { node: Node, delay_ms: u64 },
    /// The link between two nodes drops every message. `cut-X-Y`.
    Cut(Node, Node),
    /// A cut link works again. `heal-X-Y`.
    Heal(Node, Node),
}

impl Fault {
    /// The link token (the verbs links have always used).
    pub fn encode(&self) -> String {
        match *self {
            Fault::Crash(n) => format!("kill-{}", n.token()),
            Fault::PowerFail(n) => format!("powerfail-{}", n.token()),
            Fault::Restart(n) => format!("restart-{}", n.token()),
            Fault::Pause { node, duration_ms: Some(ms) } => format!("pause-{}-{ms}", node.token()),
            Fault::Pause { node, duration_ms: None } => format!("stall-{}", node.token()),
            Fault::Slow { node, delay_ms } => format!("slow-{}-{delay_ms}", node.token()),
            Fault::Cut(a, b) => format!("cut-{}-{}", a.token(), b.token()),
            Fault::Heal(a, b) => format!("heal-{}-{}", a.token(), b.token()),
        }
    }

    /// Reads a fault token; `None` when the verb is not a fault verb (the scene's own, then).
    pub fn decode(token: &Token) -> Option<Result<Fault, TokenError>> {
        let args = token.args();
        let node = |i: usize| Node::parse(args.get(i).copied().unwrap_or(""));
        let fault = match (token.verb(), args.len()) {
            ("kill", 1) => node(0).map(Fault::Crash),
            ("powerfail", 1) => node(0).map(Fault::PowerFail),
            ("restart", 1) => node(0).map(Fault::Restart),
            ("stall", 1) => node(0).map(|node| Fault::Pause { node, duration_ms: None }),
            ("pause", 2) => {
                node(0).and_then(|node| token.number(1).map(|ms| Fault::Pause { node, duration_ms: Some(ms) }))
            }
            ("slow", 2) => node(0).and_then(|node| token.number(1).map(|delay_ms| Fault::Slow { node, delay_ms })),
            ("cut", 2) => node(0).and_then(|a| node(1).map(|b| Fault::Cut(a, b))),
            ("heal", 2) => node(0).and_then(|a| node(1).map(|b| Fault::Heal(a, b))),
            _ => return None,
        };
        Some(fault)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_fault_round_trips_through_its_token() {
        let faults = [
            Fault::Crash(Node::Id(1)),
            Fault::PowerFail(Node::Id(2)),
            Fault::Restart(Node::Id(3)),
            Fault::Pause { node: Node::Id(2), duration_ms: Some(15_000) },
            Fault::Pause { node: Node::Id(3), duration_ms: None },
            Fault::Slow { node: Node::Id(1), delay_ms: 800 },
            Fault::Cut(Node::Producer, Node::Id(1)),
            Fault::Heal(Node::Controller, Node::Id(1)),
        ];
        for fault in faults {
            let text = fault.encode();
            assert_eq!(Fault::decode(&Token::parse(&text)), Some(Ok(fault)), "{text}");
        }
    }

    #[test]
    fn old_link_tokens_still_read() {
        assert_eq!(Fault::decode(&Token::parse("kill-1")), Some(Ok(Fault::Crash(Node::Id(1)))));
        assert_eq!(Fault::decode(&Token::parse("cut-p-1")), Some(Ok(Fault::Cut(Node::Producer, Node::Id(1)))));
        assert_eq!(Fault::decode(&Token::parse("produce-5")), None);
        assert!(matches!(Fault::decode(&Token::parse("kill-x")), Some(Err(TokenError::NotANode { .. }))));
    }
}
