//! The configuration in force, with Kafka's property names (read-only: presets and links set it).

use leptos::prelude::*;

use crate::html;
use crate::i18n::t;
use crate::markup::Html;
use crate::model::config::Config;
use crate::model::group::assignor::AssignorKind;
use crate::model::group::GroupLab;
use crate::ui::markup::{Host, Markup};
use crate::ui::session::Session;

const ASSIGNOR_PROPERTY: &str = "partition.assignment.strategy";

/// The properties a learner compares between presets, with what each one does.
const SHOWN: &[(&str, &str)] = &[
    (ASSIGNOR_PROPERTY, "groups.config.assignor"),
    ("session.timeout.ms", "groups.config.session"),
    ("heartbeat.interval.ms", "groups.config.heartbeat"),
    ("max.poll.interval.ms", "groups.config.max_poll_interval"),
    ("max.poll.records", "groups.config.max_poll_records"),
    ("lab.process.ms.per.record", "groups.config.process"),
    ("enable.auto.commit", "groups.config.auto_commit"),
    ("auto.commit.interval.ms", "groups.config.auto_commit_interval"),
    ("lab.manual.commit", "groups.config.manual_commit"),
    ("lab.static.membership", "groups.config.static"),
    ("lab.handoff.to.worker.thread", "groups.config.handoff"),
    ("auto.offset.reset", "groups.config.reset"),
    ("group.initial.rebalance.delay.ms", "groups.config.initial_delay"),
    ("partitions", "groups.config.partitions"),
    ("lab.members", "groups.config.members"),
    ("lab.producer.records.per.sec", "groups.config.producer"),
];

/// The property rows; the assignor shows its class without the package (the full name is in the title).
fn rows_markup(config: &Config, assignor: AssignorKind) -> Html {
    let changed: Vec<&str> = config.overrides().into_iter().map(|(n, _)| n).collect();
    let mut out = Html::new();
    for (name, key) in SHOWN {
        let value = config.display(name);
        let shown = if *name == ASSIGNOR_PROPERTY { assignor.simple_name().to_string() } else { value.clone() };
        let (class, mark) = if changed.contains(name) {
            (
                "changed",
                html!(
                    r#"<span class="changed-mark"> ✎<span class="sr-only">{}</span></span>"#,
                    t("groups.config.changed")
                ),
            )
        } else {
            ("", Html::new())
        };
        html!(
            out,
            r#"<tr class="{}" data-testid="config-{}"><th scope="row"><code>{}</code></th><td class="num" title="{}">{}{}</td><td class="muted">{}</td></tr>"#,
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
    let rows = Memo::new(move |_| session.with(|run| rows_markup(&run.config, run.world().assignor())));
    view! {
        <section class="config" aria-labelledby="config-title">
            <h2 id="config-title">{t("groups.config")}</h2>
            <p class="legend">{t("groups.config.hint")}</p>
            <table class="config-table">
                <Markup html=rows host=Host::Tbody/>
            </table>
        </section>
    }
}
