//! The configuration in force, with Kafka's property names (read-only: presets and links set it).

use leptos::prelude::*;

use crate::html;
use crate::i18n::{key, t};
use crate::markup::Html;
use crate::model::config::Config;
use crate::model::group::assignor::AssignorKind;
use crate::model::group::GroupLab;
use crate::ui::markup::{Host, Markup};
use crate::ui::session::Session;

const ASSIGNOR_PROPERTY: &str = "partition.assignment.strategy";

/// The properties a learner compares between presets, with what each one does.
const SHOWN: &[(&str, &str)] = &[
    (ASSIGNOR_PROPERTY, key::GROUPS_CONFIG_ASSIGNOR),
    ("session.timeout.ms", key::GROUPS_CONFIG_SESSION),
    ("heartbeat.interval.ms", key::GROUPS_CONFIG_HEARTBEAT),
    ("max.poll.interval.ms", key::GROUPS_CONFIG_MAX_POLL_INTERVAL),
    ("max.poll.records", key::GROUPS_CONFIG_MAX_POLL_RECORDS),
    ("lab.process.ms.per.record", key::GROUPS_CONFIG_PROCESS),
    ("enable.auto.commit", key::GROUPS_CONFIG_AUTO_COMMIT),
    ("auto.commit.interval.ms", key::GROUPS_CONFIG_AUTO_COMMIT_INTERVAL),
    ("lab.manual.commit", key::GROUPS_CONFIG_MANUAL_COMMIT),
    ("lab.static.membership", key::GROUPS_CONFIG_STATIC),
    ("lab.handoff.to.worker.thread", key::GROUPS_CONFIG_HANDOFF),
    ("auto.offset.reset", key::GROUPS_CONFIG_RESET),
    ("group.initial.rebalance.delay.ms", key::GROUPS_CONFIG_INITIAL_DELAY),
    ("partitions", key::GROUPS_CONFIG_PARTITIONS),
    ("lab.members", key::GROUPS_CONFIG_MEMBERS),
    ("lab.producer.records.per.sec", key::GROUPS_CONFIG_PRODUCER),
];

/// `[RangeAssignor, CooperativeStickyAssignor]`: the assignor list without packages, by preference.
fn strategy_list(value: &str) -> String {
    let names: Vec<&str> = value
        .split(',')
        .map(|class| AssignorKind::from_config(class.trim()).map_or(class, |k| k.simple_name()))
        .collect();
    format!("[{}]", names.join(", "))
}

/// The property rows; the assignor list shows its classes without the package (the full names
/// are in the title).
fn rows_markup(config: &Config) -> Html {
    let changed: Vec<&str> = config.overrides().into_iter().map(|(n, _)| n).collect();
    let mut out = Html::new();
    for (name, key) in SHOWN {
        let value = config.display(name);
        let shown = if *name == ASSIGNOR_PROPERTY { strategy_list(&value) } else { value.clone() };
        let (class, mark) = if changed.contains(name) {
            (
                "changed",
                html!(
                    r#"<span class="changed-mark"> ✎<span class="sr-only">{}</span></span>"#,
                    t(key::GROUPS_CONFIG_CHANGED)
                ),
            )
        } else {
            ("", Html::new())
        };
        html!(
            out,
            r#"<tr class="{}" data-testid="config-{}"><th scope="row"><code translate="no">{}</code></th><td class="num" title="{}">{}{}</td><td class="muted">{}</td></tr>"#,
            class,
            name,
            name,
            value,
            shown,
            mark,
            t(key),
        );
    }
    out
}

#[component]
pub fn ConfigPanel(session: Session<GroupLab>) -> impl IntoView {
    let rows = Memo::new(move |_| session.with(|run| rows_markup(&run.config)));
    view! {
        <section class="config" aria-labelledby="config-title">
            <h2 id="config-title">{t(key::GROUPS_CONFIG)}</h2>
            <p class="legend">{t(key::GROUPS_CONFIG_HINT)}</p>
            <table class="config-table">
                <Markup html=rows host=Host::Tbody/>
            </table>
        </section>
    }
}
