//! Load per partition for a key distribution: offsets and consumer lag now, what each
//! produce burst added to each partition, and the composite-key fix for the hot key.

use leptos::prelude::*;

use super::geometry::PathData;
use super::{grouped, percent};
use crate::i18n::{key, t, tf};
use crate::model::partitioner::{
    Command, KeyDistribution, PartitionLoadView, Partitioner, ProduceRound, HOT_KEY, TOPIC,
};
use crate::ui::markup::{Host, Markup};
use crate::ui::session::Session;

const DISTRIBUTIONS: &[(KeyDistribution, &str)] = &[
    (KeyDistribution::Uniform, key::PARTITIONER_DIST_UNIFORM),
    (KeyDistribution::Zipf, key::PARTITIONER_DIST_ZIPF),
    (KeyDistribution::Megacorp, key::PARTITIONER_DIST_MEGACORP),
];

/// The load now (consumer lag per partition) beside what each burst added; on the stage
/// (the hot-key story) both are boxes of bounded height that scroll.
#[component]
pub fn LoadPanel(session: Session<Partitioner>) -> impl IntoView {
    let loads = move || session.with(|run| run.world().partition_loads());
    let has_records = move || loads().iter().any(|l| l.log_end_offset > 0);
    view! {
        <section class="load" aria-labelledby="load-title">
            <h2 id="load-title">{t(key::PARTITIONER_LOAD_TITLE)}</h2>
            <LoadControls session=session/>
            <div class="load-grid">
                <div class="load-now">
                    <Show when=has_records fallback=|| view! { <p class="muted">{t(key::PARTITIONER_LOAD_EMPTY)}</p> }>
                        <h3 class="tool-title" id="load-tool"><code translate="no">{format!("kafka-consumer-groups --describe --group lab  ·  {TOPIC}")}</code></h3>
                        <p class="legend">{t(key::PARTITIONER_LOAD_LEGEND)}</p>
                        <div class="scroll-box loads-box" role="region" tabindex="0" aria-labelledby="load-tool">
                            <LoadTable loads=Signal::derive(loads)/>
                        </div>
                    </Show>
                </div>
                <Rounds session=session/>
            </div>
        </section>
    }
}

/// `kafka-get-offsets`: the log end offset of every partition, as the tool prints it.
#[component]
pub fn OffsetsPanel(session: Session<Partitioner>) -> impl IntoView {
    let loads = move || session.with(|run| run.world().partition_loads());
    let has_records = move || loads().iter().any(|l| l.log_end_offset > 0);
    let command = format!("kafka-get-offsets --topic {TOPIC}");
    view! {
        <Show when=has_records>
            <section class="offsets-panel" aria-labelledby="offsets-title">
                <h2 class="tool-title" id="offsets-title"><code translate="no">{command.clone()}</code></h2>
                <pre translate="no" class="offsets" data-testid="get-offsets" role="region" tabindex="0"
                    aria-labelledby="offsets-title">
                    {move || loads().iter().map(|l| format!("{TOPIC}:{}:{}", l.partition, l.log_end_offset)).collect::<Vec<_>>().join("\n")}
                </pre>
            </section>
        </Show>
    }
}

#[component]
fn LoadControls(session: Session<Partitioner>) -> impl IntoView {
    let distribution = move || session.with(|run| run.world().workload().distribution);
    let composite = move || session.with(|run| run.world().workload().composite_buckets.is_some());
    let on_distribution = move |ev| {
        if let Some(d) = KeyDistribution::parse(&event_target_value(&ev)) {
            session.command(Command::Distribution(d));
        }
    };
    view! {
        <div class="load-controls">
            <label>{t(key::PARTITIONER_DIST_LABEL)}
                <select data-testid="distribution" on:change=on_distribution>
                    {DISTRIBUTIONS.iter().map(|(d, key)| {
                        let d = *d;
                        view! { <option value=d.name() selected=move || distribution() == d>{t(key)}</option> }
                    }).collect_view()}
                </select>
            </label>
            <label class="check">
                <input type="checkbox" data-testid="composite" prop:checked=composite
                    on:change=move |ev| session.command(Command::Composite(event_target_checked(&ev)))/>
                {t(key::PARTITIONER_COMPOSITE_LABEL)}
            </label>
            <button data-testid="produce" on:click=move |_| session.command(Command::Produce(100_000))>{t(key::PARTITIONER_PRODUCE_BUTTON)}</button>
        </div>
        // The trade-off folds to one line (the story's caption says it too when it matters).
        <Show when=move || composite() || distribution() == KeyDistribution::Megacorp>
            <details class="tradeoff" class:active=composite>
                <summary><strong>{move || if composite() { t(key::PARTITIONER_COMPOSITE_ON) } else { t(key::PARTITIONER_COMPOSITE_OFF) }}</strong></summary>
                {t(key::PARTITIONER_COMPOSITE_TRADEOFF)}
            </details>
        </Show>
    }
}

