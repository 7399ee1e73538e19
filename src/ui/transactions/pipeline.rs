//! Consume–transform–produce: the processor (its input position, the offset it committed,
//! what it processed, with or without transactions) and the database it inserts into,
//! outside Kafka — its rows with how many times each was inserted, the duplicates marked.

use leptos::prelude::*;

use super::producers::{client_state, state_badge};
use super::TxnData;
use crate::html;
use crate::i18n::{key, t, tf};
use crate::markup::Html;
use crate::model::transactions::{ProcessorView, SinkView, TxnLab};
use crate::ui::markup::Markup;
use crate::ui::session::Session;

/// How many database rows are drawn (every duplicated row first, then the newest).
const ROWS: usize = 18;

fn figure(label: &str, testid: &str, value: u64) -> Html {
    html!("<div class=\"figure\"><dt>{}</dt><dd class=\"num\" data-testid=\"{}\">{}</dd></div>", label, testid, value)
}

fn processor_markup(p: &ProcessorView) -> Html {
    let mode = if p.transactional { key::TRANSACTIONS_PROCESSOR_EOS } else { key::TRANSACTIONS_PROCESSOR_NO_EOS };
    let mut out = state_badge(client_state(p.state), "processor-state");
    html!(out, "<p class=\"mode\" data-testid=\"processor-mode\">{}</p>", t(mode));
    let mut stats = figure(t(key::TRANSACTIONS_PROCESSOR_INPUT), "processor-input", p.input_position);
    stats.push(&figure(t(key::TRANSACTIONS_PROCESSOR_COMMITTED), "processor-committed", p.committed_offset));
    stats.push(&figure(t(key::TRANSACTIONS_PROCESSOR_PROCESSED), "processor-processed", p.processed));
    html!(out, "<dl class=\"stats\">{}</dl>", stats);
    out
}

/// The rows drawn: every duplicated one (up to `ROWS`), then the newest others, in id order.
fn shown_rows(s: &SinkView) -> Vec<(u64, u32)> {
    let mut rows: Vec<(u64, u32)> = s.rows.iter().filter(|(_, n)| *n > 1).take(ROWS).copied().collect();
    let room = ROWS - rows.len();
    let singles: Vec<(u64, u32)> = s.rows.iter().filter(|(_, n)| *n <= 1).copied().collect();
    rows.extend(singles[singles.len().saturating_sub(room)..].iter().copied());
    crate::model::kernel::order::sort(&mut rows);
    rows
}

fn sink_markup(s: &SinkView) -> Html {
    let dup_class = if s.duplicates > 0 { "headline bad" } else { "headline" };
    let mut out = html!(
        "<p class=\"{}\"><span class=\"big num\" data-testid=\"sink-duplicates\">{}</span> {}</p>",
        dup_class,
        s.duplicates,
        tf(key::TRANSACTIONS_SINK_DUPLICATES, &[("count", &s.duplicates.to_string())])
    );
    let inserts: u64 = s.rows.iter().map(|(_, n)| u64::from(*n)).sum();
    html!(
        out,
        "<p class=\"small\" data-testid=\"sink-rows\">{}</p>",
        tf(key::TRANSACTIONS_SINK_ROWS, &[("rows", &s.rows.len().to_string()), ("inserts", &inserts.to_string())])
    );
    let mut rows = Html::new();
    for (id, times) in shown_rows(s) {
        let title = tf(key::TRANSACTIONS_SINK_ROW, &[("record", &id.to_string()), ("count", &times.to_string())]);
        if times > 1 {
            html!(rows, "<li class=\"row dup\" title=\"{}\">#{} <strong>×{}</strong></li>", title, id, times);
        } else {
            html!(rows, "<li class=\"row\" title=\"{}\">#{}</li>", title, id);
        }
    }
    if !rows.is_empty() {
        html!(
            out,
            "<ul class=\"rows\" data-testid=\"sink-table\" aria-label=\"{}\">{}</ul>",
            t(key::TRANSACTIONS_SINK),
            rows
        );
    }
    out
}

#[component]
pub fn Pipeline(data: Memo<TxnData>, session: Session<TxnLab>, faults_open: RwSignal<bool>) -> impl IntoView {
    let has_processor = Memo::new(move |_| data.with(|d| d.view.processor.is_some()));
    let has_sink = Memo::new(move |_| data.with(|d| d.view.sink.is_some()));
    let processor =
        Signal::derive(move || data.with(|d| d.view.processor.as_ref().map(processor_markup).unwrap_or_default()));
    let sink = Signal::derive(move || data.with(|d| d.view.sink.as_ref().map(sink_markup).unwrap_or_default()));
    view! {
        <Show when=move || has_processor.get() || has_sink.get()>
            <div class="tx-row tx-pipeline">
                <Show when=move || has_processor.get()>
                    <section class="tx-processor" aria-labelledby="tx-processor-title" data-testid="processor">
                        <h2 id="tx-processor-title">{t(key::TRANSACTIONS_PROCESSOR)}</h2>
                        <Markup html=processor class="card-body"/>
                        <super::actions::ProcessorActions data=data session=session faults_open=faults_open/>
                    </section>
                </Show>
                <Show when=move || has_sink.get()>
                    <section class="tx-sink" aria-labelledby="tx-sink-title" data-testid="sink">
                        <h2 id="tx-sink-title">{t(key::TRANSACTIONS_SINK)}</h2>
                        <Markup html=sink/>
                    </section>
                </Show>
            </div>
        </Show>
    }
}
