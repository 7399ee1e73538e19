//! One bundle per page: every registered scene has its `src/bin/` bundles (its page, its embed
//! and its comparison), and the site script (scripts/site.mjs) builds exactly these, in the
//! registry's order — a scene missing here would have no page and its links would break.

use std::fs;
use std::path::Path;

use kafka_lab::scenes::SCENES;

fn read(file: &str) -> String {
    fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(file)).unwrap_or_else(|_| panic!("{file} is missing"))
}

#[test]
fn every_scene_has_its_own_bundles() {
    for scene in SCENES {
        // The scene's page, its embed (the stage alone) and its comparison (`vs=`).
        for (file, variant) in [("", ""), ("-embed", ", embed"), ("-compare", ", compare")] {
            let source = read(&format!("src/bin/{}{file}.rs", scene.id));
            let expected = format!("kafka_lab::bundle!({}{variant});", scene.id);
            assert!(source.contains(&expected), "src/bin/{}{file}.rs should say {expected}", scene.id);
        }
    }
    assert!(read("src/bin/home.rs").contains("kafka_lab::bundle!(home);"), "the front page's bundle");
}

#[test]
fn the_site_builds_every_scene_in_navigation_order() {
    let site = read("scripts/site.mjs");
    let line = site.lines().find(|l| l.starts_with("const SCENES")).expect("const SCENES in scripts/site.mjs");
    let listed: Vec<&str> = line.split('"').skip(1).step_by(2).collect();
    let registered: Vec<&str> = SCENES.iter().map(|s| s.id).collect();
    assert_eq!(listed, registered, "scripts/site.mjs builds other scenes than the registry lists");
}