#[component]
fn LoadTable(loads: Signal<Vec<PartitionLoadView>>) -> impl IntoView {
    view! {
        <table class="loads" data-testid="loads">
            <thead><tr>
                <th scope="col">"PARTITION"</th>
                <th scope="col" class="wide">{t(key::PARTITIONER_LOAD_BAR)}</th>
                <th scope="col">"CURRENT-OFFSET"</th>
                <th scope="col">"LOG-END-OFFSET"</th>
                <th scope="col">"LAG"</th>
                <th scope="col">{HOT_KEY}</th>
            </tr></thead>
            <tbody>
                // Keyed by what a row shows: rows that did not change are kept, not rebuilt.
                <For each=move || {
                        let loads = loads.get();
                        let max = loads.iter().map(|l| l.log_end_offset).max().unwrap_or(0).max(1);
                        loads.into_iter().map(move |l| (l, max)).collect::<Vec<_>>()
                    }
                    key=|(l, max)| (l.partition, l.log_end_offset, l.current_offset, l.hot_records, *max)
                    children=|(l, max)| load_row(l, max)/>
            </tbody>
        </table>
    }
}

fn load_row(l: PartitionLoadView, max: u64) -> impl IntoView {
    let share = |v: u64| format!("width: {}%", crate::markup::fixed(v as f64 * 100.0 / max as f64, 2));
    let hot = l.hot_records > 0;
    view! {
        <tr data-testid=format!("load-{}", l.partition) class:hot=hot>
            <th scope="row"><code translate="no">{format!("{TOPIC}-{}", l.partition)}</code></th>
            <td class="wide">
                <div class="stack" aria-hidden="true">
                    <div class="consumed" data-style=share(l.current_offset)></div>
                    <div class="lag" data-style=share(l.lag)></div>
                </div>
            </td>
            <td class="num">{grouped(l.current_offset)}</td>
            <td class="num" data-testid="leo">{grouped(l.log_end_offset)}</td>
            <td class="num" class:lagging={l.lag > 0}>{grouped(l.lag)}</td>
            <td class="num">{if hot { format!("★ {}", grouped(l.hot_records)) } else { "—".into() }}</td>
        </tr>
    }
}

/// What each `produce` burst added per partition (`kafka-get-offsets` after minus before).
#[component]
fn Rounds(session: Session<Partitioner>) -> impl IntoView {
    let rounds = Memo::new(move |_| session.with(|run| run.world().rounds().to_vec()));
    view! {
        <Show when=move || rounds.with(|r| !r.is_empty())>
            <div class="load-rounds">
                <h3 id="rounds-title">{t(key::PARTITIONER_ROUNDS_TITLE)}</h3>
                <p class="legend">{t(key::PARTITIONER_ROUNDS_LEGEND)}</p>
                <div class="scroll-box rounds-box" role="region" tabindex="0" aria-labelledby="rounds-title">
                    <ol class="rounds">
                        {move || rounds.get().into_iter().enumerate().map(|(i, r)| round_item(i, r)).collect_view()}
                    </ol>
                </div>
            </div>
        </Show>
    }
}

fn round_item(index: usize, round: ProduceRound) -> impl IntoView {
    let counts = &round.report.records_per_partition;
    let max = counts.iter().copied().max().unwrap_or(0).max(1);
    let n = counts.len().max(1) as f64;
    let width = 480.0 / n;
    let (mut bars, mut hot_bars) = (PathData::default(), PathData::default());
    for (p, (count, hot)) in counts.iter().zip(&round.report.hot_records_per_partition).enumerate() {
        let x = p as f64 * width + 1.0;
        let w = (width - 2.0).max(1.0);
        let h = *count as f64 / max as f64 * 60.0;
        let hot_h = *hot as f64 / max as f64 * 60.0;
        bars.rect(x, 62.0 - h, w, h);
        if *hot > 0 {
            hot_bars.rect(x, 62.0 - hot_h, w, hot_h);
        }
    }
    let mut chart = bars.element("round-bar");
    chart.push(&hot_bars.element("round-hot"));
    let offsets = counts.iter().enumerate().map(|(p, c)| format!("{TOPIC}:{p}:+{c}")).collect::<Vec<_>>().join("  ");
    let mut how = round.distribution.name().to_string();
    if round.composite {
        how = format!("{how}, {}", t(key::PARTITIONER_ROUNDS_COMPOSITE));
    }
    let head = tf(
        key::PARTITIONER_ROUNDS_HEAD,
        &[
            ("n", &(index + 1).to_string()),
            ("records", &grouped(round.records)),
            ("partitions", &round.partitions.to_string()),
            ("how", &how),
            ("share", &percent(round.report.hottest_share())),
        ],
    );
    let head = if round.distribution == KeyDistribution::Megacorp {
        let hot = round.report.partitions_with_hot_key().len().to_string();
        format!("{head}; {}", tf(key::PARTITIONER_ROUNDS_HOT, &[("hot", &hot)]))
    } else {
        head
    };
    let label = head.clone();
    view! {
        <li class="round" data-testid=format!("round-{index}")>
            <p class="round-head">{head}</p>
            <svg class="round-chart" viewBox="0 0 480 64" preserveAspectRatio="none" role="img" aria-label=label>
                <Markup host=Host::G html=Signal::stored(chart)/>
            </svg>
            <code translate="no" class="round-offsets" data-testid="round-offsets">{offsets}</code>
        </li>
    }
}
