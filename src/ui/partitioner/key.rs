//! The key box: what a learner types, the bytes a Java producer would send, and the
//! default partitioner's steps from those bytes to a partition.

use leptos::prelude::*;

use super::send;
use crate::i18n::{key, t, tf};
use crate::model::partitioner::{Command, HashSteps, Partitioner, TOPIC};
use crate::ui::session::Session;

/// `636c69` → `63 6c 69`, capped so a long key stays on a few lines.
fn spaced_hex(hex: &str) -> String {
    let pairs: Vec<&str> = (0..hex.len()).step_by(2).map(|i| &hex[i..i + 2]).collect();
    let shown = pairs.iter().take(48).copied().collect::<Vec<_>>().join(" ");
    if pairs.len() > 48 {
        format!("{shown} …")
    } else {
        shown
    }
}

#[component]
pub fn KeyPanel(session: Session<Partitioner>) -> impl IntoView {
    let current = Memo::new(move |_| session.with(|run| run.world().key_text()));
    let draft = RwSignal::new(String::new());
    // The box follows the model's key when it changes (preset, step back), not on every tick.
    Effect::new(move |_| draft.set(current.get().unwrap_or_default()));
    let steps = Memo::new(move |_| session.with(|run| run.world().key_steps()));
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        send(session, Command::set_key(&draft.get_untracked()));
    };
    view! {
        <section class="key-panel" aria-labelledby="key-title">
            <h2 id="key-title">{t(key::PARTITIONER_KEY_TITLE)}</h2>
            <div class="key-row">
                <div class="key-entry">
                    <form class="key-form" on:submit=submit>
                        <label for="record-key">{t(key::PARTITIONER_KEY_LABEL)}</label>
                        <input id="record-key" type="text" data-testid="key-input" autocomplete="off" spellcheck="false"
                            placeholder="cliente-42" prop:value=move || draft.get()
                            on:input=move |ev| draft.set(event_target_value(&ev))/>
                        <button type="submit" class="primary">{t(key::PARTITIONER_KEY_HASH)}</button>
                    </form>
                    <p class="legend">{t(key::PARTITIONER_KEY_HINT)}</p>
                </div>
                {move || match steps.get() {
                    Some(steps) => view! { <BigPartition partition=steps.partition/> }.into_any(),
                    None => view! { <p class="muted">{t(key::PARTITIONER_KEY_NONE)}</p> }.into_any(),
                }}
            </div>
        </section>
    }
}

/// The key's partition, large: what the learner reads off the key box.
#[component]
fn BigPartition(partition: u32) -> impl IntoView {
    view! {
        <div class="big-partition" aria-live="polite">
            <span class="muted">{t(key::PARTITIONER_KEY_PARTITION)}</span>
            <span class="big num" data-testid="key-partition">{partition}</span>
            <code translate="no">{format!("{TOPIC}-{partition}")}</code>
        </div>
    }
}

/// The default partitioner's arithmetic for the typed key, one step per line (the worked
/// numbers behind the key box's partition).
#[component]
pub fn StepsPanel(session: Session<Partitioner>) -> impl IntoView {
    let steps = Memo::new(move |_| session.with(|run| run.world().key_steps()));
    view! {
        <section class="steps-panel" aria-labelledby="steps-title">
            <h2 id="steps-title">{t(key::PARTITIONER_STEPS_TITLE)}</h2>
            {move || match steps.get() {
                Some(steps) => view! { <Steps steps=steps/> }.into_any(),
                None => view! { <p class="muted">{t(key::PARTITIONER_KEY_NONE)}</p> }.into_any(),
            }}
        </section>
    }
}

#[component]
fn Steps(steps: HashSteps) -> impl IntoView {
    let n = steps.num_partitions.to_string();
    let bytes = steps.key_bytes.len().to_string();
    let positive = steps.positive.to_string();
    view! {
        <div class="hash">
            <ol class="steps" data-testid="hash-steps">
                <li>
                    <span class="step-name">{tf(key::PARTITIONER_STEP_BYTES, &[("count", &bytes)])}</span>
                    <code translate="no" data-testid="key-bytes">{spaced_hex(&steps.bytes_hex())}</code>
                </li>
                <li>
                    <span class="step-name">{t(key::PARTITIONER_STEP_MURMUR2)}</span>
                    <code translate="no" data-testid="key-murmur2">{steps.murmur2}</code>
                    <code translate="no" class="muted">{format!("0x{}", steps.murmur2_hex)}</code>
                </li>
                <li>
                    <span class="step-name">{t(key::PARTITIONER_STEP_POSITIVE)}</span>
                    <code translate="no" data-testid="key-positive">{positive.clone()}</code>
                </li>
                <li>
                    <span class="step-name">{tf(key::PARTITIONER_STEP_MODULO, &[("n", &n)])}</span>
                    <code translate="no">{format!("{positive} % {n} = {}", steps.partition)}</code>
                </li>
            </ol>
        </div>
    }
}
