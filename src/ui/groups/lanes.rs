//! The members' lanes on the stage: a one-line key, the lane labels (each member's button) beside
//! the timeline drawing, and under them the picked member's actions.
//!
//! The drawing is as wide in view units as its box is in sixteenths of a rem, so it is measured:
//! a resize observer watches the box and a 100 rem probe (the root size changes in presenter
//! mode) and redraws one frame later, never inside the observer's own callback.

use leptos::html::{Div, Span};
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

use super::legend::key_markup;
use super::members::{self, LaneLabels, MemberFoot};
use super::timeline::{self, Geometry, AXIS_H};
use crate::i18n::{key, t, tf};
use crate::markup::{fixed, Tenths};
use crate::model::group::GroupLab;
use crate::ui::markup::{Host, Markup};
use crate::ui::session::Session;

/// `size` follows (width of `cell` in px, 1 rem in px).
fn observe_size(cell: NodeRef<Div>, probe: NodeRef<Span>, size: RwSignal<(f64, f64)>) {
    Effect::new(move |_| {
        let (Some(cell), Some(probe)) = (cell.get(), probe.get()) else { return };
        let measure = {
            let (cell, probe) = (cell.clone(), probe.clone());
            move || {
                let rem = f64::from(probe.offset_width()) / 100.0;
                // clientWidth is rounded: half a pixel less keeps the scale at 1 or just above.
                let now = (f64::from(cell.client_width()) - 0.5, if rem > 0.0 { rem } else { 16.0 });
                if now.0 > 0.0 && size.try_get_untracked().is_some_and(|was| was != now) {
                    size.try_set(now);
                }
            }
        };
        measure();
        let callback = Closure::<dyn FnMut(js_sys::Array)>::new(move |_entries: js_sys::Array| {
            request_animation_frame(measure.clone());
        });
        if let Ok(observer) = web_sys::ResizeObserver::new(callback.as_ref().unchecked_ref()) {
            observer.observe(&cell);
            observer.observe(&probe);
            let observer = StoredValue::new_local(observer);
            on_cleanup(move || {
                observer.try_with_value(|o| o.disconnect());
            });
        }
        // A late call after the scene is gone only finds disposed signals; the closure stays valid.
        callback.forget();
    });
}

#[component]
pub fn Lanes(session: Session<GroupLab>, selected: RwSignal<Option<u32>>) -> impl IntoView {
    let (cell, probe) = (NodeRef::<Div>::new(), NodeRef::<Span>::new());
    let size = RwSignal::new((800.0_f64, 16.0_f64));
    observe_size(cell, probe, size);
    let cards = members::cards(session);
    let count = Memo::new(move |_| cards.with(Vec::len));
    let geometry = Memo::new(move |_| {
        let (width, rem) = size.get();
        Geometry::new(width * 16.0 / rem, count.get())
    });
    let drawing = Signal::derive(move || {
        session.with(|run| timeline::timeline_svg(run.world(), run.sim().now_ms(), selected.get(), geometry.get()))
    });
    let view_box = move || geometry.with(|g| format!("0 0 {} {}", Tenths(g.width), Tenths(g.height(count.get()))));
    let rows = move || {
        geometry
            .with(|g| format!("--axis-h: {}rem; --lane-h: {}rem", fixed(AXIS_H / 16.0, 4), fixed(g.lane_h / 16.0, 4)))
    };
    let svg_class = move || if geometry.with(Geometry::dense) { "lanes-svg dense" } else { "lanes-svg" };
    let shown =
        Signal::derive(move || session.with(|run| key_markup(&timeline::kinds_shown(run.world(), run.sim().now_ms()))));
    let seconds = (timeline::WINDOW_MS / 1000).to_string();
    view! {
        <div class="pattern-defs" aria-hidden="true">
            <span class="rem-probe" node_ref=probe></span>
            <Markup html=Signal::derive(timeline::patterns)/>
        </div>
        <div class="lanes-head">
            <h3 id="lanes-title">{tf(key::GROUPS_LANES, &[("seconds", &seconds)])}</h3>
            <Markup html=shown host=Host::Ul class="groups-key" label=Signal::derive(|| t(key::GROUPS_LEGEND_ARIA).to_string())/>
        </div>
        <div class="lanes-grid" data-style=rows>
            <LaneLabels cards=cards selected=selected/>
            <div class="lanes-plot" node_ref=cell>
                <svg class=svg_class viewBox=view_box role="img" aria-label=t(key::GROUPS_TIMELINE_ARIA) data-testid="timeline">
                    <Markup html=drawing host=Host::G/>
                </svg>
            </div>
        </div>
        <MemberFoot session=session cards=cards selected=selected/>
    }
}
