//! The English texts of the replication scene's stories (questions, captions, answers).

crate::messages! {
    pub STORY_KEYS;
    LEDGER = "replication.story.ledger" => "acked and lost: {lost} of {acked}";
    LEDGER_IDS = "replication.story.ledger.ids" => "{ledger} ({ids})";
    NO_LEADER = "replication.story.no_leader" => "no leader";
    PENDING = "replication.story.pending" => "not yet";

    DEFAULT_QUESTION = "replication.story.default.question" =>
        "How far has each follower copied the leader's log, and what is committed?";
    DEFAULT_WATCH = "replication.story.default.watch" =>
        "Press Play: a steady producer starts with this scene's config (acks={acks}). Watch each follower's LEO follow the leader's, and the HW follow the slowest replica in the ISR.";
    DEFAULT_ANSWER = "replication.story.default.answer" =>
        "leader {leader}: LEO {leo}, HW {hw}; ISR {isr}; {ledger}";

    CRASHED = "replication.story.crashed" =>
        "{broker} crashed (kill -9). The controller acts only after broker.session.timeout.ms = {timeout} without a heartbeat.";
    POWER = "replication.story.power" =>
        "Power failure on {broker}: what the OS had not flushed to disk is gone (LEO {before} → {after}).";
    ELECTED = "replication.story.elected" =>
        "The controller elected {leader} from the ISR (leader epoch {epoch}); its log ends at offset {leo}. {ledger}.";
    UNCLEAN = "replication.story.unclean" =>
        "Unclean election: {leader} leads although it was outside the ISR; its log ends at offset {leo}. {ledger}.";
    OFFLINE = "replication.story.offline" =>
        "No replica of the ISR is alive: the partition is offline. Nothing is lost yet ({ledger}), but nothing can be written or read.";
    TRUNCATED = "replication.story.truncated" =>
        "{broker} rejoins as a follower and truncates its log from LEO {from} to offset {to}: its own copies of those records are deleted.";
    RESTARTED = "replication.story.restarted" => "{broker} restarts and leads again with LEO {leo}. {ledger}.";

    HW_QUESTION = "replication.story.hw_leo.question" =>
        "After the leader appends a record, how many fetches until the follower knows it is committed?";
    HW_WATCH = "replication.story.hw_leo.watch" =>
        "Step with →: after each fetch, compare the follower's LEO and HW with the leader's HW.";
    HW_ANSWER = "replication.story.hw_leo.answer" =>
        "{follower} had the record at {had_at}, but its HW reached it only at {hw_at}: one fetch later (leader HW {leader_hw}, follower HW {follower_hw})";
    HW_INTRO = "replication.story.hw_leo.intro" =>
        "Two brokers, {delay} of network delay each way. The producer has just sent one record with acks=all; both replicas are at LEO 0, HW 0.";
    HW_APPENDED = "replication.story.hw_leo.appended" =>
        "The leader appended the record: its LEO is {leo}, but its HW stays {hw} until the follower has the record too.";
    HW_FETCHED = "replication.story.hw_leo.fetched" =>
        "The follower now has the record (LEO {leo}), but its HW is still {hw}: it learns the new HW one fetch later.";
    HW_ACKED = "replication.story.hw_leo.acked" =>
        "The follower's next fetch reported its LEO: the leader's HW = min(all LEOs) moved to {hw}, so acks=all answered the producer.";
    HW_LEARNED = "replication.story.hw_leo.learned" =>
        "One more fetch: the follower's HW = min(its LEO, the leader's HW) = {hw}. Both replicas now agree the record is committed.";

    ACKS1_QUESTION = "replication.story.acks1.question" =>
        "With acks=1, what happens to records the leader acknowledged before any follower copied them?";
    ACKS1_WATCH = "replication.story.acks1.watch" =>
        "Watch the ledger: the records are acknowledged by broker-1 alone, then broker-1 dies.";
    ACKS1_INTRO = "replication.story.acks1.intro" =>
        "acks=1: the leader answers after its own append. Both followers are slowed (each fetch waits {delay} more), so only broker-1 will hold the {sent, plural, one {record} other {# records}} just sent.";
    ACKS1_ACKED = "replication.story.acks1.acked" =>
        "{acked, plural, one {# record acknowledged} other {# records acknowledged}}, and only the leader has them: leader LEO {leo}, followers' LEO {follower_leo}.";

    MINISR1_QUESTION = "replication.story.min_isr_1.question" =>
        "acks=all with min.insync.replicas=1: can an acknowledged record still be lost?";
    MINISR1_WATCH = "replication.story.min_isr_1.watch" =>
        "Watch the ISR shrink to the leader alone, then a power failure on it.";
    MINISR1_INTRO = "replication.story.min_isr_1.intro" =>
        "acks=all, min.insync.replicas={min}, a first record sent. Both followers fetch a minute late, so after replica.lag.time.max.ms = {lag} the leader drops them from the ISR.";
    MINISR1_SHRUNK = "replication.story.min_isr_1.shrunk" =>
        "ISR {isr}: the leader alone is now \"all in-sync replicas\", and min.insync.replicas=1 lets it acknowledge alone.";
    MINISR1_ACKED = "replication.story.min_isr_1.acked" =>
        "{pending, plural, one {# more record} other {# more records}} sent: broker-1 acknowledges them alone, while they are only in its page cache, not yet on disk.";

    SAFE_QUESTION = "replication.story.safe.question" =>
        "The same faults with min.insync.replicas=2: is any acknowledged record lost?";
    SAFE_WATCH = "replication.story.safe.watch" =>
        "Watch the producer once the ISR is the leader alone: acks=all writes are refused.";
    SAFE_INTRO = "replication.story.safe.intro" =>
        "The same run with min.insync.replicas={min}, a first record sent: both followers fetch a minute late and leave the ISR after replica.lag.time.max.ms = {lag}.";
    SAFE_SHRUNK = "replication.story.safe.shrunk" =>
        "ISR {isr}, below min.insync.replicas={min}: the HW stops moving, so what the leader appended is neither committed nor acknowledged, and consumers cannot read it.";
    SAFE_REFUSED = "replication.story.safe.refused" =>
        "{pending, plural, one {# record waits} other {# records wait}}: the leader refuses new records with NOT_ENOUGH_REPLICAS and the producer keeps retrying; nothing is acknowledged ({ledger}).";
    SAFE_ANSWER = "replication.story.safe.answer" =>
        "{ledger}; {pending, plural, =0 {every record acknowledged} one {# record never acknowledged (NOT_ENOUGH_REPLICAS), the producer keeps retrying} other {# records never acknowledged (NOT_ENOUGH_REPLICAS), the producer keeps retrying}}";

    UNCLEAN_QUESTION = "replication.story.unclean.question" => "What does an unclean leader election cost?";
    UNCLEAN_WATCH = "replication.story.unclean.watch" =>
        "Watch broker-2: it comes back outside the ISR and is elected anyway.";
    UNCLEAN_INTRO = "replication.story.unclean.intro" =>
        "unclean.leader.election.enable=true, min.insync.replicas=1. broker-2 and broker-3 are down and out of the ISR; broker-1 alone acknowledges the {sent, plural, one {record} other {# records}} just sent.";

    LAB2_QUESTION = "replication.story.lab2.question" =>
        "Lab 2: kill the leader while a producer streams with acks={acks}. How many acknowledged records are lost?";
    LAB2_WATCH = "replication.story.lab2.watch" =>
        "Watch the ledger when the leader is killed and a follower takes over.";
    LAB2_INTRO = "replication.story.lab2.intro" =>
        "A producer sends {total, plural, one {# record} other {# records}} at {rate} per second with acks={acks}; the leader will be killed mid-stream.";
    LAB2_ALL_ANSWER = "replication.story.lab2.all_answer" =>
        "{ledger}; {dups, plural, =0 {no record stored twice} one {# record stored twice} other {# records stored twice}} by retries (enable.idempotence={idempotence})";

    LAB3_QUESTION = "replication.story.lab3.question" =>
        "Lab 3: the only replica in the ISR dies and an out-of-sync one comes back. Availability or data?";
    LAB3_WATCH = "replication.story.lab3.watch" =>
        "Watch the partition stay offline, even once unclean.leader.election.enable is switched on, until an unclean election is run.";
    LAB3_INTRO = "replication.story.lab3.intro" =>
        "min.insync.replicas=1, unclean elections off. broker-2 and broker-3 are down and out of the ISR; broker-1 alone takes the {sent, plural, one {record} other {# records}} just sent, then dies too.";
    LAB3_STAYS = "replication.story.lab3.stays" =>
        "broker-2 is back, but outside the ISR: with unclean elections off the partition stays offline. No data lost, nothing writable.";
    LAB3_CONFIG = "replication.story.lab3.config" =>
        "unclean.leader.election.enable=true, yet still offline: KRaft's controller elects uncleanly only at its next check (unclean.leader.election.interval.ms={interval}), so the lab runs kafka-leader-election --election-type unclean.";
    LAB3_ANSWER = "replication.story.lab3.answer" =>
        "offline for {offline} until the unclean election; then {ledger}";

    KIP_LOSS_QUESTION = "replication.story.kip101_loss.question" =>
        "A follower restarts just before the leader dies: does the last acknowledged record survive?";
    KIP_LOSS_WATCH = "replication.story.kip101_loss.watch" =>
        "Watch broker-2's log when it restarts: does it keep the last record?";
    KIP_LOSS_INTRO = "replication.story.kip101_loss.intro" =>
        "Both replicas hold {hw, plural, one {# record} other {# records}} (HW {hw}). One more has just been sent: the leader's HW moves when the follower fetches it, the follower's HW only one fetch later.";
    KIP_ACKED = "replication.story.kip101_loss.acked" =>
        "The last record is acknowledged: leader HW {leader_hw}, but broker-2's HW is still {follower_hw}.";
    KIP_HW_TRUNCATE = "replication.story.kip101_loss.truncate" =>
        "{broker} restarts; without leader epochs it truncates to its own HW: LEO {from} → {to}. The acknowledged record is gone from it.";
    KIP_ASKS = "replication.story.kip101_loss.asks" =>
        "broker-2 restarts; with leader epochs it does not truncate to its HW (LEO {leo}, HW {hw}) but asks the leader where its epoch ends (OffsetsForLeaderEpoch).";
    KIP_FETCHES = "replication.story.kip101_loss.fetches" =>
        "broker-2 restarts; with leader epochs it does not truncate to its HW (LEO {leo}, HW {hw}): it fetches from its LEO with the epoch of its last record (lastFetchedEpoch), and the leader answers divergingEpoch only if its log went another way.";
    KIP_NO_DIVERGENCE = "replication.story.kip101_loss.no_divergence" =>
        "broker-1 comes back and fetches with lastFetchedEpoch=0 too: on the leader epoch 0 ends at offset {end}, not before its fetch offset, so no divergingEpoch and nothing to truncate.";
    KIP_NOTHING = "replication.story.kip101_loss.nothing" =>
        "broker-1 comes back and asks too: epoch 0 ends at offset {end}, nothing to truncate.";
    KIP_OFF_ANSWER = "replication.story.kip101_loss.off_answer" =>
        "{ledger}: the restarted follower truncated to its HW, then became the leader";
    KIP_ON_ANSWER = "replication.story.kip101_loss.on_answer" =>
        "{ledger}: the restarted follower kept its log (LEO {leo}) instead of truncating to its HW";

    DIV_QUESTION = "replication.story.divergence.question" =>
        "After a double failure, do both replicas end up with the same record at every offset?";
    DIV_WATCH = "replication.story.divergence.watch" =>
        "Watch offset 1 on both logs after broker-1 comes back.";
    DIV_INTRO = "replication.story.divergence.intro" =>
        "The first record is flushed to disk on both replicas. A second one has just been sent: it will be only in the page cache when both brokers fail at once.";
    DIV_NEW = "replication.story.divergence.new" =>
        "A new record is on its way to broker-2, the leader now: it will take offset 1, where broker-1's log still holds the lost record.";
    DIV_OFF_BACK = "replication.story.divergence.off_back" =>
        "broker-1 returns with LEO {leo}, HW {hw}: truncating to its HW removes nothing, so offset 1 holds a different record on each replica.";
    DIV_ON_FIXED = "replication.story.divergence.on_fixed" =>
        "broker-1 asks OffsetsForLeaderEpoch: epoch 0 ends at offset {end}, so it truncates to {to} and copies the new leader's record. The logs agree again.";
    DIV_ON_DIVERGING = "replication.story.divergence.on_diverging" =>
        "broker-1 fetches with lastFetchedEpoch=0; the leader answers divergingEpoch: epoch 0 ends at offset {end}, so broker-1 truncates to {to} and copies the new leader's record. The logs agree again.";
    DIV_SPLIT = "replication.story.divergence.split" =>
        "the replicas disagree at {count, plural, one {offset} other {offsets}} {offsets}, and both count as in sync; {ledger}";
    DIV_FIXED = "replication.story.divergence.fixed" =>
        "the leader epoch fixed consistency: both replicas hold the same record at every offset. It cannot undo the loss: {ledger}, a record no surviving replica had on disk";

    MIN2_ONE_QUESTION = "replication.story.min_isr_2.one_question" =>
        "min.insync.replicas=2 and one of three brokers down: are writes still acknowledged?";
    MIN2_TWO_QUESTION = "replication.story.min_isr_2.two_question" =>
        "min.insync.replicas=2 and two of three brokers down: are writes still acknowledged?";
    MIN2_WATCH = "replication.story.min_isr_2.watch" =>
        "Watch the ISR once the controller fences the dead brokers, then the producer's next records.";
    MIN2_INTRO = "replication.story.min_isr_2.intro" =>
        "acks=all, min.insync.replicas={min}, three replicas. The first {pending, plural, one {record is} other {# records are}} on the way while all replicas are in sync.";
    MIN2_SHRUNK = "replication.story.min_isr_2.shrunk" =>
        "ISR {isr}: {size, plural, one {# replica} other {# replicas}} in sync, min.insync.replicas={min}.";
    MIN2_NEXT = "replication.story.min_isr_2.next" =>
        "{pending, plural, one {# more record} other {# more records}} sent with ISR {isr} and min.insync.replicas={min}: are they acknowledged?";
    MIN2_ANSWER = "replication.story.min_isr_2.answer" =>
        "ISR {isr} with min.insync.replicas={min}: {acked} of {sent} records acknowledged; {pending, plural, =0 {none refused} one {# refused with NOT_ENOUGH_REPLICAS} other {# refused with NOT_ENOUGH_REPLICAS}}";
}
