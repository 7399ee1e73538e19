//! The only components that put markup into the page, [`Markup`] (written whole) and
//! [`PatchedMarkup`] (synced into the live nodes): everything they show is an [`Html`], which
//! only escaping constructors can build.

use leptos::prelude::*;

use crate::markup::Html;

/// The element that holds the markup.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Host {
    #[default]
    Div,
    /// Inline text (inside a heading or a paragraph).
    Span,
    /// An SVG group (inside an `<svg>` the caller draws).
    G,
    Tbody,
    Ul,
    Dl,
}

/// Draws `html` inside a `host` element with the given class, test id, role and label, and
/// `tabindex` ("0" for a box that scrolls, so that a keyboard can reach and scroll it). A `Div`
/// may take `on_click`, one handler for every control its markup draws (it reads which from the
/// event's target).
#[component]
pub fn Markup(
    #[prop(into)] html: Signal<Html>,
    #[prop(optional)] host: Host,
    #[prop(optional, into)] class: Option<&'static str>,
    #[prop(optional, into)] testid: Option<&'static str>,
    #[prop(optional, into)] role: Option<&'static str>,
    #[prop(optional, into)] label: Option<Signal<String>>,
    #[prop(optional, into)] tabindex: Option<&'static str>,
    #[prop(optional)] on_click: Option<Callback<leptos::ev::MouseEvent>>,
) -> impl IntoView {
    let inner = move || html.with(|h| h.as_str().to_string());
    let label = move || label.map(|l| l.get());
    match host {
        Host::Div => {
            let click = move |ev| {
                if let Some(on_click) = on_click {
                    on_click.run(ev);
                }
            };
            view! { <div class=class data-testid=testid role=role aria-label=label tabindex=tabindex inner_html=inner
            on:click=click></div> }
            .into_any()
        }
        Host::Span => {
            view! { <span class=class data-testid=testid role=role aria-label=label inner_html=inner></span> }
                .into_any()
        }
        Host::G => {
            view! { <g class=class data-testid=testid role=role aria-label=label inner_html=inner></g> }.into_any()
        }
        Host::Tbody => view! { <tbody class=class data-testid=testid inner_html=inner></tbody> }.into_any(),
        Host::Ul => {
            view! { <ul class=class data-testid=testid role=role aria-label=label inner_html=inner></ul> }.into_any()
        }
        Host::Dl => view! { <dl class=class data-testid=testid inner_html=inner></dl> }.into_any(),
    }
}

/// Markup that is large and changes a little every step (the replication scene's logs and
/// cards), drawn in a `div`: the page's `labPatch` (scripts/site.mjs, PATCH) parses the new
/// markup aside and changes only the nodes that differ, so the browser restyles and lays out
/// those, not hundreds of new nodes a step.
#[component]
pub fn PatchedMarkup(
    #[prop(into)] html: Signal<Html>,
    #[prop(optional, into)] class: Option<&'static str>,
    #[prop(optional, into)] testid: Option<&'static str>,
) -> impl IntoView {
    let inner = move || html.with(|h| h.as_str().to_string());
    view! { <div class=class data-testid=testid prop:labPatch=inner></div> }
}
