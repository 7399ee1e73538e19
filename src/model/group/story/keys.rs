//! The groups scene's story texts: questions, what to watch, answers and captions (English;
//! every locale translates them by key).

crate::messages! {
    pub STORY_KEYS;
    LIST = "groups.story.list" => "{first}, {rest}";
    NONE = "groups.story.none" => "none";
    PENDING = "groups.story.pending" => "not yet";
    STOP_ITEM = "groups.story.stop_item" => "{member} {stop}";
    OWNER_ITEM = "groups.story.owner_item" => "{member}: {partitions}";
    PARTITION_OWNER = "groups.story.partition_owner" => "{partition} → {member}";
    RANGE_ITEM = "groups.story.range_item" => "{partition} {first}–{last}";
    LOOP_FIGURES = "groups.story.loop_figures" =>
        "{rebalances, plural, one {# rebalance} other {# rebalances}} in {elapsed} ({per_minute} generations a minute); without a stable assignment for {unstable} of {elapsed}";
    LOOP_VERDICT = "groups.story.loop_verdict" =>
        "Rebalance loop: members keep leaving and rejoining. {figures}";
    DEFAULT_QUESTION = "groups.story.default.question" => "Who owns which partition of {topic}, and is the group settled?";
    DEFAULT_WATCH = "groups.story.default.watch" =>
        "Press Play: three consumers join the group and share six partitions. Then kill, pause or slow one and watch the rebalance.";
    DEFAULT_ANSWER = "groups.story.default.answer" =>
        "{state}, generation {generation} · {owners} · total lag {lag, plural, one {# record} other {# records}}";
    SLOW_QUESTION = "groups.story.slow.question" =>
        "One consumer needs {per_record} per record; the producer writes {rate, plural, one {# record} other {# records}} a second. Does it keep up?";
    SLOW_WATCH = "groups.story.slow.watch" => "Watch the LAG column and the lag charts: does lag level off, or keep climbing?";
    SLOW_ANSWER = "groups.story.slow.answer" =>
        "it falls behind: total lag {lag, plural, one {# record} other {# records}}, up {per_minute, plural, one {# record} other {# records}} on a minute ago (C1 processes at most {capacity, plural, one {# record} other {# records}} a second, {rate} arrive)";
    SLOW_INTRO = "groups.story.slow.intro" =>
        "One member, C1, will own all six partitions. It needs {per_record} per record, so it handles {capacity, plural, one {# record} other {# records}} a second; {rate} arrive.";
    SLOW_STABLE = "groups.story.slow.stable" => "C1 owns every partition in generation {generation}. From here on, watch the LAG column.";
    SLOW_LATER = "groups.story.slow.later" =>
        "{elapsed} in: total lag {lag, plural, one {# record} other {# records}}. No error and no rebalance: the group is Stable and still falls behind.";
    LOOP_QUESTION = "groups.story.loop.question" =>
        "Each poll() returns up to {records, plural, one {# record} other {# records}} at {per_record} each: {batch} of work, but max.poll.interval.ms = {interval}. What happens to the group?";
    LOOP_WATCH = "groups.story.loop.watch" =>
        "Watch the coordinator strip: after each poll timeout every member leaves, the group empties and everyone rejoins.";
    LOOP_ANSWER = "groups.story.loop.answer" =>
        "{figures}; committed offsets moved by {committed, plural, =0 {no record} one {# record} other {# records}}, {duplicates, plural, one {# record} other {# records}} processed twice";
    LOOP_INTRO = "groups.story.loop.intro" =>
        "Three members, {backlog, plural, one {# record} other {# records}} waiting on each partition. A batch takes {batch}, longer than max.poll.interval.ms = {interval}.";
    LOOP_TIMEOUT = "groups.story.loop.timeout" =>
        "{interval} after its last poll(), each member's heartbeat thread gives up and leaves the group, its batch unfinished and nothing committed.";
    LOOP_REJOIN = "groups.story.loop.rejoin" =>
        "They rejoin as new members: generation {generation}, the same partitions, and the same first records again.";
    LOOP_DUPLICATES = "groups.story.loop.duplicates" =>
        "A batch finished after its member had left: the next owner processes those records again. Duplicates so far: {duplicates, plural, one {# record} other {# records}}.";
    FIX_RECORDS_QUESTION = "groups.story.fix_records.question" =>
        "The load of rebalance-loop, but max.poll.records = {records}: does the group still loop?";
    FIX_INTERVAL_QUESTION = "groups.story.fix_interval.question" =>
        "The load of rebalance-loop, but max.poll.interval.ms = {interval}: does the group still loop?";
    FIX_WATCH = "groups.story.fix.watch" => "Watch for poll timeouts: in rebalance-loop every member left 18 s in.";
    FIX_ANSWER = "groups.story.fix.answer" =>
        "no loop: generation {generation}, {timeouts, plural, =0 {no poll timeout} one {# poll timeout} other {# poll timeouts}}; a batch takes {batch}, under max.poll.interval.ms = {interval}; total lag {lag, plural, one {# record} other {# records}}";
    FIX_INTRO = "groups.story.fix.intro" =>
        "max.poll.records = {records} at {per_record} per record: a batch takes {batch}, inside max.poll.interval.ms = {interval}.";
    FIX_STABLE = "groups.story.fix.stable" =>
        "Stable in generation {generation}. Each member calls poll() again every {batch}, well before its poll timeout.";
    FIX_LATER = "groups.story.fix.later" =>
        "{elapsed} in: no member has left, and offsets are committed as batches finish. Total lag {lag, plural, one {# record} other {# records}}.";
    RESTART_EAGER_QUESTION = "groups.story.eager.question" =>
        "C3 is killed and restarted a second later. With the eager {assignor}, how long does each other member stop processing?";
    RESTART_COOP_QUESTION = "groups.story.cooperative.question" =>
        "The same kill and restart with the cooperative {assignor}: how long does each other member stop now?";
    RESTART_WATCH = "groups.story.restart.watch" =>
        "Watch C1 and C2's lanes from C3's new JoinGroup until the group is Stable again.";
    STOP_ANSWER = "groups.story.restart.answer" =>
        "stop per member: {per_member} (their sum, {sum}, is not a wall-clock time); {partitions} had no owner for {orphaned}";
    STOP_NONE_ANSWER = "groups.story.restart.answer_none" =>
        "no member stopped: {per_member}; only {partitions} had no owner, for {orphaned}";
    RESTART_INTRO = "groups.story.restart.intro" =>
        "Stable, generation {generation}: each member holds two partitions. C3 is about to be killed (kill -9), so it sends no LeaveGroup.";
    RESTART_DEAD = "groups.story.restart.dead" =>
        "C3 is dead, but the coordinator counts it as a member until session.timeout.ms = {session} passes without a heartbeat.";
    RESTART_EAGER_JOIN = "groups.story.eager.join" =>
        "The new C3 sends JoinGroup and a rebalance starts. Eager: C1 and C2 revoke every partition and wait for the old C3, which never rejoins.";
    RESTART_COOP_JOIN = "groups.story.cooperative.join" =>
        "The new C3 sends JoinGroup and a rebalance starts. Cooperative: C1 and C2 rejoin without revoking anything and keep processing.";
    RESTART_EXPIRED = "groups.story.restart.expired" =>
        "session.timeout.ms = {session} expired: the coordinator drops the old C3, the join completes and the partitions are handed out.";
    STATIC_QUESTION = "groups.story.static.question" =>
        "With group.instance.id set, C3 is killed and restarted well within session.timeout.ms = {session}. Does the group rebalance?";
    STATIC_WATCH = "groups.story.static.watch" =>
        "Watch the generation and the coordinator strip until session.timeout.ms has passed since the crash.";
    STATIC_ANSWER = "groups.story.static.answer" =>
        "{rebalances, plural, =0 {no rebalance} one {# rebalance} other {# rebalances}} after the first join (generation {generation}); C3 was back after {back} with {partitions}; stop per member: {per_member}";
    STATIC_INTRO = "groups.story.static.intro" =>
        "Static members: C1 to C3 carry group.instance.id = instance-1 to instance-3. C3 is about to be killed.";
    STATIC_DEAD = "groups.story.static.dead" =>
        "C3 is dead. A static member sends no LeaveGroup: its partitions wait for it, up to session.timeout.ms = {session}.";
    STATIC_BACK = "groups.story.static.back" =>
        "C3 is back as instance-3: the coordinator swaps its member id and hands back the same partitions. No JoinGroup round, no rebalance.";
    STATIC_PASSED = "groups.story.static.passed" =>
        "session.timeout.ms has passed since the crash and the group is still in generation {generation}.";
    TWELVE_QUESTION = "groups.story.twelve.question" =>
        "Twelve members on six partitions: who owns which partition, and how many members are idle?";
    TWELVE_WATCH = "groups.story.twelve.watch" =>
        "Watch the --describe table once the group is Stable: one row per partition, then the members with none.";
    TWELVE_ANSWER = "groups.story.twelve.answer" =>
        "{owners}; {idle, plural, =0 {no member is idle} one {# member is idle} other {# members are idle}}: {idle_members}";
    TWELVE_INTRO = "groups.story.twelve.intro" =>
        "Twelve consumers start at once and all send JoinGroup. Within a group a partition has one owner, so at most six can work.";
    TWELVE_STABLE = "groups.story.twelve.stable" =>
        "Generation {generation} is Stable: {owning, plural, one {# member owns} other {# members own}} a partition; {idle, plural, one {# member gets} other {# members get}} none and only heartbeats.";
    TWELVE_LATER = "groups.story.twelve.later" =>
        "Nothing changes while nobody fails: idle members fetch nothing. Members beyond the partition count add no throughput; they stand by for a crash.";
    HANDOFF_QUESTION = "groups.story.handoff.question" =>
        "Each member hands its batches to a worker thread, and auto-commit commits what poll() returned. C1 is killed: which offsets were committed but never processed?";
    HANDOFF_WATCH = "groups.story.handoff.watch" => "Watch the delivery ledger when the new owners start from the committed offsets.";
    HANDOFF_ANSWER = "groups.story.handoff.answer" =>
        "committed but never processed: {lost, plural, =0 {nothing} one {# record} other {# records}} ({ranges}); {duplicates, plural, one {# record} other {# records}} processed twice";
    HANDOFF_INTRO = "groups.story.handoff.intro" =>
        "poll() hands each batch to a worker thread and returns at once; auto-commit then commits the fetched position, not what the worker has finished.";
    HANDOFF_KILLED = "groups.story.handoff.killed" =>
        "C1 is killed with batches still queued for its worker: their offsets are already committed.";
    HANDOFF_EXPIRED = "groups.story.handoff.expired" =>
        "session.timeout.ms = {session} after the crash the coordinator drops C1, and the rebalance moves its partitions.";
    HANDOFF_LOST = "groups.story.handoff.lost" =>
        "The new owners start at the committed offsets: the records no worker reached are skipped for good. Lost so far: {lost, plural, one {# record} other {# records}}.";
    POISON_QUESTION = "groups.story.poison.question" =>
        "A record on {partition} always fails processing. Where does the consumer get stuck, and what happens to the other partitions?";
    POISON_WATCH = "groups.story.poison.watch" => "Watch the LAG column partition by partition.";
    POISON_ANSWER = "groups.story.poison.answer" =>
        "{member} is stuck at {partition} offset {offset} after {attempts, plural, one {# failed attempt} other {# failed attempts}}: lag there {lag, plural, one {# record} other {# records}}; on the other partitions at most {others}";
    POISON_INTRO = "groups.story.poison.intro" =>
        "enable.auto.commit = false: each member commits after processing. A poison pill is about to land on {partition}.";
    POISON_APPENDED = "groups.story.poison.appended" => "A record that always fails is now at {partition} offset {offset}.";
    POISON_STUCK = "groups.story.poison.stuck" =>
        "{member} fails on it, seeks back to offset {offset} and polls it again: {attempts, plural, one {# attempt} other {# attempts}} so far. The partition cannot move past it.";
    POISON_SPREAD = "groups.story.poison.spread" =>
        "Only {partition}'s lag grows ({lag}); the other partitions flow. Per-partition lag, not total lag, points at a poison pill.";
}
