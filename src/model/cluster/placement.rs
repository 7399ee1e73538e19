//! Kafka's default replica placement in KRaft mode (`StripedReplicaPlacer`), for a
//! cluster without racks where every broker is unfenced.

use crate::model::java_random::JavaRandom;

/// Counterpart of `StripedReplicaPlacer.place` for one rack: returns each partition's
/// replica list; the first replica is the preferred leader.
///
/// Brokers are sorted, a random start offset is drawn, each partition takes
/// `replication_factor` consecutive brokers starting one further than the last,
/// and after every `brokers.len()` partitions the broker list is shuffled.
pub fn place_replicas(
    brokers: &[u32],
    num_partitions: u32,
    replication_factor: u32,
    random: &mut JavaRandom,
) -> Result<Vec<Vec<u32>>, String> {
    if replication_factor == 0 {
        return Err(format!(
            "Invalid replication factor {replication_factor}: the replication factor must be positive."
        ));
    }
    if replication_factor as usize > brokers.len() {
        return Err(format!(
            "The target replication factor of {replication_factor} cannot be reached because only {} broker(s) are registered.",
            brokers.len()
        ));
    }
    let mut list: Vec<u32> = brokers.to_vec();
    crate::model::kernel::order::sort(&mut list);
    let n = list.len();
    // RackList draws the rack offset (one rack: nextInt(1)) after the broker list's offset.
    let mut offset = random.next_int(n as i32) as usize;
    let _rack_offset = random.next_int(1);
    let mut epoch = 0;
    let mut placements = Vec::with_capacity(num_partitions as usize);
    for _ in 0..num_partitions {
        if epoch == n && n > 1 {
            random.shuffle(&mut list);
            epoch = 0;
        }
        if !placements.is_empty() {
            offset = (offset + 1) % n;
        }
        let replicas = (0..replication_factor as usize).map(|i| list[(offset + i) % n]).collect();
        placements.push(replicas);
        epoch += 1;
    }
    Ok(placements)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_broker_leads_once_per_round_and_replicas_are_distinct() {
        let mut random = JavaRandom::new(1);
        let placed = place_replicas(&[1, 2, 3], 6, 3, &mut random).unwrap();
        for round in placed.chunks(3) {
            let mut leaders: Vec<u32> = round.iter().map(|r| r[0]).collect();
            crate::model::kernel::order::sort(&mut leaders);
            assert_eq!(leaders, vec![1, 2, 3]);
        }
        for replicas in &placed {
            let mut sorted = replicas.clone();
            crate::model::kernel::order::sort(&mut sorted);
            sorted.dedup();
            assert_eq!(sorted.len(), 3);
        }
    }

    #[test]
    fn too_few_brokers_is_kafkas_invalid_replication_factor() {
        let err = place_replicas(&[1, 2, 3], 6, 4, &mut JavaRandom::new(1)).unwrap_err();
        assert_eq!(
            err,
            "The target replication factor of 4 cannot be reached because only 3 broker(s) are registered."
        );
    }
}
