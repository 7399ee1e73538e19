//! The brokers as the producer sees them: who leads each partition, how long each takes to answer
//! a produce request, and how many requests the producer has in flight to each (the part of
//! Kafka's `NetworkClient` the sender asks with `ready(node)`).
//!
//! Simplified on purpose: partition p is led by broker `1 + p % brokers` (Kafka's assignment starts
//! at a random broker), no replication, and a broker with no latency answers at once.

/// The scene's brokers; reads lab.brokers, lab.slow.broker, lab.slow.broker.latency.ms and
/// max.in.flight.requests.per.connection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Brokers {
    /// Produce latency of broker `i + 1`.
    latency_ms: Vec<u64>,
    /// Produce requests sent to broker `i + 1` and not answered yet.
    in_flight: Vec<u32>,
    max_in_flight: u32,
}

impl Brokers {
    pub fn new(brokers: u32, slow: Option<(u32, u64)>, max_in_flight: u32) -> Self {
        assert!(brokers >= 1, "a cluster has at least one broker");
        let mut latency_ms = vec![0; brokers as usize];
        if let Some((broker, ms)) = slow {
            latency_ms[broker as usize - 1] = ms;
        }
        Self { latency_ms, in_flight: vec![0; brokers as usize], max_in_flight: max_in_flight.max(1) }
    }

    pub fn count(&self) -> u32 {
        self.latency_ms.len() as u32
    }

    /// The leader of `partition` (the lab's round-robin assignment).
    pub fn leader_of(&self, partition: u32) -> u32 {
        1 + partition % self.count()
    }

    /// The partitions `broker` leads, in partition order (Kafka's `partitionsForNode`).
    pub fn partitions_led(&self, broker: u32, num_partitions: u32) -> Vec<u32> {
        (0..num_partitions).filter(|p| self.leader_of(*p) == broker).collect()
    }

    pub fn latency_ms(&self, broker: u32) -> u64 {
        self.latency_ms[broker as usize - 1]
    }

    pub fn in_flight(&self, broker: u32) -> u32 {
        self.in_flight[broker as usize - 1]
    }

    pub fn max_in_flight(&self) -> u32 {
        self.max_in_flight
    }

    /// `NetworkClient.ready`: the connection takes another request while fewer than
    /// `max.in.flight.requests.per.connection` are unanswered.
    pub fn can_send(&self, broker: u32) -> bool {
        self.in_flight(broker) < self.max_in_flight
    }

    /// A produce request left for `broker`; true when it stays in flight (the broker is not instant).
    pub fn request_sent(&mut self, broker: u32) -> bool {
        if self.latency_ms(broker) == 0 {
            return false;
        }
        let slot = &mut self.in_flight[broker as usize - 1];
        *slot += 1;
        debug_assert!(*slot <= self.max_in_flight, "no more than max.in.flight.requests.per.connection in flight");
        true
    }

    /// `broker` answered one request.
    pub fn response_received(&mut self, broker: u32) {
        let slot = &mut self.in_flight[broker as usize - 1];
        debug_assert!(*slot > 0, "a response answers a request in flight");
        *slot = slot.saturating_sub(1);
    }
}
