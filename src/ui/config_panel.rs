//! The configuration panel: every property the scene reads, with Kafka's names,
//! the value in force and the default; applying starts the run again with them.

use leptos::prelude::*;

use super::session::ConfigRow;
use super::transport::Shell;
use crate::i18n::{key, t, tf};

#[component]
pub fn ConfigPanel(shell: Shell) -> impl IntoView {
    // A memo: the table is rebuilt only when the config changes, not on every step.
    let rows = {
        let shell = shell.clone();
        Memo::new(move |_| shell.config_rows())
    };
    // Edited values by property name; empty means "as in force".
    let edits: RwSignal<Vec<(&'static str, String)>> = RwSignal::new(Vec::new());
    let overridden = move || rows.get().iter().filter(|r| r.value != r.default).count();
    let apply_shell = shell.clone();
    let apply = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let edited = edits.get_untracked();
        let overrides = rows
            .get_untracked()
            .iter()
            .map(|r| {
                let value = edited.iter().find(|(n, _)| *n == r.name).map_or(r.value.clone(), |(_, v)| v.clone());
                (r.name.to_string(), value)
            })
            .filter(|(name, value)| rows.get_untracked().iter().any(|r| r.name == name && r.default != value))
            .collect();
        apply_shell.reconfigure(overrides);
        edits.set(Vec::new());
    };
    view! {
        // A landmark named by its summary, so that its content is inside one when open.
        <section class="config-region" aria-labelledby="config-summary">
            <details class="config-panel">
                <summary id="config-summary">{move || tf(key::SHELL_CONFIG_SUMMARY, &[("count", &overridden().to_string())])}</summary>
                <SeedForm shell=shell.clone()/>
                <p class="muted">{t(key::SHELL_CONFIG_HINT)}</p>
                <form on:submit=apply>
                    <table data-testid="config">
                        <thead><tr>
                            <th scope="col">{t(key::SHELL_CONFIG_PROPERTY)}</th>
                            <th scope="col">{t(key::SHELL_CONFIG_VALUE)}</th>
                            <th scope="col">{t(key::SHELL_CONFIG_DEFAULT)}</th>
                            <th scope="col">{t(key::SHELL_CONFIG_SCOPE)}</th>
                        </tr></thead>
                        <tbody>
                            {move || rows.get().into_iter().map(|row| config_row(row, edits)).collect_view()}
                        </tbody>
                    </table>
                    <button type="submit" class="primary">{t(key::SHELL_CONFIG_APPLY)}</button>
                </form>
            </details>
        </section>
    }
}

fn config_row(row: ConfigRow, edits: RwSignal<Vec<(&'static str, String)>>) -> impl IntoView {
    let name = row.name;
    let changed = row.value != row.default;
    view! {
        <tr class:changed=changed>
            <th scope="row"><code translate="no">{name}</code></th>
            <td>
                <input type="text" size="12" prop:value=row.value aria-label=name
                    on:input=move |ev| {
                        let value = event_target_value(&ev);
                        edits.update(|e| {
                            e.retain(|(n, _)| *n != name);
                            e.push((name, value));
                        });
                    }/>
            </td>
            <td class="num">{row.default}</td>
            <td class="muted">{row.scope}</td>
        </tr>
    }
}

/// The run's seed: another seed starts the same config again with other random choices.
#[component]
fn SeedForm(shell: Shell) -> impl IntoView {
    let seed_text = RwSignal::new(String::new());
    let current_seed = {
        let shell = shell.clone();
        move || shell.link(false).seed.unwrap_or(0).to_string()
    };
    view! {
        <form class="seed" on:submit=move |ev| {
            ev.prevent_default();
            match seed_text.get_untracked().trim().parse::<u64>() {
                Ok(seed) => shell.reset(seed),
                Err(_) => shell.error().set(Some(
                    crate::i18n::message(key::SHELL_SEED_INVALID)
                        .with("seed", crate::model::kernel::Arg::text(seed_text.get_untracked()))
                        .with("max", crate::model::kernel::Arg::text(u64::MAX.to_string())),
                )),
            }
        }>
            <label>
                {t(key::SHELL_SEED)}
                <input type="text" inputmode="numeric" size="8" prop:value=current_seed
                    on:input=move |ev| seed_text.set(event_target_value(&ev))/>
            </label>
            <button type="submit">{t(key::SHELL_SEED_APPLY)}</button>
        </form>
    }
}
