//! Read-only "Assignor examples (seed 003)": each example's input and what each assignor gives,
//! computed by the model's `assign()` at render time (inputs from `seed003_examples()`).

use leptos::prelude::*;

use crate::i18n::{key, t, tf};
use crate::model::group::assignor::{assign, seed003_examples, AssignorExample, TopicPartition};

fn list(parts: &[TopicPartition]) -> String {
    if parts.is_empty() {
        return "-".to_string();
    }
    parts.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
}

fn input_line(ex: &AssignorExample) -> String {
    let members: Vec<&str> = ex.members.iter().map(|m| m.member_id.as_str()).collect();
    let topics: Vec<String> = ex
        .partitions_per_topic
        .iter()
        .map(|(topic, n)| tf(key::GROUPS_ASSIGNORS_TOPIC, &[("topic", topic), ("count", &n.to_string())]))
        .collect();
    tf(key::GROUPS_ASSIGNORS_INPUT, &[("members", &members.join(", ")), ("topics", &topics.join(", "))])
}

/// One table: a row per member (incl. those that left), a column per assignor.
fn example_table(ex: AssignorExample) -> impl IntoView {
    let results: Vec<_> = ex.kinds.iter().map(|k| (*k, assign(*k, &ex.partitions_per_topic, &ex.members))).collect();
    let names: Vec<String> = match &ex.before {
        Some(before) => before.keys().cloned().collect(),
        None => ex.members.iter().map(|m| m.member_id.clone()).collect(),
    };
    let before = ex.before.clone();
    let id = ex.id;
    let rows = names
        .into_iter()
        .map(|name| {
            let old = before.as_ref().map(|b| view! { <td>{list(&b[&name])}</td> });
            let cells = results
                .iter()
                .map(|(kind, out)| {
                    let testid = format!("assign-{id}-{}-{name}", kind.protocol_name());
                    let shown = out.get(&name).map_or_else(|| t(key::GROUPS_ASSIGNORS_LEFT).to_string(), |p| list(p));
                    view! { <td data-testid=testid>{shown}</td> }
                })
                .collect_view();
            view! { <tr><th scope="row">{name.clone()}</th>{old}<td class="arrow" aria-hidden="true">"→"</td>{cells}</tr> }
        })
        .collect_view();
    let heads = ex.kinds.iter().map(|k| view! { <th scope="col" class="cmd">{k.simple_name()}</th> }).collect_view();
    let before_head = ex.before.is_some().then(|| view! { <th scope="col">{t(key::GROUPS_ASSIGNORS_BEFORE)}</th> });
    view! {
        <figure class="assignor-example" data-testid=format!("assignor-example-{id}")>
            <figcaption><strong>{t(ex.title_key)}</strong>" "{input_line(&ex)}</figcaption>
            <table class="assignor-table" tabindex="0" aria-label=t(ex.title_key)>
                <thead><tr><th scope="col">{t(key::GROUPS_ASSIGNORS_MEMBER)}</th>{before_head}<td class="arrow" aria-hidden="true"></td>{heads}</tr></thead>
                <tbody>{rows}</tbody>
            </table>
            <p class="legend">{t(ex.note_key)}</p>
        </figure>
    }
}

#[component]
pub fn AssignorExamples() -> impl IntoView {
    view! {
        <section class="assignor-examples" aria-labelledby="assignors-title">
            <h2 id="assignors-title">{t(key::GROUPS_ASSIGNORS_TITLE)}</h2>
            <p class="legend">{t(key::GROUPS_ASSIGNORS_ABOUT)}</p>
            <div class="assignor-grid">{seed003_examples().into_iter().map(example_table).collect_view()}</div>
        </section>
    }
}
