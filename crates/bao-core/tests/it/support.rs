use bao_core::{BySide, HouseState, Pit, Position, RuleSet, Setup, Side};
use serde_json::Value;

/// Reads design.md §4 position JSON into a setup (the test's own reader, independent of the
/// crate's serde module).
pub(crate) fn setup_from_json(v: &Value, rules: RuleSet) -> Result<Setup, String> {
    let mut s = Setup::start(rules);
    s.to_move = match v["to_move"].as_str() {
        Some("south") => Side::South,
        Some("north") => Side::North,
        other => return Err(format!("bad to_move {other:?}")),
    };
    let hand = |k: &str| v["hands"][k].as_u64().map(|n| n as u8).ok_or("bad hands");
    s.hands = BySide::new(hand("south")?, hand("north")?);
    for (slot, row) in ["A", "B", "a", "b"].iter().enumerate() {
        let arr = v["pits"][row].as_array().ok_or("bad pits")?;
        for (i, n) in arr.iter().enumerate() {
            s.pits[slot][i] = n.as_u64().ok_or("bad count")? as u8;
        }
    }
    for side in Side::ALL {
        let h = v["houses"][side.name()].as_str().ok_or("bad house")?;
        *s.houses.get_mut(side) = HouseState::from_name(h).ok_or("bad house name")?;
        *s.blocked.get_mut(side) = None;
    }
    if let Some(t) = v["takasia"].as_str() {
        let pit: Pit = t.parse().map_err(|e| format!("{e}"))?;
        *s.blocked.get_mut(pit.side()) = Some(pit);
    }
    let stage = v["stage"].as_str().unwrap_or("");
    let want = if *s.hands.get(s.to_move) > 0 {
        "namua"
    } else {
        "mtaji"
    };
    if stage != want {
        return Err(format!("stage {stage} does not match the hands"));
    }
    Ok(s)
}

/// Writes a position as design.md §4 JSON.
pub(crate) fn position_json(p: &Position) -> Value {
    let s = p.to_setup();
    let rows: Vec<(&str, Vec<u8>)> = ["A", "B", "a", "b"]
        .iter()
        .enumerate()
        .map(|(i, r)| (*r, s.pits[i].to_vec()))
        .collect();
    serde_json::json!({
        "to_move": p.to_move().name(),
        "stage": p.stage().name(),
        "hands": {"south": p.hand(Side::South), "north": p.hand(Side::North)},
        "pits": {"A": rows[0].1, "B": rows[1].1, "a": rows[2].1, "b": rows[3].1},
        "houses": {"south": p.house_state(Side::South).name(), "north": p.house_state(Side::North).name()},
        "takasia": p.takasia().map(|t| t.to_string()),
    })
}
