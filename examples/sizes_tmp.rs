use kafka_lab::model::kernel::LogEntry;
fn main() {
    println!("cluster fact {}", std::mem::size_of::<LogEntry<kafka_lab::model::cluster::Fact>>());
    println!(
        "cluster sim {}",
        std::mem::size_of::<kafka_lab::model::kernel::Sim<kafka_lab::model::cluster::Cluster>>()
    );
    println!(
        "repl fact {}",
        std::mem::size_of::<
            LogEntry<<kafka_lab::model::replication::Replication as kafka_lab::model::kernel::World>::Fact>,
        >()
    );
    println!(
        "group fact {}",
        std::mem::size_of::<LogEntry<<kafka_lab::model::group::GroupLab as kafka_lab::model::kernel::World>::Fact>>()
    );
    println!(
        "log fact {}",
        std::mem::size_of::<LogEntry<<kafka_lab::model::log::LogLab as kafka_lab::model::kernel::World>::Fact>>()
    );
    println!(
        "timer fact {}",
        std::mem::size_of::<LogEntry<<kafka_lab::model::timer::TimerLab as kafka_lab::model::kernel::World>::Fact>>()
    );
    println!(
        "part fact {}",
        std::mem::size_of::<
            LogEntry<<kafka_lab::model::partitioner::Partitioner as kafka_lab::model::kernel::World>::Fact>,
        >()
    );
    println!("actor {}", std::mem::size_of::<kafka_lab::model::kernel::Actor>());
}
